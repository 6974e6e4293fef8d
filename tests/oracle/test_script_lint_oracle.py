"""Oracle for the script rules and `dsdoctor fix`: the real ``from_pretrained`` (Transformers 4.46.3 and 5.24.0,
DeepSpeed 0.19.8, ZeRO-3 registered through ``TrainingArguments(deepspeed=<stage-3 dict>)``) runs the fixture
scripts before and after `dsdoctor fix`. Before: it fails with the message dsdoctor predicted (or, for
model-loaded-before-ds-config, loads unpartitioned). After: it loads and the parameters are partitioned
(``ds_numel`` set, local shape ``(0,)``). One process per Transformers version runs every script."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest
from envfixture import EXT_0198, ext_0198_path

from dsdoctor.knowledge import transformers as TF

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
VPY = ORACLE / "venv" / "bin" / "python"
FIXTURES = REPO / "tests" / "cases" / "lint-scripts" / "oracle"
SCRIPTS = ("qwen_style.py", "kwargs_lowmem.py", "late_args.py", "hfds_dropped.py", "hf_trainer_config.py")
TFS = ("4.46.3", "5.24.0")



def _env(tf: str) -> Dict[str, str]:
    env = dict(os.environ)
    env.update(PYTHONPATH=f"{ORACLE / 'hf' / ('tf' + tf)}:{ORACLE / 'ds' / '0.19.8'}", MASTER_ADDR="127.0.0.1",
               MASTER_PORT=str(29600 + TFS.index(tf)), RANK="0", LOCAL_RANK="0", WORLD_SIZE="1", OMP_NUM_THREADS="1",
               TORCH_EXTENSIONS_DIR=str(EXT_0198), PATH=ext_0198_path())
    for k in ("DS_ACCELERATOR", "CUDA_VISIBLE_DEVICES", "ACCELERATE_DEEPSPEED_ZERO_STAGE"):
        env.pop(k, None)
    return env


def _dsdoctor(*args: str, env: Dict[str, str]) -> "subprocess.CompletedProcess[str]":
    clean = {k: v for k, v in env.items() if k != "PYTHONPATH"}  # dsdoctor itself runs from the dev venv
    p = subprocess.run([sys.executable, "-m", "dsdoctor", *args], capture_output=True, text=True, env=clean,
                       timeout=120)
    assert "Traceback" not in p.stderr, p.stderr
    return p


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Dict[str, Any]]:
    """Per Transformers version: lint JSON before, the fixed files, and the runner's result per script."""
    out: Dict[str, Dict[str, Any]] = {}
    base = tmp_path_factory.mktemp("script-oracle")
    for tf in TFS:
        env = _env(tf)
        py = base / f"python-{tf}"  # the checked interpreter: the oracle venv with this Transformers on its path
        py.write_text(f"#!/bin/sh\nPYTHONPATH={env['PYTHONPATH']} exec {VPY} \"$@\"\n")
        py.chmod(0o755)
        before, after = base / tf / "before", base / tf / "after"
        shutil.copytree(FIXTURES, before)
        shutil.copytree(FIXTURES, after)
        # the version comes from the checked interpreter's package metadata (PYTHONPATH of that interpreter)
        lint = _dsdoctor("lint", str(before), "--python", str(py), "--format", "json", env=env)
        fixed = _dsdoctor("fix", str(after), "--python", str(py), "--format", "json", env=env)
        again = _dsdoctor("fix", str(after), "--python", str(py), "--diff", env=env)
        paths = [str(before / s) for s in SCRIPTS] + [str(after / s) for s in SCRIPTS]
        p = subprocess.run([str(VPY), str(REPO / "tests" / "oracle" / "script_load_runner.py"), str(base / "model" / tf),
                            str(base / tf / "out"), *paths], capture_output=True, text=True, env=env, timeout=600)
        results = [json.loads(line[7:]) for line in p.stdout.splitlines() if line.startswith("RESULT ")]
        assert len(results) == len(paths), p.stdout[-2000:] + p.stderr[-3000:]
        out[tf] = {"lint": json.loads(lint.stdout), "fixed": json.loads(fixed.stdout), "again": again.stdout,
                   "results": {(Path(r["script"]).parent.name, Path(r["script"]).name): r for r in results},
                   "after": after}
    return out


def _findings(run: Dict[str, Any], script: str) -> List[Tuple[str, str]]:
    return [(f["name"], f["severity"]) for f in run["lint"]["findings"] if f["path"].endswith("/" + script)]


@pytest.mark.parametrize("tf", TFS)
def test_version_read_from_the_checked_environment(runs: Dict[str, Dict[str, Any]], tf: str) -> None:
    for r in runs[tf]["results"].values():
        assert r["transformers"] == tf and r["zero3_before"] is False  # each script starts unregistered


@pytest.mark.parametrize("tf", TFS)
def test_device_map_conflict_fails_as_predicted_then_loads_partitioned(runs: Dict[str, Dict[str, Any]],
                                                                       tf: str) -> None:
    run = runs[tf]
    got = _findings(run, "qwen_style.py")
    assert ("zero3-device-map-conflict", "error") in got
    msg = TF.zero3_load_guard(tf)
    assert msg is not None
    assert msg[1] in run["results"][("before", "qwen_style.py")]["error"]
    low = [sev for name, sev in got if name == "zero3-low-cpu-mem-usage-conflict"]
    assert low == (["error"] if tf.startswith("4.") else ["info"])  # a dead argument from 4.51: the run loses nothing
    after = run["results"][("after", "qwen_style.py")]
    assert after.get("partitioned") is True and after["ds_numel"] > 0, after


@pytest.mark.parametrize("tf", TFS)
def test_low_cpu_mem_usage_from_dataclass_default(runs: Dict[str, Dict[str, Any]], tf: str) -> None:
    run = runs[tf]
    got = _findings(run, "kwargs_lowmem.py")
    before = run["results"][("before", "kwargs_lowmem.py")]
    if tf.startswith("4."):
        assert got == [("zero3-low-cpu-mem-usage-conflict", "error")]
        assert TF.MSG_ZERO3_COMBINED in before["error"]
    else:  # 5.x: ignored, the model loads partitioned: dsdoctor says "dead argument" (info), not error
        assert got == [("zero3-low-cpu-mem-usage-conflict", "info")]
        assert before.get("partitioned") is True, before
    after = run["results"][("after", "kwargs_lowmem.py")]
    assert after.get("partitioned") is True, after


@pytest.mark.parametrize("tf", TFS)
def test_model_loaded_before_args_is_not_partitioned_until_fixed(runs: Dict[str, Dict[str, Any]], tf: str) -> None:
    run = runs[tf]
    assert ("model-loaded-before-ds-config", "error") in _findings(run, "late_args.py")
    assert run["results"][("before", "late_args.py")].get("partitioned") is False
    assert run["results"][("after", "late_args.py")].get("partitioned") is True


@pytest.mark.parametrize("tf", TFS)
def test_dropped_hf_deepspeed_config_is_not_partitioned_until_fixed(runs: Dict[str, Dict[str, Any]], tf: str) -> None:
    run = runs[tf]
    assert ("hf-deepspeed-config-not-kept", "error") in _findings(run, "hfds_dropped.py")
    assert run["results"][("before", "hfds_dropped.py")].get("partitioned") is False
    assert run["results"][("after", "hfds_dropped.py")].get("partitioned") is True
    assert "dschf = HfDeepSpeedConfig(DS_CONFIG)" in (run["after"] / "hfds_dropped.py").read_text()


@pytest.mark.parametrize("tf", TFS)
def test_kept_trainer_deepspeed_config_registers_zero3(runs: Dict[str, Dict[str, Any]], tf: str) -> None:
    """HfTrainerDeepSpeedConfig, kept, registers ZeRO-3 as HfDeepSpeedConfig does: no finding, a partitioned load."""
    run = runs[tf]
    assert _findings(run, "hf_trainer_config.py") == []
    assert run["results"][("before", "hf_trainer_config.py")].get("partitioned") is True


@pytest.mark.parametrize("tf", TFS)
def test_fix_is_clean_and_idempotent(runs: Dict[str, Dict[str, Any]], tf: str) -> None:
    run = runs[tf]
    assert not [f for f in run["fixed"]["findings"] if f["severity"] == "error"], run["fixed"]["findings"]
    assert run["again"] == ""  # a second fix changes nothing
