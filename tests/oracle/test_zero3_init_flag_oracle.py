"""Oracle for zero3_init_flag under ``accelerate launch`` (knowledge/transformers.py
``ACCELERATE_REGISTERS_WITHOUT_INIT_FLAG_FROM``): the real launcher of accelerate 0.34.2 and of 1.1.1 (with
Transformers 4.46.3 and DeepSpeed 0.19.8 on the CPU accelerator) starts one process of a script that builds an
``Accelerator()`` and then loads a small local model with ``low_cpu_mem_usage=True`` and with a ``device_map``,
under a ZeRO-3 YAML with ``zero3_init_flag: false``. Before 1.0 accelerate registers nothing with Transformers and
both loads succeed; from 1.0 both raise Transformers' ZeRO-3 ValueError. ``dsdoctor lint`` of the same project,
with that accelerate pinned, must report errors exactly where the loads raise (info where they do not). Nothing is
downloaded here: the model is built from a config."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Dict

import pytest
from envfixture import need_oracle, one_rank_env

from dsdoctor.lint import lint

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
RULES = {"low": "zero3-low-cpu-mem-usage-conflict", "map": "zero3-device-map-conflict"}
YAML = ("compute_environment: LOCAL_MACHINE\ndeepspeed_config:\n  gradient_accumulation_steps: 1\n"
        "  zero3_init_flag: false\n  zero_stage: 3\ndistributed_type: DEEPSPEED\nmixed_precision: 'no'\n"
        "num_machines: 1\nnum_processes: 1\n")
MAKE = ("import sys\nfrom transformers import LlamaConfig, LlamaForCausalLM\n"
        "c = LlamaConfig(vocab_size=64, hidden_size=16, intermediate_size=32, num_hidden_layers=1,\n"
        "                num_attention_heads=2, num_key_value_heads=2)\n"
        "LlamaForCausalLM(c).save_pretrained(sys.argv[1])\n")
TRAIN = '''import sys

from accelerate import Accelerator
from transformers import AutoModelForCausalLM

accelerator = Accelerator()
try:
    AutoModelForCausalLM.from_pretrained(sys.argv[1], low_cpu_mem_usage=True)
    print("RESULT low loaded", flush=True)
except ValueError:
    print("RESULT low raised", flush=True)
try:
    AutoModelForCausalLM.from_pretrained(sys.argv[1], device_map={"": "cpu"})
    print("RESULT map loaded", flush=True)
except ValueError:
    print("RESULT map raised", flush=True)
'''


def _pythonpath(acc: str) -> str:
    hf = need_oracle(ORACLE / "hf" / "tf4.46.3")
    ds = need_oracle(ORACLE / "ds" / "0.19.8")
    if acc == "1.1.1":  # the accelerate of hf/tf4.46.3
        return f"{hf}{os.pathsep}{ds}"
    return f"{need_oracle(ORACLE / 'acc' / acc)}{os.pathsep}{hf}{os.pathsep}{ds}"


def _real(tmp: Path, acc: str) -> Dict[str, str]:
    py = str(need_oracle(ORACLE / "venv" / "bin" / "python"))
    env = one_rank_env(_pythonpath(acc))
    env = {k: v for k, v in env.items() if k not in ("RANK", "LOCAL_RANK", "WORLD_SIZE", "MASTER_ADDR")}
    env.update(HF_HUB_OFFLINE="1")
    model = tmp / "tiny"
    made = subprocess.run([py, "-c", MAKE, str(model)], env=env, capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr[-3000:]
    argv = [py, "-m", "accelerate.commands.launch", "--main_process_port", env.pop("MASTER_PORT"),
            "--config_file", "zero3.yaml", "train.py", str(model)]
    p = subprocess.run(argv, cwd=tmp, env=env, capture_output=True, text=True, timeout=400)
    got = dict(line.split()[1:3] for line in p.stdout.splitlines() if line.startswith("RESULT "))
    assert set(got) == set(RULES), (p.stdout + p.stderr)[-3000:]
    return got


@pytest.mark.parametrize("acc", ["0.34.2", "1.1.1"])
def test_zero3_init_flag_off_registers_zero3_from_accelerate_1_0(tmp_path: Path, acc: str) -> None:
    (tmp_path / "zero3.yaml").write_text(YAML)
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "run.sh").write_text("#!/bin/bash\naccelerate launch --config_file zero3.yaml train.py tiny\n")
    (tmp_path / "requirements.txt").write_text(f"transformers==4.46.3\naccelerate=={acc}\ndeepspeed==0.19.8\n")
    findings = lint([str(tmp_path)]).report.findings
    predicted = {kind: {f.severity.value for f in findings if f.name == rule} for kind, rule in RULES.items()}
    real = _real(tmp_path, acc)
    for kind in RULES:
        assert predicted[kind] == ({"error"} if real[kind] == "raised" else {"info"}), (acc, kind, real, predicted)
    assert set(real.values()) == ({"loaded"} if acc == "0.34.2" else {"raised"}), real
