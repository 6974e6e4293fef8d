"""Oracle for `dsdoctor smoke`: real ZeRO-3 + offload runs through the real deepspeed launcher on CPU
(gloo) with the provisioned torch 2.14.1 + DeepSpeed 0.19.8 + Transformers 5.24.0. Checks what the run
reports, that broken configs / environments end in the right diagnosis, and that nothing is left behind
(processes, temporary files) after a timeout or Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest
from envfixture import EXT_0198, ext_0198_path

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
VPY = ORACLE / "venv" / "bin" / "python"
EXT = EXT_0198  # built by provisioning, once



def _env(tmp: Path, **extra: str) -> Dict[str, str]:
    env = dict(os.environ, PYTHONPATH=f"{ORACLE / 'hf' / 'tf5.24.0'}:{ORACLE / 'ds' / '0.19.8'}",
               TORCH_EXTENSIONS_DIR=str(EXT), PATH=ext_0198_path(), TMPDIR=str(tmp / "t"), HF_HUB_OFFLINE="1")
    (tmp / "t").mkdir(exist_ok=True)
    env.update(extra)
    return env


def _smoke(tmp: Path, *args: str, py: Path = VPY, timeout: int = 600, **extra: str) -> Tuple[int, Dict[str, Any], str]:
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "smoke", "--python", str(py), "--format", "json", *args],
                       capture_output=True, text=True, env=_env(tmp, **extra), timeout=timeout)
    assert "Traceback" not in p.stderr, p.stderr
    return p.returncode, json.loads(p.stdout), p.stderr


def _leftovers(tmp: Path) -> List[str]:
    """Temporary files under our TMPDIR and processes still running from it."""
    files = [str(p) for p in (tmp / "t").iterdir()]
    procs = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                cmd = (Path("/proc") / pid / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
            except OSError:
                continue
            if str(tmp / "t") in cmd:
                procs.append(f"{pid}: {cmd[:120]}")
    return files + procs


def _titles(out: Dict[str, Any]) -> str:
    return " | ".join(p["title"] for p in out["passed"])


def test_one_process(tmp_path: Path) -> None:
    rc, out, _ = _smoke(tmp_path, "--nproc", "1")
    assert rc == 0, out
    titles = _titles(out)
    assert "optimizer: DeepSpeedCPUAdam" in titles and "loss fell" in titles and "16-bit save: pytorch_model.bin" in titles
    assert "parameters partitioned" in titles
    (r0,) = out["facts"]["ranks"]
    assert r0["peak_bytes"] > 100 * 2**20 and r0["step_seconds"] > 0
    assert _leftovers(tmp_path) == []


def test_two_processes_with_user_config_and_model(tmp_path: Path) -> None:
    cfg = {"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto", "train_batch_size": "auto",
           "optimizer": {"type": "AdamW", "params": {"lr": "auto"}},
           "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu", "pin_memory": True},
                                 "offload_param": {"device": "cpu"}, "stage3_prefetch_bucket_size": "auto",
                                 "stage3_gather_16bit_weights_on_model_save": True}}
    (tmp_path / "ds.json").write_text(json.dumps(cfg))
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "config.json").write_text(json.dumps(
        {"model_type": "qwen2", "hidden_size": 896, "intermediate_size": 4864, "num_hidden_layers": 24,
         "num_attention_heads": 14, "num_key_value_heads": 2, "vocab_size": 151936, "tie_word_embeddings": True}))
    rc, out, _ = _smoke(tmp_path, "--nproc", "2", "--ds-config", str(tmp_path / "ds.json"), "--model", str(tmp_path / "m"))
    assert rc == 0, out
    assert len(out["facts"]["ranks"]) == 2
    assert all(r["optimizer"] == "DeepSpeedCPUAdam" and r["partitioned"] for r in out["facts"]["ranks"])
    r0 = out["facts"]["ranks"][0]
    assert r0["local_numel"] < r0["full_numel"]  # each rank holds about half
    assert _leftovers(tmp_path) == []


def test_broken_config_names_the_batch_mismatch(tmp_path: Path) -> None:
    (tmp_path / "ds.json").write_text(json.dumps({
        "train_batch_size": 3, "train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 1,
        "optimizer": {"type": "AdamW", "params": {"lr": 0.01}},
        "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}, "offload_param": {"device": "cpu"}}}))
    rc, out, _ = _smoke(tmp_path, "--ds-config", str(tmp_path / "ds.json"))
    assert rc == 1
    first = out["findings"][0]
    assert first["name"] in ("batch-size-mismatch", "smoke-failed"), first
    seen = first["title"] + json.dumps(first["evidence"])
    assert "3 != 2 * 1 * 1" in seen, first
    assert _leftovers(tmp_path) == []


def test_no_ninja_is_the_root_cause(tmp_path: Path) -> None:
    """A venv without ninja, PATH without ninja, a fresh build dir: cpu_adam cannot build."""
    noninja = ORACLE / "venv-noninja" / "bin" / "python"
    rc, out, _ = _smoke(tmp_path, py=noninja, PATH=str(ORACLE / "path-noninja"),
                        TORCH_EXTENSIONS_DIR=str(tmp_path / "ext"))
    assert rc == 1
    assert out["findings"][0]["name"] == "ninja-missing", out["findings"]
    assert _leftovers(tmp_path) == []


def test_timeout_and_ctrl_c_leave_nothing_behind(tmp_path: Path) -> None:
    rc, out, _ = _smoke(tmp_path, "--nproc", "2", "--timeout", "6")
    assert rc == 1 and out["findings"][0]["name"] == "smoke-timeout", out
    assert _leftovers(tmp_path) == []
    # enough steps that the run cannot finish before the signal lands (a loaded machine's reader lags behind)
    p = subprocess.Popen([sys.executable, "-m", "dsdoctor", "smoke", "--python", str(VPY), "--nproc", "2",
                          "--steps", "100000"],
                         # a user's terminal gives SIGINT its default action; a suite started as a background job ignores it, and
                         # Python then installs no KeyboardInterrupt handler in the child (the signal was lost)
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(tmp_path))
    assert p.stderr is not None
    t0 = time.monotonic()
    for line in p.stderr:  # wait until the ranks are up
        if "imported" in line or time.monotonic() - t0 > 60:
            break
    p.send_signal(signal.SIGINT)
    p.communicate(timeout=120)
    assert p.returncode in (130, 2)
    time.sleep(0.5)
    assert _leftovers(tmp_path) == []
