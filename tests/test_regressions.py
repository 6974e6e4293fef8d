"""The table of release regressions (knowledge/regressions.py): its rows are consistent, a row whose text other
failures print too is named only for an affected release the log shows (and its frame), and, where the released
sources are unpacked (.cache/upstream/<dist>/<version>/), the code each row's ``source`` quotes
is in its first and last affected releases and gone from the fixed one. scripts/upstream/unpack_sources.py unpacks the
releases read here (derived from the rows); a missing one skips, or fails where DSDOCTOR_REQUIRE_UPSTREAM=1 (CI)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Dict, Iterable, Optional

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from dsdoctor.checks import known_bugs as KB
from dsdoctor.explain import diagnose_log
from dsdoctor.explain.causes import regressions as RG
from dsdoctor.knowledge import api_history as H
from dsdoctor.knowledge import regressions as R
from dsdoctor.knowledge.versions import parse

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts" / "upstream"))
import unpack_sources as U  # noqa: E402

UPSTREAM = U.releases.CACHE


def _need(dist: str, versions: Iterable[str]) -> None:
    """Skip unless every release of ``versions`` of ``dist`` is unpacked; CI (DSDOCTOR_REQUIRE_UPSTREAM=1) fails."""
    missing = sorted({v for v in versions if not (UPSTREAM / dist / v / ".source.json").is_file()}, key=Version)
    if missing:
        msg = f"released sources of {dist} {'/'.join(missing)} not unpacked: run scripts/upstream/unpack_sources.py"
        if os.environ.get("DSDOCTOR_REQUIRE_UPSTREAM") == "1":
            pytest.fail(msg)
        pytest.skip(msg)

# row key -> (file in the release, a literal the affected releases have, one the fixed release has instead or "")
CODE = {
    "triton-circular-import": ("deepspeed/model_implementations/transformers/ds_transformer.py",
                               "if deepspeed.HAS_TRITON:\n    from deepspeed.ops.transformer.inference.triton.mlp import",
                               "if deepspeed.HAS_TRITON and self.config.use_triton:\n"
                               "            from deepspeed.ops.transformer.inference.triton.mlp import TritonMLP"),
    "tmp-checkpoint-rename": ("transformers/trainer.py", 'staging_output_dir = os.path.join(run_dir, f"tmp-{checkpoint_folder}")',
                              ""),
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
    "collective-rpc-v1-model-executor": ("vllm/entrypoints/llm.py", "executor = self.llm_engine.model_executor\n"
                                         "        return executor.collective_rpc(",
                                         "return self.llm_engine.collective_rpc(method, timeout, args, kwargs)"),
    "apply-model-v1-model-executor": ("vllm/entrypoints/llm.py", "executor = self.llm_engine.model_executor\n"
                                      "        return executor.apply_model(func)", "return self.llm_engine.apply_model(func)"),
    "deepspeed-partial-state-first": ("accelerate/accelerator.py", "if PartialState._shared_state != {} and "
                                      "PartialState().distributed_type == DistributedType.DEEPSPEED:",
                                      "if AcceleratorState._shared_state != {} and "
                                      "AcceleratorState().distributed_type == DistributedType.DEEPSPEED:"),
    "eval-deepspeed-init-inference": ("transformers/trainer.py", "self.is_deepspeed_enabled and self.model_wrapped "
                                      "is self.model", "self.is_deepspeed_enabled and self.deepspeed is None"),
}


def test_rows_are_consistent() -> None:
    keys = [r.key for r in R.ALL]
    assert len(keys) == len(set(keys))
    for r in R.ALL:
        assert Version(r.first) <= Version(r.last) < Version(r.fixed), r.key
        assert r.package in ("deepspeed", "transformers", "accelerate", "vllm") and r.source and r.what, r.key
        assert r.predict in ("", "info", "warning", "error"), r.key
        for pkg, spec in r.needs:
            assert pkg and spec[0] in "<>=!~", r.key


@pytest.mark.parametrize("key", sorted(CODE))
def test_sources_read(key: str) -> None:
    row = next(r for r in R.ALL if r.key == key)
    path, affected, fixed = CODE[key]
    _need(row.package, (row.first, row.last, row.fixed))
    files = {v: UPSTREAM / row.package / v / path for v in (row.first, row.last, row.fixed)}
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
    """The jit_script_compat row's torch bound (<2.4): torch.compile refuses Python 3.12 in every unpacked torch
    release from 2.1.0 below the bound (unpack_sources.py: 2.3.1, the release read before it), in none from it on."""
    row = R.DS_JIT_COMPAT_PY312
    bound = SpecifierSet(dict(row.needs)["torch"])
    _need("torch", U.wanted()["torch"])
    texts = _unpacked("torch", "torch/__init__.py")
    assert any(v in bound for v in texts) and any(v not in bound for v in texts)
    for ver, text in texts.items():
        if ver >= Version("2.1.0"):
            assert (row.text in text) == (ver in bound), ver


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


def test_an_own_text_names_the_row_without_a_release() -> None:
    """A row's ``own`` text (and frame) is named when the log shows no release of its package; a release outside
    the range still vetoes it."""
    gr = "AttributeError: 'Linear' object has no attribute 'ds_grads_remaining'"
    assert R.shown(gr, {}) is R.DS_ZERO3_HOOKS_DELEGATING
    assert R.shown(gr, {"deepspeed": parse("0.19.2")}) is R.DS_ZERO3_HOOKS_DELEGATING
    assert R.shown(gr, {"deepspeed": parse("0.19.3")}) is None and R.shown(gr, {"deepspeed": parse("0.16.4")}) is None
    tf = "ValueError: ZeRO inference only makes sense with ZeRO Stage 3 - please adjust your config"
    assert R.shown(tf, {}, ["_maybe_log_save_evaluate"]) is R.TF_EVAL_DEEPSPEED_INIT
    assert R.shown(tf, {}) is None  # predict() before training: a real limit in every release
    assert R.shown(tf, {"transformers": parse("4.31.0")}, ["_maybe_log_save_evaluate"]) is None
    # a text other failures print too still needs the release
    assert R.shown("RuntimeError: trying to initialize the default process group twice!", {}) is None


def test_a_release_outside_the_range_vetoes_a_signature() -> None:
    line = "AttributeError: 'FP16_Optimizer' object has no attribute '_restore_from_bit16_weights'"
    assert not RG.vetoed(line, None) and not RG.vetoed(line, parse("0.17.6"))
    assert RG.vetoed(line, parse("0.18.0")) and RG.vetoed(line, parse("0.17.5"))
    assert not RG.vetoed("any other line", parse("0.18.0"))
    assert diagnose_log("deepspeed==0.17.6\n" + line + "\n").findings[0].name == "deepspeed-release-regression"
    assert "deepspeed-release-regression" not in [f.name for f in diagnose_log("deepspeed==0.18.0\n" + line + "\n").findings]


def test_the_conditional_answer_asks_for_the_release() -> None:
    line = "AttributeError: 'FP16_Optimizer' object has no attribute '_restore_from_bit16_weights'\n"
    named = diagnose_log(line).findings[0]
    assert named.name == "deepspeed-release-regression" and "pip show deepspeed" in named.explanation
    shown = diagnose_log("deepspeed==0.17.6\n" + line).findings[0]
    assert "pip show" not in shown.explanation and "DeepSpeed 0.17.6 is one of them" in shown.explanation


def _unpacked(dist: str, path: str) -> Dict[Version, str]:
    root = UPSTREAM / dist
    out: Dict[Version, str] = {}
    for d in root.iterdir() if root.is_dir() else ():
        f = d / path
        if f.is_file():
            out[Version(d.name)] = f.read_text(encoding="utf-8", errors="replace")
    return out


def test_only_the_affected_releases_bind_hook_classes_at_registration() -> None:
    """The ds_grads_remaining row's own text: in every unpacked sdist whose ZeRO-3 has the hook, the module's own
    forward pre-hook sets its counter, and the hasattr lookup at registration (a class bound to another module)
    is in exactly 0.16.5-0.19.2."""
    row = R.DS_ZERO3_HOOKS_DELEGATING
    _need("deepspeed", U.wanted()["deepspeed"])
    texts = _unpacked("deepspeed", "deepspeed/runtime/zero/parameter_offload.py")
    for ver, text in texts.items():
        hook = text.find("def _post_backward_module_hook")
        if hook < 0:
            continue
        assert "ds_grads_remaining = 0" in text[hook:hook + 300], ver
        at_registration = 'if not hasattr(module, "post_bwd_fn")' in text[:hook] + text[hook + 600:]
        assert at_registration == row.affects(ver), ver


def test_only_the_affected_releases_start_inference_during_training() -> None:
    """The eval row's own text and frame: Trainer calls deepspeed_init(inference=True) under a condition that
    holds during training only in 4.30.x (`self.model_wrapped is self.model`)."""
    row = R.TF_EVAL_DEEPSPEED_INIT
    _need("transformers", U.wanted()["transformers"])
    texts = _unpacked("transformers", "transformers/trainer.py")
    for ver, text in texts.items():
        if "inference=True" not in text:  # a Trainer without ZeRO inference (the oldest 4.x, in a full cache)
            continue
        conds = {"self.model_wrapped is self.model", "self.deepspeed is None", "args.deepspeed and not self.deepspeed"}
        used = {c for c in conds if f"deepspeed_enabled and {c}:" in text or f"if {c}:" in text}
        assert used, ver
        assert ("self.model_wrapped is self.model" in used) == row.affects(ver), ver


# an RLHF trainer's weight-sync set-up on vLLM 0.8.1 (written for this test: the frame vLLM's released llm.py gives)
_RPC = ("Traceback (most recent call last):\n"
        "  File \"/opt/rl/lib/python3.11/site-packages/myrl/rollout.py\", line 40, in sync_weights\n"
        "    self.llm.collective_rpc(\"init_weight_group\", args=(addr, port))\n"
        "  File \"/opt/rl/lib/python3.11/site-packages/vllm/entrypoints/llm.py\", line 494, in {func}\n"
        "    executor = self.llm_engine.model_executor\n"
        "AttributeError: 'LLMEngine' object has no attribute 'model_executor'\n")


def test_explain_names_a_raising_package_bug_by_its_frame() -> None:
    """vLLM's collective_rpc row: named from the raising frame's function, vetoed by a vLLM release the log shows
    outside the range; the same text from apply_model (still reading model_executor after 0.8.3) is not it."""
    named = diagnose_log(_RPC.format(func="collective_rpc")).findings[0]
    assert named.name == "package-versions-incompatible" and "vllm 0.8.0-0.8.2, fixed in 0.8.3" in named.title
    assert any("vllm>=0.8.3" in " ".join(f.commands) for f in named.fixes)
    assert "0.8.3" not in diagnose_log(_RPC.format(func="apply_model")).findings[0].title
    assert "0.10.2, fixed in 0.11.0" in diagnose_log(_RPC.format(func="apply_model")).findings[0].title
    assert "0.8.3" not in diagnose_log("vllm==0.8.4\n" + _RPC.format(func="collective_rpc")).findings[0].title


def test_only_the_affected_vllm_releases_read_model_executor() -> None:
    """The vLLM rows' own text and frames: LLM.collective_rpc reads llm_engine.model_executor in 0.7.0-0.8.2,
    apply_model in 0.7.0-0.10.2, and the V1 engine (whose LLMEngine lacks it under multiprocessing) is the default
    from 0.8.0."""
    _need("vllm", U.wanted()["vllm"])
    texts = _unpacked("vllm", "vllm/entrypoints/llm.py")
    envs = _unpacked("vllm", "vllm/envs.py")
    for func, row in (("collective_rpc", R.VLLM_COLLECTIVE_RPC_V1), ("apply_model", R.VLLM_APPLY_MODEL_V1)):
        for ver, text in texts.items():
            at = text.find(f"def {func}")
            body = text[at:text.find("\n    def ", at + 10)] if at >= 0 else ""
            reads = "self.llm_engine.model_executor" in body
            v1 = "VLLM_USE_V1: bool = True" in envs.get(ver, "")
            assert (reads and v1) == row.affects(ver), (func, ver)


def test_a_withdrawn_release_is_named_from_the_release_list() -> None:
    """A failed build in an archive pip downloaded (pip-install-*/deepspeed_<hash>/) of a DeepSpeed release PyPI
    withdrew (R.WITHDRAWN): named, with the releases around it; a listed release, a git build, another package: not."""
    built = ["<string>", "/tmp/pip-install-ab12/deepspeed_" + "0f" * 16 + "/setup.py"]
    if "0.6.1" not in H.releases("deepspeed"):
        pytest.skip("no DeepSpeed release list in the API history")
    assert all(v not in H.releases(d) for d, vs in R.WITHDRAWN.items() for v in vs)  # none was read: gone from PyPI
    assert RG.withdrawn(built, parse("0.3.11")) is None  # a release the history did not read, still on PyPI
    assert RG.withdrawn(built, parse("0.6.2")) == ("deepspeed", "0.6.1", "0.6.3")
    assert RG.withdrawn(["/tmp/pip-install-x/deepspeed/setup.py"], parse("0.6.2")) == ("deepspeed", "0.6.1", "0.6.3")
    assert RG.withdrawn(built, parse("0.6.1")) is None and RG.withdrawn(built, None) is None
    assert RG.withdrawn(built, parse("99.0.0")) is None  # newer than the list: unknown, not withdrawn
    assert RG.withdrawn(["/tmp/pip-req-build-x/setup.py"], parse("0.6.2")) is None  # a git / local build
    assert RG.withdrawn(["/tmp/pip-install-x/flash_attn_" + "0f" * 16 + "/setup.py"], parse("0.6.2")) is None


def test_a_row_named_by_its_frame_code() -> None:
    """Accelerate's message is raised by any use of AcceleratorState before Accelerator(): only the call in
    Accelerator.__init__ (1.0.0-1.8.1) names the row; a release the log shows outside the range vetoes it."""
    text = ("ValueError: Please make sure to properly initialize your accelerator via `accelerator = Accelerator()` "
            "before using any functionality from the `accelerate` library.")
    code = ["accelerator = Accelerator()", "deepspeed_plugins = AcceleratorState().deepspeed_plugins", "raise ValueError("]
    row = R.ACC_STATE_BEFORE_ACCELERATOR
    assert R.shown(text, {}, ["__init__"], code) is row
    assert R.shown(text, {"accelerate": parse("1.8.1")}, ["__init__"], code) is row
    assert R.shown(text, {"accelerate": parse("1.9.0")}, ["__init__"], code) is None
    assert R.shown(text, {}, ["__init__"], ["state = AcceleratorState()"]) is None  # the user's own early use
    assert R.shown(text, {}) is None


def test_an_unnamed_row_text_is_said_as_a_possibility() -> None:
    """A line a row's text is in, which the log does not tie to the row (no release shown, no frame): the answer
    stays unknown and says the bug conditionally; a release outside the range, or library frames without a frame
    row's own, say nothing."""
    line = "RuntimeError: trying to initialize the default process group twice!\n"
    got = diagnose_log(line).findings[0]
    assert got.name == "unknown" and any("0.6.6-0.6.7" in f.title for f in got.fixes)
    assert any("comm-double-init" in (f.reason or "") for f in got.fixes)
    assert not any("0.6.6-0.6.7" in f.title for f in diagnose_log("deepspeed==0.8.0\n" + line).findings[0].fixes)
    acc = ("Traceback (most recent call last):\n  File \"/w/train.py\", line 5, in <module>\n    st = AcceleratorState()\n"
           "  File \"/e/lib/python3.10/site-packages/accelerate/state.py\", line 889, in __init__\n    raise ValueError(\n"
           "ValueError: Please make sure to properly initialize your accelerator via `accelerator = Accelerator()` "
           "before using any functionality from the `accelerate` library.\n")
    assert not any("1.9.0" in f.title for f in diagnose_log(acc).findings[0].fixes)
    assert any("1.9.0" in f.title for f in diagnose_log(acc.splitlines()[-1] + "\n").findings[0].fixes)
