"""The table of release regressions (knowledge/regressions.py): its rows are consistent, a row whose text other
failures print too is named only for an affected release the log shows (and its frame), and, where the released
sources are unpacked (.cache/upstream/<dist>/<version>/), the code each row's ``source`` quotes
is in its first and last affected releases and gone from the fixed one."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, Dict, Optional

import pytest
from packaging.version import Version

from dsdoctor.checks import known_bugs as KB
from dsdoctor.explain import diagnose_log
from dsdoctor.knowledge import regressions as R
from dsdoctor.knowledge.versions import parse

UPSTREAM = Path(__file__).resolve().parents[1] / ".cache" / "upstream"

# row key -> (file in the release, a literal the affected releases have, one the fixed release has instead or "")
CODE = {
    "comm-double-init": ("deepspeed/comm/torch.py", "return torch.distributed.init_process_group(",
                         "if not torch.distributed.is_initialized():"),
    "zero3-inflight-registry": ("deepspeed/runtime/zero/partitioned_param_coordinator.py",
                                "__class__.__InflightParamRegistry()", "inflight_param_registry: InflightParamRegistry"),
    "zero3-grad-fn-lookup-no-grad": ("deepspeed/runtime/utils.py", "grad_fn = _get_grad_fn_or_grad_acc(param)",
                                     "with torch.enable_grad():"),
    "libaio-dpkg-check": ("deepspeed/ops/op_builder/async_io.py", "but are missing", "has_function('io_submit'"),
    "torch-compiler-is-compiling": ("deepspeed/utils/logging.py", "torch.compiler.is_compiling()", ""),
    "zero3-hooks-delegating-wrapper": ("deepspeed/runtime/zero/parameter_offload.py",
                                       'if not hasattr(module, "post_bwd_fn")', '"post_bwd_fn" not in module.__dict__'),
    "zero0-bf16-load-checkpoint": ("deepspeed/runtime/engine.py", "(self.zero_optimization() or self.bfloat16_enabled())",
                                   "load_zero_checkpoint = load_path is not None and self.zero_optimization()"),
    "zeropp-quantized-weights-bf16": ("deepspeed/runtime/zero/partition_parameters.py",
                                      "def dequantize(self, quantized_param, scale):",
                                      "def dequantize(self, quantized_param, scale, dtype=None):"),
    "jit-script-compat-dynamo-py312": ("deepspeed/utils/torch.py",
                                       "return torch.compile(fn)\n    return torch.jit.script(fn)",
                                       "sys.version_info >= (3, 12) and not required_torch_version(min_version=2.4)"),
    "bnb-optim-bits": ("accelerate/utils/deepspeed.py", "and optimizer.optim_bits == 32",
                       "is_adaw = optimizer.args.optim_bits == 32"),
    "eval-deepspeed-init-inference": ("transformers/trainer.py", "self.is_deepspeed_enabled and self.model_wrapped "
                                      "is self.model", "self.is_deepspeed_enabled and self.deepspeed is None"),
}


def test_rows_are_consistent() -> None:
    keys = [r.key for r in R.ALL]
    assert len(keys) == len(set(keys))
    for r in R.ALL:
        assert Version(r.first) <= Version(r.last) < Version(r.fixed), r.key
        assert r.package in ("deepspeed", "transformers", "accelerate") and r.source and r.what, r.key
        assert r.predict in ("", "info", "warning", "error"), r.key
        for pkg, spec in r.needs:
            assert pkg and spec[0] in "<>=!~", r.key


@pytest.mark.parametrize("key", sorted(CODE))
def test_sources_read(key: str) -> None:
    row = next(r for r in R.ALL if r.key == key)
    path, affected, fixed = CODE[key]
    files = {v: UPSTREAM / row.package / v / path for v in (row.first, row.last, row.fixed)}
    if not all(f.is_file() for f in files.values()):
        pytest.skip(f"released sources of {row.package} {row.first}/{row.last}/{row.fixed} not unpacked")
    text = {v: f.read_text(encoding="utf-8", errors="replace") for v, f in files.items()}
    assert affected in text[row.first] and affected in text[row.last], key
    if fixed:
        assert fixed in text[row.fixed] and fixed not in text[row.last], key
    else:
        assert affected not in text[row.fixed], key


def test_a_shared_message_needs_the_release() -> None:
    text = "RuntimeError: trying to initialize the default process group twice!"
    assert R.shown(text, {"deepspeed": parse("0.6.7")}) is R.DS_COMM_DOUBLE_INIT
    assert R.shown(text, {"deepspeed": parse("0.7.0")}) is None and R.shown(text, {}) is None
    tf = "ValueError: ZeRO inference only makes sense with ZeRO Stage 3 - please adjust your config"
    assert R.shown(tf, {"transformers": parse("4.30.2")}) is None  # predict() before train: a real limit
    assert R.shown(tf, {"transformers": parse("4.30.2")}, ["_maybe_log_save_evaluate"]) is R.TF_EVAL_DEEPSPEED_INIT
    assert R.shown(tf, {"transformers": parse("4.31.0")}, ["_maybe_log_save_evaluate"]) is None
    assert R.shown("any line", {"deepspeed": parse("0.15.0")}) is None  # a row without a message of its own


def test_explain_names_a_shared_message_by_the_release() -> None:
    line = "RuntimeError: trying to initialize the default process group twice!\n"
    named = diagnose_log("deepspeed==0.6.7\naccelerate==0.12.0\n" + line).findings[0]
    assert named.name == "deepspeed-release-regression" and any("deepspeed>=0.7.0" in " ".join(f.commands)
                                                               for f in named.fixes)
    assert diagnose_log("deepspeed==0.7.0\n" + line).findings[0].name != "deepspeed-release-regression"
    assert diagnose_log(line).findings[0].name != "deepspeed-release-regression"


def test_torch_raises_the_message_below_2_4() -> None:
    """The jit_script_compat row's torch bound: torch.compile refuses Python 3.12 in the 2.1-2.3 wheels, not in 2.4."""
    files = {v: UPSTREAM / "torch" / v / "torch" / "__init__.py" for v in ("2.1.0", "2.3.1", "2.4.0")}
    if not all(f.is_file() for f in files.values()):
        pytest.skip("torch 2.1.0 / 2.3.1 / 2.4.0 sources not unpacked")
    text = {v: f.read_text(encoding="utf-8", errors="replace") for v, f in files.items()}
    assert R.DS_JIT_COMPAT_PY312.text in text["2.1.0"] and R.DS_JIT_COMPAT_PY312.text in text["2.3.1"]
    assert R.DS_JIT_COMPAT_PY312.text not in text["2.4.0"]


# an `import deepspeed` of 0.18.6 on Python 3.12 with torch 2.3 (written for this test: the frames DeepSpeed's and
# torch's released sources give)
_JIT = ("Traceback (most recent call last):\n"
        "  File \"/srv/env/lib/python3.12/site-packages/deepspeed/moe/sharded_moe.py\", line 161, in <module>\n"
        "    @jit_script_compat\n"
        "  File \"/srv/env/lib/python3.12/site-packages/deepspeed/utils/torch.py\", line 36, in jit_script_compat\n"
        "    return torch.compile(fn)\n"
        "  File \"/srv/env/lib/python3.12/site-packages/torch/__init__.py\", line 1868, in compile\n"
        "    raise RuntimeError(\"Dynamo is not supported on Python 3.12+\")\n"
        "RuntimeError: Dynamo is not supported on Python 3.12+\n")


def test_explain_names_the_jit_compat_bug_by_its_frame() -> None:
    named = diagnose_log(_JIT).findings[0]
    assert named.name == "deepspeed-release-regression" and "0.18.7" in named.title
    # the same torch message from the user's own torch.compile is not DeepSpeed's bug, whatever release is shown
    own = ("deepspeed==0.18.6\nTraceback (most recent call last):\n  File \"/srv/train.py\", line 9, in <module>\n"
           "    model = torch.compile(model)\n" + _JIT.split("\n", 6)[6])
    assert diagnose_log(own).findings[0].name != "deepspeed-release-regression"
    text = "RuntimeError: Dynamo is not supported on Python 3.12+"
    assert R.shown(text, {"deepspeed": parse("0.18.6")}) is None
    assert R.shown(text, {"deepspeed": parse("0.18.6")}, ["jit_script_compat"]) is R.DS_JIT_COMPAT_PY312
    assert R.shown(text, {"deepspeed": parse("0.18.7")}, ["jit_script_compat"]) is None


def _ctx(python: Optional[tuple], **versions: str) -> Any:
    dists: Dict[str, str] = dict(versions)
    torch = SimpleNamespace(version=dists.pop("torch")) if "torch" in dists else None
    packages = SimpleNamespace(torch=torch, version=dists.get)
    interp = SimpleNamespace(version=python) if python else None
    return SimpleNamespace(facts=SimpleNamespace(packages=packages, interpreter=interp))


def test_check_needs_the_interpreter_and_torch() -> None:
    row = R.DS_JIT_COMPAT_PY312
    assert KB._needs_hold(row, _ctx((3, 12, 3), torch="2.3.1+cu121"))
    assert not KB._needs_hold(row, _ctx((3, 11, 9), torch="2.3.1+cu121"))
    assert not KB._needs_hold(row, _ctx((3, 12, 3), torch="2.4.0"))
    assert not KB._needs_hold(row, _ctx(None, torch="2.3.1"))
