"""Decisions on machine limits that a test cannot change for real (/dev/shm size) are checked on real
collected facts with one fact replaced: probes are isolated from decisions, so this needs no mock."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from dsdoctor.checks import evaluate
from dsdoctor.dsconfig import ConfigError, load, offload_intent
from dsdoctor.probes.environment import collect
from dsdoctor.probes.system import Libaio


def _facts(tmp_path: Path, ds: str = "0.19.8"):  # type: ignore[no-untyped-def]
    site = tmp_path / "site"
    meta = site / f"deepspeed-{ds}.dist-info"
    meta.mkdir(parents=True)
    (meta / "METADATA").write_text(f"Metadata-Version: 2.1\nName: deepspeed\nVersion: {ds}\n\n")
    env = dict(os.environ, PYTHONPATH=str(site), HOME=str(tmp_path))
    env.pop("TORCH_EXTENSIONS_DIR", None)
    import subprocess
    import sys

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    return collect(str(venv / "bin" / "python"), env=env)


def test_shm_too_small(tmp_path: Path) -> None:
    f = _facts(tmp_path)
    small = dataclasses.replace(f, limits=dataclasses.replace(f.limits, shm_bytes=64 * 2**20))
    names = {x.name: x for x in evaluate(small).findings}
    assert names["shm-too-small"].severity.value == "warning"
    big = dataclasses.replace(f, limits=dataclasses.replace(f.limits, shm_bytes=8 * 2**30))
    assert "shm-too-small" not in {x.name for x in evaluate(big).findings}


def test_memlock_follows_config_and_version(tmp_path: Path) -> None:
    f = _facts(tmp_path, "0.19.4")
    low = dataclasses.replace(f, limits=dataclasses.replace(f.limits, memlock_soft=8 * 2**20))
    assert "memlock-too-low" not in {x.name for x in evaluate(low).findings}  # no offload config: no pinned buffers
    cpu = offload_intent({"zero_optimization": {"offload_param": {"device": "cpu"}}}, "ds.json")
    by = {x.name: x for x in evaluate(low, intent=cpu).findings}
    assert by["memlock-too-low"].severity.value == "info"  # 0.19.4: pin_memory defaults to false
    pinned = offload_intent({"zero_optimization": {"offload_param": {"device": "cpu", "pin_memory": True}}}, "ds.json")
    by = {x.name: x for x in evaluate(low, intent=pinned).findings}
    assert by["memlock-too-low"].severity.value == "warning" and "ds.json" in by["memlock-too-low"].explanation


def test_libaio_only_when_nvme_is_configured(tmp_path: Path) -> None:
    f = _facts(tmp_path)
    none = dataclasses.replace(f, libaio=Libaio(None, None, None))
    assert "libaio-missing" not in {x.name for x in evaluate(none).findings}
    nvme = offload_intent({"zero_optimization": {"offload_optimizer": {"device": "nvme", "nvme_path": "/nvme"}}}, "c.json")
    by = {x.name: x for x in evaluate(none, intent=nvme).findings}
    assert by["libaio-missing"].severity.value == "error"
    assert "libaio-missing" in {x.name for x in evaluate(none, nvme=True).findings}


def test_bad_configs_give_clear_errors(tmp_path: Path) -> None:
    p = tmp_path / "c.json"
    p.write_bytes(b"[1, 2]")
    with pytest.raises(ConfigError, match="top level must be an object"):
        load(str(p))
    with pytest.raises(ConfigError, match="cannot read"):
        load(str(tmp_path / "missing.json"))
    p.write_bytes(b'{\n  // a comment DeepSpeed (hjson) accepts\n  "zero_optimization": {"stage": 3}\n}\n')
    assert load(str(p))["zero_optimization"]["stage"] == 3
