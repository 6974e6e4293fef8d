"""Oracle for the Python API, with the real libraries (tests/oracle/api_runner.py runs in the oracle venv):

- dsdoctor.hf.zero3_safe_kwargs under a real ZeRO-3 HfDeepSpeedConfig, Transformers 4.46.3 and 5.24.0 (DeepSpeed
  0.19.8, tiny Llama built from a config): ``from_pretrained(**kwargs)`` raises exactly where Transformers raises
  (the knowledge table's message), ``from_pretrained(**zero3_safe_kwargs(kwargs))`` loads ZeRO-3 partitioned in
  every case, with one warning per dropped argument and none once the config is released.
- dsdoctor.preflight() in the oracle venv: where DeepSpeed will fail (a real CUDA 13.5 nvcc against torch's
  CUDA 13.0 on DeepSpeed 0.19.7; a batch-size mismatch on 0.19.8) it raises DsDoctorError first, without having
  imported torch or deepspeed, and then the real DeepSpeed fails with the message it predicted; its first fix
  really clears the CUDA case; a healthy ZeRO-3 offload config passes and deepspeed.initialize then succeeds.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
from pathlib import Path
from typing import Any, Dict, Optional

import pytest
from envfixture import EXT_0198

from dsdoctor.knowledge import deepspeed as K
from dsdoctor.knowledge import transformers as TF

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
VPY = ORACLE / "venv" / "bin" / "python"
RUNNER = REPO / "tests" / "oracle" / "api_runner.py"
TFS = ("4.46.3", "5.24.0")
TIMEOUT = 900  # first runs JIT-build shm_comm / cpu_adam into ORACLE/ext-api

OFFLOAD = {"train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 1,
           "optimizer": {"type": "AdamW", "params": {"lr": 0.001}},
           "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"},
                                 "stage3_gather_16bit_weights_on_model_save": True}}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env(tmp: Path, pythonpath: str, **extra: str) -> Dict[str, str]:
    env = dict(os.environ)
    for k in ("DS_ACCELERATOR", "CUDA_HOME", "CUDA_PATH", "CUDA_VISIBLE_DEVICES", "DS_SKIP_CUDA_CHECK", "WORLD_SIZE",
              "DSDOCTOR_NO_CACHE"):
        env.pop(k, None)
    env.update(PYTHONPATH=f"{pythonpath}:{REPO / 'src'}", PATH=f"{ORACLE / 'venv' / 'bin'}:{env.get('PATH', '/usr/bin:/bin')}",
               MASTER_ADDR="127.0.0.1", MASTER_PORT=str(_free_port()), RANK="0", LOCAL_RANK="0", OMP_NUM_THREADS="1",
               XDG_CACHE_HOME=str(tmp / "xdg"), **extra)
    # the provisioned CPU-accelerator build of 0.19.8 where it applies; other versions / the CUDA builder apart
    shared = "DS_ACCELERATOR" not in extra and pythonpath.endswith(str(ORACLE / "ds" / "0.19.8"))
    env["TORCH_EXTENSIONS_DIR"] = str(EXT_0198 if shared else ORACLE / "ext-api")
    return env


def _run(env: Dict[str, str], *args: str) -> Dict[str, Any]:
    p = subprocess.run([str(VPY), str(RUNNER), *args], capture_output=True, text=True, env=env, timeout=TIMEOUT)
    line = next((ln for ln in p.stdout.splitlines() if ln.startswith("RESULT ")), None)
    assert line is not None, p.stdout[-2000:] + p.stderr[-3000:]
    res: Dict[str, Any] = json.loads(line[7:])
    return res


def _preflight(tmp: Path, ds: str, config: Any, then: Optional[str] = None, **extra: str) -> Dict[str, Any]:
    spec = {"config": config, "then": then, "kwargs": {"loaded_by": "deepspeed"}}
    return _run(_env(tmp, str(ORACLE / "ds" / ds), **extra), "preflight", json.dumps(spec))


# --------------------------------------------------------------------------------------------------- hf


@pytest.fixture(scope="module")
def hf_runs(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Dict[str, Any]]:
    base = tmp_path_factory.mktemp("api-hf")
    pp = {tf: f"{ORACLE / 'hf' / ('tf' + tf)}:{ORACLE / 'ds' / '0.19.8'}" for tf in TFS}
    return {tf: _run(_env(base, pp[tf], WORLD_SIZE="1"), "hf", str(base / f"model-{tf}")) for tf in TFS}


@pytest.mark.parametrize("tf", TFS)
def test_zero3_state_read_as_transformers_reads_it(hf_runs: Dict[str, Dict[str, Any]], tf: str) -> None:
    run = hf_runs[tf]
    assert run["transformers"] == tf and run["before"] is False
    assert run["zero3_transformers"] is True and run["zero3_dsdoctor"] is True
    assert run["released_transformers"] is False and run["released_dsdoctor"] is False
    assert run["released_safe"] == [{"device_map": "auto", "low_cpu_mem_usage": True}, []]  # no ZeRO-3: unchanged


@pytest.mark.parametrize("tf", TFS)
def test_raw_kwargs_fail_as_transformers_does_and_safe_kwargs_load_partitioned(hf_runs: Dict[str, Dict[str, Any]],
                                                                               tf: str) -> None:
    guard = TF.zero3_load_guard(tf)
    assert guard is not None
    low_raises = TF.low_cpu_mem_usage_raises_under_zero3(tf)
    for case in hf_runs[tf]["cases"]:
        kw, raw, safe = case["kwargs"], case["raw"], case["safe"]
        dm, low = kw.get("device_map"), kw.get("low_cpu_mem_usage")
        if dm is not None and low is False and TF.device_map_needs_low_cpu_mem_usage(tf):
            assert TF.MSG_DEVICE_MAP_NEEDS_LOW_MEM in raw["error"], case  # raised before the ZeRO-3 guard
        elif dm is not None or (low and low_raises):
            assert guard[1] in raw.get("error", ""), case
        else:
            assert raw.get("partitioned") is True, case  # e.g. low_cpu_mem_usage=True is ignored on 5.x
        assert safe.get("partitioned") is True and safe["ds_numel"] > 0, case
        dropped = set(kw) - set(case["safe_kwargs"])
        assert len(case["warnings"]) == len(dropped), case
        for name in dropped:
            assert any(f"dropped {name}=" in w and guard[1] in w and w.startswith("ZeRO3KwargsWarning") for w in case["warnings"])
        if not low_raises:
            assert case["safe_kwargs"].get("low_cpu_mem_usage") == low  # left alone where it is ignored


# --------------------------------------------------------------------------------------------- preflight


@pytest.fixture(scope="module")
def cuda_case(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Any]:
    tmp = tmp_path_factory.mktemp("api-cuda")
    nvcc = ORACLE / "nvcc" / "13.5" / "nvidia" / "cu13"
    assert (nvcc / "bin" / "nvcc").exists()
    return _preflight(tmp, "0.19.7", OFFLOAD, "cpu_adam", CUDA_HOME=str(nvcc), DS_ACCELERATOR="cuda")


def test_cuda_mismatch_raised_before_deepspeed_fails_as_predicted(cuda_case: Dict[str, Any]) -> None:
    assert cuda_case["ok"] is False and cuda_case["raised"] == ["cuda-version-mismatch"]
    assert cuda_case["heavy_after_preflight"] == []
    msg = cuda_case["message"]
    assert "[1] cuda-version-mismatch (DS101, error)" in msg and "fix 1: " in msg and "$ export " in msg
    real = K.MSG_MISMATCH.format(sys="13.5", torch="13.0")
    assert cuda_case["prediction"]["message"].endswith(real)
    assert cuda_case["real"] == "CUDAMismatchException: " + real  # what DeepSpeedCPUAdam would die of


def test_cuda_mismatch_first_fix_clears_it(cuda_case: Dict[str, Any], tmp_path: Path) -> None:
    m = re.search(r"fix 1: .*\n\s+\$ export CUDA_HOME=(\S+)", cuda_case["message"])
    if m is None:
        pytest.skip("no matching CUDA toolkit on this machine: the first fix is not a CUDA_HOME on disk")
    fixed = _preflight(tmp_path, "0.19.7", OFFLOAD, None, CUDA_HOME=m.group(1), DS_ACCELERATOR="cuda")
    assert fixed["ok"] is True and fixed["prediction"]["loads"] is True, fixed.get("message")


def test_batch_mismatch_raised_before_deepspeed_initialize_fails(tmp_path: Path) -> None:
    cfg = dict(OFFLOAD, train_batch_size=3, train_micro_batch_size_per_gpu=2)
    res = _preflight(tmp_path, "0.19.8", cfg, "initialize", WORLD_SIZE="1")
    assert res["ok"] is False and res["raised"] == ["batch-size-mismatch"] and res["heavy_after_preflight"] == []
    real = K.MSG_BATCH.format(tb=3, mb=2, ga=1, ws=1)
    assert real in res["message"]
    assert res["real"] == "AssertionError: " + real


def test_healthy_config_passes_and_deepspeed_initializes(tmp_path: Path) -> None:
    res = _preflight(tmp_path, "0.19.8", OFFLOAD, "initialize", WORLD_SIZE="1")
    assert res["ok"] is True, res.get("message")
    assert not [f for f in res["findings"] if f[1] == "error"]
    assert res["heavy_after_preflight"] == [] and res["prediction"]["loads"] is True
    assert res["real"] == "initialized: ZeRO stage 3", res.get("real_trace")
