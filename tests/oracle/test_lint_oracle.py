"""Oracle for `dsdoctor lint`: the real DeepSpeed (installed 0.19.8, plus 0.19.7 / 0.15.4) loads the same files.
Whenever DeepSpeed's own validation (DeepSpeedConfig with the world size patched, the launcher's hostfile and
.deepspeed_env parsing) rejects a file, dsdoctor must report an error, and for the rules that predict a
config-time failure, an accepted file must get no such error."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from packaging.version import Version

from dsdoctor.lint import lint_target, make_target
from dsdoctor.lint.all_rules import REGISTRY
from dsdoctor.lint.target import Usage

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
VPY = ORACLE / "venv" / "bin" / "python"
HERE = Path(__file__).parent
REAL = REPO / "tests" / "cases" / "lint" / "real"
# rules whose prediction DeepSpeedConfig itself checks when it is built
CONFIG_TIME = {"ds-config-invalid", "ds-config-duplicate-key", "ds-config-unknown-key", "ds-config-removed-feature",
               "batch-size-mismatch", "fp16-bf16-both-enabled", "partial-offload-requires-stage3", "bucket-size-float",
               "fp16-min-loss-scale-fractional", "communication-data-type-renamed"}



def deepspeed_verdicts(ds: str, items: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """One subprocess checks every item with the real DeepSpeed ``ds``."""
    env = dict(os.environ, PYTHONPATH=str(ORACLE / "ds" / ds), OMP_NUM_THREADS="1")
    env.pop("DS_ACCELERATOR", None)
    p = subprocess.run([str(VPY), str(HERE / "ds_validate.py")], input="".join(json.dumps(i) + "\n" for i in items),
                       capture_output=True, text=True, env=env, timeout=600)
    lines = [json.loads(x) for x in p.stdout.splitlines() if x.startswith("{")]
    assert len(lines) == len(items), p.stderr[-3000:]
    return lines


def dsdoctor_errors(path: Path, kind: str, ds: str, world_size: Optional[int]) -> List[str]:
    usage = Usage(ds=Version(ds), world_size=world_size, world_size_source="test", loaded_by="deepspeed", memlock=None)
    hits = lint_target(make_target(str(path), kind, usage))
    return [h.finding.name for h in hits if h.finding.severity.value == "error"]


def _examples() -> List[Tuple[str, str, Optional[int], str]]:
    """(name, text, world size, ds version) of every ds_config rule example that needs no other context."""
    out = []
    for name, rule in sorted(REGISTRY.items()):
        if rule.kind != "ds_config":
            continue
        for i, ex in enumerate(rule.valid + rule.invalid):
            opts = dict(ex.options)
            if set(opts) - {"world_size", "ds"}:
                continue
            text = ex.text
            try:  # give batch-free examples a micro batch, so the example's own key decides
                cfg = json.loads(text)
                if isinstance(cfg, dict) and not {"train_batch_size", "train_micro_batch_size_per_gpu"} & set(cfg):
                    text = json.dumps({"train_micro_batch_size_per_gpu": 1, **cfg})
            except ValueError:
                pass
            out.append((f"{name}-{i}", text, opts.get("world_size"), str(opts.get("ds", "0.19.8"))))  # type: ignore[misc]
    return out


def _compare(tmp: Path, cases: Sequence[Tuple[str, str, Optional[int]]], ds: str, kind: str = "ds_config") -> None:
    items = []
    for i, (_label, text, ws) in enumerate(cases):
        f = tmp / f"c{i}.json"
        f.write_text(text)
        items.append({"path": str(f), "world_size": ws})
    verdicts = deepspeed_verdicts(ds, items)
    bad = []
    for (label, text, ws), item, verdict in zip(cases, items, verdicts):
        errs = dsdoctor_errors(Path(item["path"]), kind, ds, ws)
        if not verdict["ok"] and not errs:
            bad.append(f"{label}: DeepSpeed {ds} rejects ({verdict['error']}) but dsdoctor reports no error:\n{text}")
        if verdict["ok"] and set(errs) & CONFIG_TIME:
            bad.append(f"{label}: DeepSpeed {ds} accepts but dsdoctor reports {errs}:\n{text}")
    assert not bad, "\n\n".join(bad)


@pytest.mark.parametrize("ds", ["0.19.8", "0.19.7", "0.15.4"])
def test_rule_examples_agree_with_deepspeed(ds: str, tmp_path: Path) -> None:
    cases = [(label, text, ws) for label, text, ws, want in _examples() if Version(want) >= Version("0.15.4")]
    _compare(tmp_path, cases, ds)


def test_real_configs_load_in_deepspeed_when_auto_free(tmp_path: Path) -> None:
    """The realistic configs without "auto" load in DeepSpeed 0.19.8 (those with "auto" need the HF Trainer)."""
    cases = [(p.name, p.read_text(), 8) for p in sorted(REAL.glob("*.json")) if '"auto"' not in p.read_text()]
    assert cases
    _compare(tmp_path, cases, "0.19.8")


def test_launcher_parsers_agree(tmp_path: Path) -> None:
    hostfiles = ["w0 slots=8\nw1 slots=8\n", "# c\n\nw0 slots=8\n", "w0 slots=8\nw0 slots=4\n", "w0 gpus=8\n",
                 "w0\n", "", "# only a comment\n", "w0  slots=2 extra\n", "w0 slots=x\n"]
    envs = ["A=1\n", "A=1\n\nB=2\n", "# comment\nA=1\n", "A=1 2\n", "A\n", "\n", "A==b\n"]
    items = [{"hostfile": h} for h in hostfiles] + [{"env": e} for e in envs]
    verdicts = deepspeed_verdicts("0.19.8", items)
    for item, verdict in zip(items, verdicts):
        kind, text = ("hostfile", item["hostfile"]) if "hostfile" in item else ("deepspeed_env", item["env"])
        f = tmp_path / ("hostfile" if kind == "hostfile" else ".deepspeed_env")
        f.write_text(text)
        errs = dsdoctor_errors(f, kind, "0.19.8", None)
        assert (not verdict["ok"]) == bool(errs), (kind, text, verdict, errs)


_KEYS = ["stage", "offload_param", "offload_optimizer", "overlap_comm", "reduce_bucket_size", "stage3_prefetch_bucket_size",
         "contiguous_gradients", "sub_group_size", "stage3_gather_16bit_weights_on_model_save", "overlap_com",
         "reduce_bucket", "mics_shard_size", "zeropp_loco_param", "cpu_offload"]
_offload = st.fixed_dictionaries({"device": st.sampled_from(["cpu", "none", "nvme", "gpu"])},
                                 optional={"pin_memory": st.booleans(), "ratio": st.sampled_from([0.3, 1.0]),
                                           "pinmemory": st.booleans(), "nvme_path": st.just("/tmp")})
_zero_val = {"stage": st.sampled_from([0, 1, 2, 3, 4]), "offload_param": _offload, "offload_optimizer": _offload,
             "reduce_bucket_size": st.sampled_from([500000000, 15099494.4, 5e8]),
             "stage3_prefetch_bucket_size": st.sampled_from([50000000, 15099494.4])}
_zero = st.dictionaries(st.sampled_from(_KEYS), st.booleans(), max_size=3).flatmap(
    lambda d: st.fixed_dictionaries({k: _zero_val.get(k, st.just(v)) for k, v in d.items()},
                                    optional={k: v for k, v in _zero_val.items() if k not in d}))
_batch = st.sampled_from([None, 0, 1, 2, 4, 8, 16, 6])
_cfg = st.fixed_dictionaries({}, optional={
    "train_batch_size": _batch, "train_micro_batch_size_per_gpu": _batch, "gradient_accumulation_steps": _batch,
    "zero_optimization": _zero, "fp16": st.fixed_dictionaries({"enabled": st.booleans()}, optional={"lossscale": st.just(0)}),
    "bf16": st.fixed_dictionaries({"enabled": st.booleans()}), "amp": st.just({"enabled": True}),
    "gradient_clip": st.just(1.0)})


@settings(max_examples=4, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck),
          phases=[Phase.explicit, Phase.generate])  # no shrinking: each step would start DeepSpeed again
@given(st.lists(st.tuples(_cfg, st.sampled_from([1, 2, 4])), min_size=60, max_size=60))
def test_property_deepspeed_rejects_implies_dsdoctor_error(batch: List[Tuple[Dict[str, Any], int]]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        cases = [(f"gen{i}", json.dumps({k: v for k, v in c.items() if v is not None}, indent=1), ws)
                 for i, (c, ws) in enumerate(batch)]
        _compare(Path(d), cases, "0.19.8")
