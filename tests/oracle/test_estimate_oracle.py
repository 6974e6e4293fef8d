"""Oracle for `dsdoctor estimate`: its model-state numbers equal what DeepSpeed's own estimator functions
return (real DeepSpeed 0.19.8 and 0.15.4 imported; 0.14.2, before the ZeRO-2 formula change, from its
released source), and its parameter counts equal the real Transformers models instantiated on the meta
device (5.24.0 with fused MoE experts, 4.46.3 with one Linear per expert). One long-lived subprocess per
library version answers every hypothesis example over stdin/stdout."""

from __future__ import annotations

import json
import os
import subprocess
import tarfile
from pathlib import Path
from typing import Any, Dict, Iterator, List

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsdoctor.estimate.params import count_params
from dsdoctor.knowledge.deepspeed import zero2_model_states_mem, zero3_model_states_mem
from dsdoctor.knowledge.versions import v

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
VPY = ORACLE / "venv" / "bin" / "python"
HERE = Path(__file__).parent


def _require() -> None:
    if not (ORACLE / ".provisioned").is_file():
        if os.environ.get("DSDOCTOR_REQUIRE_ORACLE") == "1":
            pytest.fail("oracle not provisioned: run scripts/provision-oracle.sh")
        pytest.skip("oracle not provisioned: run scripts/provision-oracle.sh")


class Server:
    """A helper script answering one JSON line per JSON line."""

    def __init__(self, argv: List[str], pythonpath: str) -> None:
        env = dict(os.environ, PYTHONPATH=pythonpath, OMP_NUM_THREADS="1", TRANSFORMERS_OFFLINE="1",
                   HF_HUB_OFFLINE="1")
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, env=env)
        self._read_until("READY")

    def _read_until(self, mark: str) -> str:
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"oracle helper exited (rc={self.proc.poll()})")
            if line.startswith(mark) or (mark == "" and line[:1] in "[{"):
                return line

    def ask(self, case: Dict[str, Any]) -> Any:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(case) + "\n")
        self.proc.stdin.flush()
        return json.loads(self._read_until(""))

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _sdist_sources(tmp: Path, version: str) -> List[str]:
    names = [f"deepspeed-{version}/deepspeed/runtime/zero/{f}" for f in ("stage3.py", "stage_1_and_2.py")]
    with tarfile.open(ORACLE / "sdist" / f"deepspeed-{version}.tar.gz") as tf:
        for n in names:
            tf.extract(n, tmp, filter="data")
    return [str(tmp / n) for n in names]


@pytest.fixture(scope="module", params=["0.19.8", "0.15.4", "0.14.2"])
def deepspeed(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    _require()
    ver = request.param
    helper = [str(VPY), str(HERE / "ds_estimate.py")]
    if (ORACLE / "ds" / ver).is_dir():
        srv = Server(helper, str(ORACLE / "ds" / ver))
    else:
        srv = Server(helper + _sdist_sources(tmp_path_factory.mktemp("sdist"), ver), "")
    yield ver, srv
    srv.close()


CASES = st.fixed_dictionaries({
    "P": st.one_of(st.integers(1, 10**6), st.integers(10**6, 2 * 10**12)),
    "L": st.integers(0, 5 * 10**9),
    "G": st.integers(1, 16),
    "N": st.integers(1, 128),
    "stage": st.sampled_from([2, 3]),
    "off_opt": st.booleans(),
    "off_param": st.booleans(),
    "zero_init": st.booleans(),
})


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=CASES)
def test_model_states_equal_deepspeed(deepspeed: Any, case: Dict[str, Any]) -> None:
    ver, srv = deepspeed
    got = srv.ask(case)
    if case["stage"] == 3:
        mine = list(zero3_model_states_mem(case["P"], case["L"], case["G"], case["N"], case["off_opt"],
                                           case["off_param"], case["zero_init"]))
    else:
        mine = list(zero2_model_states_mem(v(ver), case["P"], case["G"], case["N"], case["off_opt"]))
    assert mine == got, (ver, case)


def test_zero2_formula_changed_in_0_14_3(deepspeed: Any) -> None:
    """The boundary itself: with 8 GPUs, ZeRO-2 without offload differs between 0.14.2 and later."""
    ver, srv = deepspeed
    case = {"stage": 2, "P": 10**9, "L": 0, "G": 8, "N": 1, "off_opt": False, "off_param": False, "zero_init": True}
    expected = 4 * 10**9 + 2 * 10**9 if ver == "0.14.2" else 2 * 10**9 + int(18 * 10**9 / 8)
    assert srv.ask(case)[1] == expected == zero2_model_states_mem(v(ver), 10**9, 8, 1, False)[1]


# --- parameter counts vs the real models on the meta device ------------------------------------------

SMALL = st.integers(1, 4)


@st.composite
def configs(draw: Any, model_type: str) -> Dict[str, Any]:
    heads = draw(st.sampled_from([2, 4, 8]))
    hd = draw(st.sampled_from([8, 16]))
    kv = draw(st.sampled_from([h for h in (1, 2, heads) if heads % h == 0]))
    d: Dict[str, Any] = {"model_type": model_type, "num_attention_heads": heads, "num_hidden_layers": draw(SMALL),
                         "hidden_size": heads * hd, "intermediate_size": draw(st.integers(8, 300)),
                         "vocab_size": draw(st.integers(16, 5000))}
    if draw(st.booleans()):
        d["tie_word_embeddings"] = draw(st.booleans())
    if model_type not in ("phi", "gpt_neox", "gpt2"):
        d["num_key_value_heads"] = kv
    if model_type in ("qwen3", "gemma", "gemma2", "mistral") and draw(st.booleans()):
        d["head_dim"] = draw(st.sampled_from([8, 16, 32]))
    if model_type in ("llama", "qwen3") and draw(st.booleans()):
        d["attention_bias"] = draw(st.booleans())
    if model_type == "llama" and draw(st.booleans()):
        d["mlp_bias"] = draw(st.booleans())
    if model_type == "mixtral":
        d["num_local_experts"] = draw(st.integers(2, 8))
        d["num_experts_per_tok"] = 2
    if model_type == "phi":
        d["qk_layernorm"] = draw(st.booleans())
    if model_type == "phi3":
        d["pad_token_id"] = 0
    if model_type == "gpt_neox":
        d["attention_bias"] = draw(st.booleans())
    if model_type == "starcoder2":
        d["use_bias"] = draw(st.booleans())
    if model_type == "gpt2":
        d = {"model_type": "gpt2", "n_embd": heads * hd, "n_head": heads, "n_layer": d["num_hidden_layers"],
             "vocab_size": d["vocab_size"], "n_positions": draw(st.integers(8, 512)),
             **({"n_inner": d["intermediate_size"]} if draw(st.booleans()) else {})}
    return d


ARCHS = ["llama", "mistral", "qwen2", "qwen3", "mixtral", "gemma", "gemma2", "phi", "phi3", "gpt2", "gpt_neox",
         "starcoder2"]


@pytest.fixture(scope="module", params=["tf5.24.0", "tf4.46.3"])
def transformers(request: pytest.FixtureRequest) -> Iterator[Any]:
    _require()
    srv = Server([str(VPY), str(HERE / "meta_count.py")], str(ORACLE / "hf" / request.param))
    yield request.param, srv
    srv.close()


@pytest.mark.parametrize("arch", ARCHS)
def test_param_counts_equal_meta_model(transformers: Any, arch: str) -> None:
    stack, srv = transformers
    if arch == "qwen3" and stack == "tf4.46.3":
        pytest.skip("Qwen3 arrived in Transformers 4.51")

    @settings(max_examples=12, deadline=None)
    @given(cfg=configs(arch))
    def check(cfg: Dict[str, Any]) -> None:
        got = srv.ask(cfg)
        assert "error" not in got, (cfg, got)
        mine = count_params(cfg, fused_experts=stack.startswith("tf5"))
        assert (mine.total, mine.largest_layer) == (got["total"], got["largest_layer"]), (stack, cfg, mine)

    check()
