"""``dsdoctor lint`` command-line behaviour: the versions of the ``--python`` environment, one exit code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

CFG = '{"zero_optimization": {"stage": 3, "stage3_prefetch_bucket_size": 15099494.4}}\n'


def dsdoctor(cwd: Path, *args: str) -> "subprocess.CompletedProcess[str]":
    return subprocess.run([sys.executable, "-m", "dsdoctor", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


def _env_with_deepspeed(tmp_path: Path, version: str) -> Path:
    """An interpreter whose sys.path holds DeepSpeed ``version`` (its package metadata only)."""
    site = tmp_path / "site"
    dist = site / f"deepspeed-{version}.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: deepspeed\nVersion: {version}\n\n")
    py = tmp_path / "python"
    py.write_text(f'#!/bin/sh\nPYTHONPATH="{site}" exec "{sys.executable}" "$@"\n')
    py.chmod(0o755)
    return py


def test_python_env_deepspeed_version(tmp_path: Path) -> None:
    """--python ENV judges with ENV's DeepSpeed (0.14.0: no pydantic-v2 integer check), not dsdoctor's own."""
    (tmp_path / "ds.json").write_text(CFG)
    py = _env_with_deepspeed(tmp_path, "0.14.0")
    p = dsdoctor(tmp_path, "lint", "ds.json", "--python", str(py), "--format", "json")
    out = json.loads(p.stdout)
    assert out["facts"]["deepspeed"] == "0.14.0" and str(py) in out["facts"]["deepspeed_source"], out["facts"]
    assert "bucket-size-float" not in {f["name"] for f in out["findings"]}
    newer = json.loads(dsdoctor(tmp_path, "lint", "ds.json", "--python", str(_env_with_deepspeed(tmp_path / "b", "0.19.8")),
                                "--format", "json").stdout)
    assert "bucket-size-float" in {f["name"] for f in newer["findings"]}


def test_diff_exit_codes(tmp_path: Path) -> None:
    """--diff prints the diff and exits with the shared exit code: 1 for an error, 0 with --exit-zero or when
    --fail-on never."""
    (tmp_path / "ds.json").write_text(CFG)
    p = dsdoctor(tmp_path, "lint", "ds.json", "--diff", "--ds-version", "0.19.8")
    assert p.returncode == 1 and "+" in p.stdout and "15099494" in p.stdout, p.stdout + p.stderr
    assert dsdoctor(tmp_path, "lint", "ds.json", "--diff", "--ds-version", "0.19.8", "--exit-zero").returncode == 0
    assert dsdoctor(tmp_path, "lint", "ds.json", "--diff", "--ds-version", "0.19.8", "--fail-on", "never").returncode == 0
    assert os.path.exists(tmp_path / "ds.json") and (tmp_path / "ds.json").read_text() == CFG  # nothing changed


AUTO = '{\n  "train_micro_batch_size_per_gpu": "auto",\n  "optimizer": {"type": "AdamW", "params": {"lr": "auto"}},\n' \
       '  "zero_optimization": {"stage": 3, "reduce_bucket_size": "auto"}\n}\n'


# under accelerate: betas and sub_group_size are nobody's to fill (prepare() raises), the scheduler block's warmup
# values come from the DummyScheduler it requires, total_num_steps only if the script gives it one
ACC_AUTO = '{\n  "optimizer": {"type": "AdamW", "params": {"lr": "auto", "betas": "auto"}},\n' \
           '  "zero_optimization": {"stage": 3, "sub_group_size": "auto"},\n' \
           '  "scheduler": {"type": "WarmupDecayLR", "params": {"warmup_num_steps": "auto", "total_num_steps": "auto"}}\n}\n'


def _names(out: "dict[str, object]") -> "set[str]":
    return {f["name"] for f in out["findings"]}  # type: ignore[attr-defined,index]


def test_lone_config_loaded_by(tmp_path: Path) -> None:
    """A lone config with "auto" values is linted as the HF Trainer's (said in the output); --loaded-by says how
    it is really loaded; a launch script of the project that names the loader wins over the guess."""
    (tmp_path / "ds.json").write_text(AUTO)
    out = json.loads(dsdoctor(tmp_path, "lint", "ds.json", "--format", "json").stdout)
    assert "ds-config-auto-without-trainer" not in _names(out)
    assert {"gradient-clipping-unset-under-trainer", "zero3-16bit-save-disabled"} <= _names(out)
    how = out["facts"]["loaded_by"]["ds.json"]
    assert how["loaded_by"] == "trainer" and how["source"].startswith('assumed from its "auto" values'), how
    text = dsdoctor(tmp_path, "lint", "ds.json").stdout
    assert "ds.json: linted as the HF Trainer's config, assumed from its \"auto\" values" in text, text
    raw = json.loads(dsdoctor(tmp_path, "lint", "ds.json", "--loaded-by", "deepspeed", "--format", "json").stdout)
    autos = [f for f in raw["findings"] if f["name"] == "ds-config-auto-without-trainer"]
    keys = [k for f in autos for k in f["explanation"].split('The "auto" values: ', 1)[1].split(". ", 1)[0].split(", ")]
    assert len(keys) == 3 and len(autos) <= 2  # one finding per way they are lost (left a string, dropped)
    assert raw["facts"]["loaded_by"]["ds.json"] == {"loaded_by": "deepspeed", "source": "--loaded-by"}
    acc = json.loads(dsdoctor(tmp_path, "lint", "ds.json", "--loaded-by", "accelerate", "--format", "json").stdout)
    assert "ds-config-auto-without-trainer" not in _names(acc)  # an "optimizer" block makes DummyOptim fill lr
    (tmp_path / "acc.json").write_text(ACC_AUTO)
    acc = json.loads(dsdoctor(tmp_path, "lint", "acc.json", "--loaded-by", "accelerate", "--format", "json").stdout)
    got = {(f["line"], f["severity"]) for f in acc["findings"] if f["name"] == "ds-config-auto-without-trainer"}
    assert got == {(2, "error"), (4, "warning")}, acc["findings"]  # lr, betas and sub_group_size: one error
    assert dsdoctor(tmp_path, "lint", "ds.json", "--loaded-by", "torchrun").returncode == 2
    (tmp_path / "run.sh").write_text("deepspeed train.py --deepspeed_config ds.json\n")
    proj = json.loads(dsdoctor(tmp_path, "lint", "run.sh", "--format", "json").stdout)
    assert proj["facts"]["loaded_by"]["ds.json"]["loaded_by"] == "deepspeed"
    assert "ds-config-auto-without-trainer" in _names(proj)


def test_lone_config_without_auto(tmp_path: Path) -> None:
    """No "auto" value: nothing says how the config is loaded, so no loader is assumed."""
    (tmp_path / "ds.json").write_text('{"train_batch_size": 8, "zero_optimization": {"stage": 3}}\n')
    out = json.loads(dsdoctor(tmp_path, "lint", "ds.json", "--format", "json").stdout)
    assert out["facts"]["loaded_by"] == {} and "gradient-clipping-unset-under-trainer" not in _names(out)


def test_assumed_loader_fix_is_unsafe(tmp_path: Path) -> None:
    """Adding "gradient_clipping": "auto" is right only if the Trainer really loads the config (raw DeepSpeed
    would crash on it): a safe fix under --loaded-by trainer, an unsafe one when the loader is only assumed."""
    (tmp_path / "ds.json").write_text('{\n  "zero_optimization": {"stage": 3},\n  "train_batch_size": "auto"\n}\n')
    assert '"gradient_clipping"' not in dsdoctor(tmp_path, "fix", "ds.json", "--diff").stdout
    assert '+  "gradient_clipping": "auto"' in dsdoctor(tmp_path, "fix", "ds.json", "--diff", "--unsafe-fixes").stdout
    assert '+  "gradient_clipping": "auto"' in dsdoctor(tmp_path, "fix", "ds.json", "--diff", "--loaded-by", "trainer").stdout


def test_user_code_warnings_not_shown(tmp_path: Path) -> None:
    """Compiling the user's files makes Python warn about their code (``1if``: "invalid decimal literal", an
    invalid escape): none of it reaches dsdoctor's stderr."""
    (tmp_path / "ds.json").write_text(CFG)
    (tmp_path / "train.py").write_text('import deepspeed\nx = 1if True else 0\npattern = "\\d+"\n'
                                       'engine = deepspeed.initialize(config="ds.json")\n')
    (tmp_path / "old.py").write_text('import deepspeed\nprint "py2"\ny = 1if True else 0\n')
    p = dsdoctor(tmp_path, "lint", ".", "--exit-zero")
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert "old.py" in p.stdout  # the file Python refuses is still reported
    # --diff compiles each fixed text before showing it (a script that would not parse is never written)
    (tmp_path / "load.py").write_text('from transformers import AutoModelForCausalLM, TrainingArguments\n'
                                      'x = 1if True else 0\n'
                                      'args = TrainingArguments(output_dir="o", deepspeed="ds.json")\n'
                                      'model = AutoModelForCausalLM.from_pretrained("gpt2", low_cpu_mem_usage=True)\n')
    p = dsdoctor(tmp_path, "lint", "load.py", "--diff", "--exit-zero")
    assert "+++ b/load.py" in p.stdout and p.stderr == "", p.stdout + p.stderr
