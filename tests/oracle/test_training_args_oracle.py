"""training-argument-unknown against the real HfArgumentParser: for options that some Transformers releases have
as TrainingArguments fields, real transformers 4.46.3 and 5.24.0 parse each one alone; a project pinning that
release and launching with the options is reported for exactly those the real parser refuses (ValueError "Some
specified arguments are not used by the HfArgumentParser"), and the knowledge agrees option by option."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import List, Optional, Tuple

import pytest

from dsdoctor.knowledge import training_args as TA

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
VPY = ORACLE / "venv" / "bin" / "python"
HERE = Path(__file__).parent
CASES: List[Tuple[str, Optional[str]]] = [
    ("evaluation_strategy", "steps"), ("eval_strategy", "steps"), ("warmup_ratio", "0.1"), ("warmup_steps", "10"),
    ("overwrite_output_dir", None), ("logging_dir", "logs"), ("no_cuda", None), ("use_cpu", None),
    ("group_by_length", None), ("per_gpu_train_batch_size", "2"), ("save_safetensors", "True"),
    ("include_tokens_per_second", None), ("learning_rate", "1e-5"), ("gradient_checkpointing", None),
]
TRAIN = """from transformers import HfArgumentParser, TrainingArguments, Trainer, AutoModelForCausalLM

args, = HfArgumentParser((TrainingArguments,)).parse_args_into_dataclasses()
Trainer(model=AutoModelForCausalLM.from_pretrained("gpt2"), args=args).train()
"""


def _real(tmp: Path, hf: str) -> List[str]:
    path = tmp / "cases.json"
    path.write_text(json.dumps(CASES))
    env = dict(os.environ, PYTHONPATH=str(ORACLE / "hf" / hf))
    p = subprocess.run([str(VPY), str(HERE / "parse_training_args.py"), str(path)], capture_output=True, text=True,
                       env=env, timeout=300, cwd=tmp)
    lines = [x for x in p.stdout.splitlines() if x.startswith("[")]
    assert lines, (p.stdout + p.stderr)[-4000:]
    return list(json.loads(lines[-1]))


def _named(tmp: Path, version: str) -> List[str]:
    """The options `dsdoctor lint .` reports in a project that pins ``version`` and launches with every case."""
    proj = tmp / f"proj-{version}"
    proj.mkdir()
    (proj / "train.py").write_text(TRAIN)
    (proj / "ds.json").write_text('{"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 2}}')
    (proj / "requirements.txt").write_text(f"transformers=={version}\n")
    opts = " ".join(f"--{o}" + (f" {v}" if v is not None else "") for o, v in CASES)
    (proj / "run.sh").write_text(f"deepspeed train.py --deepspeed ds.json --output_dir out {opts}\n")
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "lint", ".", "--format", "json",
                        "--exit-zero"], capture_output=True, text=True, cwd=proj, timeout=300)
    hits = [f for f in json.loads(p.stdout)["findings"] if f["name"] == "training-argument-unknown"]
    return [o for o, _ in CASES if hits and f"--{o}" in hits[0]["title"].split(": no such")[0].split(", ")]


@pytest.mark.parametrize("hf", ["tf4.46.3", "tf5.24.0"])
def test_refused_options_are_the_ones_reported(tmp_path: Path, hf: str) -> None:
    version = hf[2:]
    real = _real(tmp_path, hf)
    refused = [o for (o, _), got in zip(CASES, real) if got.startswith("ValueError: " + TA.MSG_NOT_USED[:30])]
    assert all(got == "ok" or (o in refused) for (o, _), got in zip(CASES, real)), real  # no other failure
    # 4.46.3 takes every case (eval_strategy from 4.41, the removals from 4.51 on); 5.24.0 refuses several
    assert bool(refused) is (version == "5.24.0") and len(refused) < len(CASES), real
    assert [o for o, _ in CASES if TA.lacks(o, version)] == refused
    assert _named(tmp_path, version) == refused
