"""Fixture-file tests for `dsdoctor estimate` (tests/cases/estimate/*.toml, one case per file) plus the
model sources (HF cache layout, model dir) and --write-config."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib  # type: ignore[no-redef]

CASES = sorted((Path(__file__).parent / "cases" / "estimate").glob("*.toml"))


def _run(args: List[str], tmp: Path) -> Tuple[int, str, str]:
    env = dict(os.environ, HOME=str(tmp), PATH="/usr/bin:/bin")  # no nvidia-smi, no user HF cache
    env.pop("HF_HOME", None)
    env.pop("HF_HUB_CACHE", None)
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "estimate", *args], capture_output=True, text=True,
                       env=env, timeout=60)
    assert "Traceback" not in p.stderr, p.stderr
    return p.returncode, p.stdout, p.stderr


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_estimate_case(case: Path, tmp_path: Path) -> None:
    spec: Dict[str, Any] = tomllib.loads(case.read_text())
    args = list(spec.get("args", []))
    if "config" in spec:
        (tmp_path / "model").mkdir()
        (tmp_path / "model" / "config.json").write_text(json.dumps(spec["config"]))
        args = ["--model", str(tmp_path / "model"), *args]
    rc, out, err = _run([*args, "--format", "json"], tmp_path)
    exp = spec["expect"]
    assert rc == exp["rc"], (out, err)
    if rc == 2:
        assert exp["stderr"] in err and not out
        return
    got = json.loads(out)
    assert [(o["stage"], o["offload_optimizer"], o["offload_param"]) for o in got["options"]] == [
        (2, "none", "none"), (3, "none", "none"), (2, "cpu", "none"), (3, "cpu", "none"), (3, "cpu", "cpu"),
        (3, "nvme", "nvme")]
    for key in ("total_params", "largest_layer_params", "trainable_params"):
        if key in exp:
            assert got["model"][key] == exp[key], key
    if "recommended" in exp:
        rec = got["recommended"]
        want = exp["recommended"]
        assert (rec is None) if want == "none" else [rec["stage"], rec["offload_optimizer"], rec["offload_param"]] == want
    for key, (gpu, cpu) in exp.get("model_states", {}).items():
        o = next(o for o in got["options"] if f"{o['stage']}/{o['offload_optimizer']}/{o['offload_param']}" == key)
        assert (o["model_states_gpu_bytes"], o["model_states_cpu_bytes"]) == (gpu, cpu)
    if exp.get("fits") == "unknown":
        assert all(o["fits"] is None for o in got["options"])
    for o in got["options"]:  # totals are model states plus the listed extras
        assert o["gpu_bytes"] == sum(o["gpu_parts"].values()) >= o["model_states_gpu_bytes"]
        assert o["cpu_bytes"] == sum(o["cpu_parts"].values())
    rec = got["recommended"]
    if rec is not None:  # the fastest that fits: nothing listed before it fits
        idx = [(o["stage"], o["offload_optimizer"], o["offload_param"]) for o in got["options"]].index(
            (rec["stage"], rec["offload_optimizer"], rec["offload_param"]))
        assert got["options"][idx]["fits"] and not any(o["fits"] for o in got["options"][:idx])


LLAMA = {"model_type": "llama", "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
         "num_attention_heads": 4, "vocab_size": 1000}


def test_model_from_hf_cache_without_network(tmp_path: Path) -> None:
    snap = tmp_path / ".cache" / "huggingface" / "hub" / "models--acme--tiny" / "snapshots" / "abc123"
    snap.mkdir(parents=True)
    (snap / "config.json").write_text(json.dumps(LLAMA))
    (snap.parent.parent / "refs").mkdir()
    (snap.parent.parent / "refs" / "main").write_text("abc123")
    rc, out, _ = _run(["--model", "acme/tiny", "--gpu-mem", "4GB", "-f", "json"], tmp_path)
    assert rc == 0
    assert json.loads(out)["model"]["total_params"] == 2 * 64000 + 2 * (4 * 64 * 64 + 3 * 64 * 128 + 128) + 64
    rc, _, err = _run(["--model", "acme/absent"], tmp_path)
    assert rc == 2 and "never downloads" in err


def test_write_config_is_atomic_and_matches_recommendation(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text(json.dumps(LLAMA))
    dest = tmp_path / "ds.json"
    rc, out, _ = _run(["--model", str(tmp_path), "--gpu-mem", "4GB", "--gpus-per-node", "2",
                       "--write-config", str(dest), "-f", "json"], tmp_path)
    assert rc == 0
    rec = json.loads(out)["recommended"]
    cfg = json.loads(dest.read_text())
    assert cfg["zero_optimization"]["stage"] == rec["stage"]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".dsdoctor-")] == []
    rc, _, err = _run(["--model", str(tmp_path), "--gpu-mem", "4GB", "--write-config", str(tmp_path / "no" / "x.json")],
                      tmp_path)
    assert rc == 2 and "cannot write" in err


@pytest.mark.parametrize("bad", [["--params", "1e9"], ["--gpu-mem", "lots", "--params", "1e9", "--largest-layer", "1"],
                                 ["--model", "/nonexistent/dir"], ["--margin", "2", "--params", "1", "--largest-layer", "1"]])
def test_bad_input_exit_2(bad: List[str], tmp_path: Path) -> None:
    rc, out, err = _run(bad, tmp_path)
    assert rc == 2 and err.startswith("dsdoctor: ") and not out


@pytest.mark.parametrize("hw", [
    ["--gpu-mem", "80GB", "--gpus-per-node", "8", "--params", "7e9", "--largest-layer", "2e8"],  # ZeRO-2
    ["--gpu-mem", "12GB", "--gpus-per-node", "4", "--cpu-mem", "1TB", "--params", "7e9", "--largest-layer", "2e8"],
    ["--gpu-mem", "8GB", "--gpus-per-node", "1", "--cpu-mem", "1TB", "--params", "7e9", "--largest-layer", "2e8"],
    ["--gpu-mem", "24GB", "--gpus-per-node", "1", "--cpu-mem", "64GB", "--params", "7e10", "--largest-layer", "1e9"],
])
def test_written_config_lints_clean(hw: List[str], tmp_path: Path) -> None:
    """`--write-config` output passes `dsdoctor lint` with no finding, for each recommended stage/offload."""
    dest = tmp_path / "ds_config.json"
    rc, out, _ = _run([*hw, "--write-config", str(dest), "-f", "json"], tmp_path)
    assert rc == 0 and json.loads(out)["recommended"] is not None
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "lint", "--world-size", hw[3], "--ds-version", "0.19.8",
                        "-f", "json", str(dest)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and json.loads(p.stdout)["findings"] == [], p.stdout


def test_model_positional_like_accelerate(tmp_path: Path) -> None:
    """`dsdoctor estimate ./my-model` (as `accelerate estimate-memory MODEL`) = `--model ./my-model`."""
    (tmp_path / "my-model").mkdir()
    (tmp_path / "my-model" / "config.json").write_text(json.dumps(LLAMA))
    model = str(tmp_path / "my-model")
    rc, positional, err = _run([model, "--gpu-mem", "4GB", "--gpus-per-node", "1", "-f", "json"], tmp_path)
    assert rc == 0, err
    rc, option, _ = _run(["--model", model, "--gpu-mem", "4GB", "--gpus-per-node", "1", "-f", "json"], tmp_path)
    assert json.loads(positional) == json.loads(option)
    rc, _, err = _run([model, "--model", str(tmp_path), "--gpu-mem", "4GB"], tmp_path)
    assert rc == 2 and "two models given" in err
