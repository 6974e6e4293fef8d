"""Known bugs of released DeepSpeed / Transformers versions, as data: the message (or the source line of the frame)
that shows one, the releases that have it, the release that fixed it, and where that was read. No I/O.

Each row was read in the released sources (pip download of the releases around the boundary, the file diffed);
``source`` says which. explain names a release regression only from a row, never by guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional, Sequence, Tuple

from packaging.version import Version


@dataclass(frozen=True)
class Regression:
    """A bug of ``package`` releases ``first``..``last`` (inclusive; ``first`` is the oldest release read that has
    it), fixed in ``fixed``. ``text`` is a literal every line showing it contains ("" when the bug has no message
    of its own: explain never names it from a log)."""

    key: str
    package: str
    text: str
    first: str
    last: str
    fixed: str
    what: str
    source: str
    # what check can predict from installed versions: the severity ("" = nothing: the bug needs more than versions
    # to show), and the API whose absence in another installed package the bug needs ((package, module, name):
    # e.g. torch's torch.compiler.is_compiling; answered by knowledge/api_history, never guessed)
    predict: str = ""
    needs_missing: Tuple[Tuple[str, str, str], ...] = ()
    shows: str = ""  # how a run meets it, for check's message ("`import deepspeed` fails")
    # version ranges of other installed packages the bug needs besides ``package``'s release ((package, specifier):
    # e.g. ("torch", "<2.5"); "python": the interpreter's); only what the sources read state (a code comment, a
    # condition, an API's absence)
    needs: Tuple[Tuple[str, str], ...] = ()
    # a function a frame of the traceback must be in for ``text`` to show this bug ("" = the text and the release
    # suffice): e.g. Trainer._maybe_log_save_evaluate, evaluation during training, not a predict() before it
    frame: str = ""
    # a literal the source line of one of the traceback's frames must contain (the package's own call that raises
    # it, where the function name alone says too little: ``__init__``); "" = none needed
    code: str = ""
    # the text (and ``frame``) show this bug in every release read, none other prints it: a log that shows no
    # release of ``package`` is answered conditionally (the affected range, `pip show`); one that shows a release
    # outside the range still vetoes it
    own: bool = False

    @property
    def releases(self) -> str:
        """The affected releases as said: ``0.17.6`` or ``0.18.3-0.18.6``."""
        return self.first if self.first == self.last else f"{self.first}-{self.last}"

    def affects(self, ver: Optional[Version]) -> bool:
        """``ver`` has the bug (False when the log shows no version)."""
        return ver is not None and Version(self.first) <= ver <= Version(self.last)

    def vetoed(self, ver: Optional[Version]) -> bool:
        """The log shows a release of ``package`` outside the affected range: the bug is not this one."""
        return ver is not None and not self.affects(ver)


DS_TRITON_CIRCULAR_IMPORT = Regression(
    "triton-circular-import", "deepspeed",
    "from partially initialized module 'deepspeed.model_implementations.transformers.ds_transformer'",
    "0.10.0", "0.19.7", "0.19.8",
    "with triton installed, `import deepspeed` can fail in an import cycle: ds_transformer.py imports "
    "deepspeed.ops.transformer.inference.triton.mlp at module level, whose package __init__ imports ds_transformer "
    "again",
    "deepspeed/model_implementations/transformers/ds_transformer.py: module-level `if deepspeed.HAS_TRITON: from "
    "deepspeed.ops.transformer.inference.triton.mlp import TritonMLP` in the 0.10.0-0.19.7 sdists read (0.9.5 has "
    "none; ds_transformer.py, ops/transformer/inference/__init__.py and model_implementations/__init__.py are the "
    "same files in 0.10.0-0.12.0); 0.19.8 imports it inside DeepSpeedTransformerInference.__init__")

DS_TORCH_IS_COMPILING = Regression(
    "torch-compiler-is-compiling", "deepspeed",
    "module 'torch.compiler' has no attribute 'is_compiling'",
    "0.15.3", "0.15.3", "0.15.4",
    "DeepSpeed 0.15.3's logger calls torch.compiler.is_compiling(), which older torch releases do not have",
    "deepspeed/utils/logging.py: `torch.compiler.is_compiling()` in 0.15.3 (0.15.2 has none); 0.15.4 calls "
    "deepspeed.runtime.compiler.is_compiling, which falls back to torch._dynamo's or False; torch.compiler."
    "is_compiling is in the torch 2.3.0-2.15.0 wheels, not in 2.0.0-2.2.2",
    predict="error", needs_missing=(("torch", "torch.compiler", "is_compiling"),),
    shows="`import deepspeed` fails with AttributeError: module 'torch.compiler' has no attribute 'is_compiling'")

TF_TMP_CHECKPOINT = Regression(
    "tmp-checkpoint-rename", "transformers",
    "tmp-checkpoint-",
    "4.36.0", "4.38.2", "4.39.0",
    "Trainer._save_checkpoint writes each checkpoint to `tmp-checkpoint-N` and renames it to `checkpoint-N` once "
    "all ranks are done (4.36), then removes the staging dir (4.38); on a shared filesystem, with "
    "save_on_each_node, or when one rank renames first, another rank's rename or rmtree finds the directory gone "
    "or not empty",
    "transformers/trainer.py _save_checkpoint: `staging_output_dir = os.path.join(run_dir, f\"tmp-{checkpoint_folder}\")` "
    "and `os.rename(staging_output_dir, output_dir)` in the 4.36.0-4.38.2 wheels (4.38: `shutil.rmtree("
    "staging_output_dir)` too); 4.35.2 and 4.39.0 save to checkpoint-N directly",
    predict="info", shows="a multi-node run saving to shared storage (or with save_on_each_node) can fail in "
    "Trainer._save_checkpoint (FileNotFoundError / Directory not empty on tmp-checkpoint-N)")

DS_COMM_DOUBLE_INIT = Regression(
    "comm-double-init", "deepspeed",
    "trying to initialize the default process group twice",
    "0.6.6", "0.6.7", "0.7.0",
    "deepspeed.comm's TorchBackend (new in 0.6.6) calls torch.distributed.init_process_group whenever its own "
    "backend is unset, even when the caller (Accelerate, a launcher, the script) already initialized "
    "torch.distributed, and torch refuses the second init",
    "deepspeed/comm/torch.py TorchBackend.init_process_group: `return torch.distributed.init_process_group(backend, "
    "timeout=..., init_method=...)` with no is_initialized() check in the 0.6.6 and 0.6.7 sdists (0.6.5's "
    "utils/distributed.py init_distributed checked `torch.distributed.is_initialized()`); 0.7.0 guards it with "
    "`if not torch.distributed.is_initialized():` (upstream commit 9f5895cb7, 'fix issue in accelerate. (#2121)', "
    "first tag v0.7.0)")

DS_ZERO3_INFLIGHT_REGISTRY = Regression(
    "zero3-inflight-registry", "deepspeed",
    "'status': 'INFLIGHT'",
    "0.6.3", "0.9.2", "0.9.3",
    "ZeRO-3 keeps one PartitionedParameterCoordinator for training and one for inference "
    "(get_param_coordinator(training)), each with its own registry of in-flight parameters: a parameter one of them "
    "prefetched is INFLIGHT, unknown to the other (e.g. alternating generate() and training forwards), and "
    "fetch_sub_module's `assert param.ds_status == ZeroParamStatus.AVAILABLE` fails",
    "deepspeed/runtime/zero/partitioned_param_coordinator.py: `self.__inflight_param_registry = "
    "__class__.__InflightParamRegistry()` per coordinator, and a coordinator per mode (`param_coordinators[training]`, "
    "stage3.py in 0.6.3-0.6.5, parameter_offload.py from 0.6.6) in the 0.6.3-0.9.2 sdists (0.6.1 has neither; 0.6.2 "
    "is not on PyPI, not read); 0.9.3 passes one InflightParamRegistry shared by both "
    "(upstream commit 4716b0f76, 'share inflight registry between PartitionedParameterCoordinators (#3462)', first "
    "tag v0.9.3). 0.10.0 gives training and inference their own registries again, still bound to the module "
    "(commit 9377921a3, 'Separate ZeRO3 InflightParamRegistry for train and eval (#3884)'): not read further, so "
    "the row stops at 0.9.2")

DS_ZERO3_GRAD_FN_NO_GRAD = Regression(
    "zero3-grad-fn-lookup-no-grad", "deepspeed",
    "'NoneType' object has no attribute 'next_functions'",
    "0.18.3", "0.18.6", "0.18.7",
    "ZeRO-3's gradient hooks call count_used_parameters_in_backward(), which looks up each parameter's grad "
    "accumulator with torch.autograd.graph._get_grad_fn_or_grad_acc(); hooks run with grad mode off, and torch "
    "<=2.4's helper then finds no grad_fn and fails in backward",
    "deepspeed/runtime/utils.py count_used_parameters_in_backward: `grad_fn = _get_grad_fn_or_grad_acc(param)` "
    "outside grad mode in the 0.18.3-0.18.6 sdists (0.18.2 has no such function; stage3.py calls it from the grad "
    "hook); 0.18.7 wraps it in `with torch.enable_grad():`, commented 'Backward hooks run with grad mode disabled, "
    "but PyTorch <=2.4's _get_grad_fn_or_grad_acc() requires grad mode for leaf params' (upstream commit "
    "bffaf4574, #7841, first tag v0.18.7). The torch bound is that comment's (hence a warning, not an error): torch's "
    "autograd/graph.py was not read",
    predict="warning", needs=(("torch", "<2.5"),),
    shows="ZeRO-3's gradient hooks (every ZeRO-3 backward: stage3.py calls count_used_parameters_in_backward from each "
    "one, unguarded) can fail with AttributeError: 'NoneType' object has no attribute 'next_functions'")

DS_LIBAIO_DPKG = Regression(
    "libaio-dpkg-check", "deepspeed",
    "requires the libraries: ['libaio-dev'] but are missing",
    "0.3.15", "0.4.3", "0.4.4",
    "the async_io op's compatibility check asks dpkg for the Debian package libaio-dev (`dpkg -l libaio-dev`): "
    "on a distribution without dpkg (Arch, RHEL, conda-only setups) it reports libaio missing even when it is "
    "installed",
    "deepspeed/ops/op_builder/async_io.py AsyncIOBuilder.is_compatible: `self.libraries_installed(['libaio-dev'])`, "
    "which builder.py runs as `dpkg -l libaio-dev`, and the warning '... requires the libraries: ['libaio-dev'] but "
    "are missing' in the 0.3.15-0.4.3 sdists (async_io first in 0.3.15); 0.4.4 probes with "
    "`self.has_function('io_submit', ('aio', ))` and prints another message")


DS_ZERO3_HOOKS_DELEGATING = Regression(
    "zero3-hooks-delegating-wrapper", "deepspeed",
    "object has no attribute 'ds_grads_remaining'",
    "0.16.5", "0.19.2", "0.19.3",
    "ZeRO-3 creates each module's backward-hook classes at registration (children first) unless "
    "`hasattr(module, \"post_bwd_fn\")`; a wrapper that delegates attributes to a child (PEFT's "
    "ModulesToSaveWrapper, e.g. LoRA with modules_to_save) finds the child's, and the forward then counts on a "
    "module whose ds_grads_remaining was never set",
    "deepspeed/runtime/zero/parameter_offload.py: 0.16.4 builds pre_bwd_fn / post_bwd_fn inside the forward hooks, "
    "0.16.5 at registration behind `if not hasattr(module, \"pre_bwd_fn\")` / `\"post_bwd_fn\"` (sdists diffed), "
    "kept through 0.19.2; 0.19.3 tests `\"post_bwd_fn\" not in module.__dict__` (upstream commit 75f395fd0, 'Fix "
    "ZeRO-3 hooks for attribute-delegating modules (#8144)', first tag v0.19.3, whose root cause names the "
    "AttributeError on ds_grads_remaining). Own text: in every sdist with ZeRO-3 (0.3.12-0.19.8) the module's own "
    "forward pre-hook (_post_backward_module_hook) sets `module.ds_grads_remaining` before the autograd Function "
    "that counts on it; only 0.16.5-0.19.2 bind that Function, at registration, to another module (the child a "
    "wrapper delegates to), whose counter is not yet set",
    own=True)

DS_ZERO0_BF16_LOAD = Regression(
    "zero0-bf16-load-checkpoint", "deepspeed",
    "'FP16_Optimizer' object has no attribute '_restore_from_bit16_weights'",
    "0.17.6", "0.17.6", "0.18.0",
    "with ZeRO stage 0 and bf16, load_checkpoint takes the ZeRO path (`self.zero_optimization() or "
    "self.bfloat16_enabled()`) and calls _restore_from_bit16_weights() on the FP16_Optimizer that 0.17.6 uses for "
    "bf16 without ZeRO, which has no such method",
    "deepspeed/runtime/engine.py load_checkpoint: `load_zero_checkpoint = load_path is not None and "
    "(self.zero_optimization() or self.bfloat16_enabled())` then `self.optimizer._restore_from_bit16_weights()`, "
    "and _do_optimizer_sanity_check's `return FP16 if model_dtype == torch.float16 else DDP_BFLOAT16` (FP16_Optimizer) "
    "in the 0.17.6 sdist (0.17.5 has no DDP_BFLOAT16: bf16 without ZeRO was BF16_Optimizer, which has the method; "
    "upstream commit 889f0ead2 'Enable non-ZeRO mode (#7515)', first tag v0.17.6); 0.18.0 tests "
    "`self.zero_optimization()` only (commit b75654001, #7586, first tag v0.18.0)")

DS_ZEROPP_QUANT_BF16 = Regression(
    "zeropp-quantized-weights-bf16", "deepspeed",
    "",
    "0.10.0", "0.19.5", "0.19.6",
    "ZeRO++ quantized weights (zero_quantized_weights) run bf16 parameters through the fp16-only quantizer kernels "
    "and restore them as fp16, so a bf16 run fails on a dtype mismatch (or trains on misread values)",
    "deepspeed/runtime/zero/partition_parameters.py CUDAQuantizer: `def dequantize(self, quantized_param, scale):` "
    "with no dtype, its callers restoring param.data from it, in the 0.10.0 (zero_quantized_weights first in "
    "config.py) to 0.19.5 sdists; 0.19.6 has `dequantize(self, quantized_param, scale, dtype=None)` and passes "
    "`dtype=param.dtype` (upstream commit 6098f799e, 'Keep parameter dtype through ZeRO-3 weight quantization "
    "(#8215)', whose message states the kernels' fp16-only contract); the failure's own message was not read")


DS_JIT_COMPAT_PY312 = Regression(
    "jit-script-compat-dynamo-py312", "deepspeed",
    "Dynamo is not supported on Python 3.12+",
    "0.18.6", "0.18.6", "0.18.7",
    "DeepSpeed 0.18.6's jit_script_compat decorator calls torch.compile() on any torch >= 2.0; torch 2.1-2.3 "
    "raise at once on Python 3.12+, and the decorated MoE helpers are defined when deepspeed.runtime.engine "
    "imports deepspeed.moe.sharded_moe, so `import deepspeed` fails",
    "deepspeed/utils/torch.py jit_script_compat: `return torch.compile(fn)` when `required_torch_version("
    "min_version=2.0)`, unguarded, in the 0.18.6 sdist (0.18.5 has no jit_script_compat: upstream commit d2ca6e75b, "
    "'Replace torch.jit.script with torch.compile (#7835)', first tag v0.18.6), applied at module level in "
    "moe/sharded_moe.py, which runtime/engine.py imports; 0.18.7 skips torch.compile on Python 3.12+ with torch < "
    "2.4 and falls back to torch.jit.script, then to the bare function (commit 04d69cc65, 'Fix import deepspeed "
    "crash on PyTorch v2.3 + Python 3.12 (#7875)', first tag v0.18.7). torch/__init__.py compile: `if "
    "sys.version_info >= (3, 12): raise RuntimeError(\"Dynamo is not supported on Python 3.12+\")` in the torch "
    "2.1.0-2.3.1 wheels read; 2.4.0 says 3.13+",
    predict="error", needs=(("torch", "<2.4"), ("python", ">=3.12")),
    shows="`import deepspeed` fails with RuntimeError: Dynamo is not supported on Python 3.12+",
    frame="jit_script_compat")


TF_EVAL_DEEPSPEED_INIT = Regression(
    "eval-deepspeed-init-inference", "transformers",
    "ZeRO inference only makes sense with ZeRO Stage 3",
    "4.30.0", "4.30.2", "4.31.0",
    "Trainer's evaluation_loop / prediction_loop decide that evaluation runs without training by `self.model_wrapped "
    "is self.model` and then call deepspeed_init(inference=True), whose ZeRO-3-only ValueError an evaluation "
    "during a ZeRO-1/2 run meets (the upstream report's case; 4.31.0 tests `self.deepspeed is None` instead)",
    "transformers/trainer.py evaluation_loop and prediction_loop: `if self.is_deepspeed_enabled and "
    "self.model_wrapped is self.model: _, _ = deepspeed_init(self, num_training_steps=0, inference=True)` in the "
    "4.30.0, 4.30.1 and 4.30.2 wheels; 4.29.2 tests `args.deepspeed and not self.deepspeed`, 4.31.0 "
    "`self.deepspeed is None`; deepspeed.py deepspeed_init raises the message for a non-ZeRO-3 config in all of them. "
    "Own text and frame: every trainer.py wheel read (4.26.0-5.25.0) calls deepspeed_init(inference=True) from "
    "evaluation_loop / prediction_loop only when `args.deepspeed and not self.deepspeed` (-4.29.2) or `self.deepspeed "
    "is None` (4.31.0-), never during training, except 4.30.x's `self.model_wrapped is self.model`",
    frame="_maybe_log_save_evaluate", own=True)
ACC_BNB_OPTIM_BITS = Regression(
    "bnb-optim-bits", "accelerate",
    "object has no attribute 'optim_bits'",
    "1.2.0", "1.2.1", "1.3.0",
    "map_pytorch_optim_to_deepspeed (a client optimizer handed to DeepSpeed) reads `optimizer.optim_bits` of a "
    "bitsandbytes AdamW / Adagrad / Lion unguarded, and bitsandbytes 0.32.0-0.50.1 (every release read) keep it in "
    "`optimizer.args` only: these Accelerate releases fail with any of them, and pinning bitsandbytes does not help",
    "accelerate/utils/deepspeed.py map_pytorch_optim_to_deepspeed: `isinstance(optimizer, (bnb_opt.AdamW, "
    "bnb_opt.AdamW32bit)) and optimizer.optim_bits == 32` (and the Adagrad / Lion forms) in the 1.2.0 and 1.2.1 "
    "wheels (1.1.1 reads no optim_bits); 1.3.0 wraps each in `try: ... except AttributeError:` falling back to "
    "`optimizer.args.optim_bits`. bitsandbytes/optim/optimizer.py at every release tag 0.32.0-0.50.1 of "
    "bitsandbytes-foundation/bitsandbytes (git show): Optimizer1State / Optimizer2State put optim_bits in "
    "`args[\"optim_bits\"]` (MockArgs: `self.args.optim_bits`), no release sets `optimizer.optim_bits`")

VLLM_COLLECTIVE_RPC_V1 = Regression(
    "collective-rpc-v1-model-executor", "vllm",
    "'LLMEngine' object has no attribute 'model_executor'",
    "0.8.0", "0.8.2", "0.8.3",
    "vLLM's LLM.collective_rpc (what RLHF trainers call to set up weight sync) reads `self.llm_engine.model_executor`, "
    "which the V1 engine's LLMEngine sets only without engine-core multiprocessing; V1 is the default from 0.8.0 and "
    "multiprocessing (VLLM_ENABLE_V1_MULTIPROCESSING=1) too, so the call fails (0.7.x meet it only with "
    "VLLM_USE_V1=1)",
    "vllm/entrypoints/llm.py LLM.collective_rpc: `executor = self.llm_engine.model_executor` in the 0.7.0-0.8.2 sdists "
    "(collective_rpc first in 0.7.0; 0.6.6.post1 has none); vllm/envs.py `VLLM_USE_V1: bool = True` from 0.8.0 "
    "(False in 0.7.x), `VLLM_ENABLE_V1_MULTIPROCESSING` default \"1\"; vllm/v1/engine/llm_engine.py sets "
    "`self.model_executor` only `if not multiprocess_mode` in 0.8.0-0.8.2 (0.7.x never); 0.8.3's collective_rpc "
    "returns `self.llm_engine.collective_rpc(...)`, which V1's LLMEngine defines (sdists 0.6.6.post1, 0.7.0-0.7.3, "
    "0.8.0-0.8.5, 0.9.0 read). Own text and frame: in 0.8.3+ collective_rpc no longer reads model_executor (apply_model "
    "still does: not this row's frame)",
    predict="info", frame="collective_rpc", own=True,
    shows="`LLM.collective_rpc` (RLHF weight sync: OpenRLHF, TRL, verl) fails with AttributeError: 'LLMEngine' "
    "object has no attribute 'model_executor' under the default V1 engine")

VLLM_APPLY_MODEL_V1 = Regression(
    "apply-model-v1-model-executor", "vllm",
    "'LLMEngine' object has no attribute 'model_executor'",
    "0.8.0", "0.10.2", "0.11.0",
    "vLLM's LLM.apply_model (run a function on the model in each worker: weight loading or inspection by RLHF "
    "trainers) reads `self.llm_engine.model_executor`, which the V1 engine's LLMEngine (the default from 0.8.0) sets "
    "only without engine-core multiprocessing (VLLM_ENABLE_V1_MULTIPROCESSING=0), so the call fails by default; the "
    "sibling of collective_rpc's, fixed later",
    "vllm/entrypoints/llm.py LLM.apply_model: `executor = self.llm_engine.model_executor` in the 0.7.0-0.10.2 sdists "
    "read (0.7.0-0.7.3, 0.8.0-0.8.5, 0.9.0-0.9.2, 0.10.0-0.10.2; V1, the default from 0.8.0, sets `model_executor` only "
    "`if not multiprocess_mode`); 0.11.0 returns `self.llm_engine.apply_model(func)`, which V1's LLMEngine defines. Own "
    "text and frame: 0.11.0's apply_model no longer reads it",
    predict="", frame="apply_model", own=True)

ACC_STATE_BEFORE_ACCELERATOR = Regression(
    "deepspeed-partial-state-first", "accelerate",
    "Please make sure to properly initialize your accelerator via `accelerator = Accelerator()`",
    "1.0.0", "1.8.1", "1.9.0",
    "Accelerator() itself raises it under DeepSpeed when a PartialState already exists (TrainingArguments, or a "
    "PartialState() the script made, with a DeepSpeed launch): Accelerator.__init__ tests PartialState's shared "
    "state, then reads AcceleratorState().deepspeed_plugins, and AcceleratorState refuses to be created outside "
    "Accelerator",
    "accelerate/accelerator.py Accelerator.__init__: `if PartialState._shared_state != {} and "
    "PartialState().distributed_type == DistributedType.DEEPSPEED: deepspeed_plugins = "
    "AcceleratorState().deepspeed_plugins` in the 1.0.0, 1.2.1, 1.3.0, 1.4.0, 1.5.0, 1.6.0, 1.7.0, 1.8.0 and 1.8.1 wheels (0.34.0 and 0.34.2 have no "
    "deepspeed_plugins: upstream commit e9e5a73f, 'POC: multiple model/configuration DeepSpeed support (#3097)'); "
    "state.py AcceleratorState.__init__ raises the message when not initialized and not `_from_accelerator` (every "
    "release read); 1.9.0 tests `AcceleratorState._shared_state != {} and AcceleratorState().distributed_type` "
    "(commit 12f89bb7, 'do not call partial state if not initialized', first tag v1.9.0). Own frame: from 1.9.0 that "
    "line runs only after AcceleratorState() succeeded on the line before, so only 1.0.0-1.8.1 raise from it",
    code="deepspeed_plugins = AcceleratorState().deepspeed_plugins", own=True)

# Releases tagged upstream, inside the range the package's index lists, that the index no longer has (pulled after
# publication): DeepSpeed's git tags (v0.1.0-v0.19.5, deepspeedai/DeepSpeed) against the versions `pip download
# deepspeed==0.6.2` lists (2026-12-03: 0.3.1-0.19.8): only v0.6.2 (commit 398f06035 'bump to 0.6.2', between v0.6.1
# and v0.6.3); v0.1.0-v0.3.0 predate the first release on PyPI. (The API history's list of releases read is not the
# index's: 0.3.11 is on PyPI but was not read.)
WITHDRAWN: Dict[str, Tuple[str, ...]] = {"deepspeed": ("0.6.2",)}

DEEPSPEED: Tuple[Regression, ...] = (DS_TRITON_CIRCULAR_IMPORT, DS_TORCH_IS_COMPILING, DS_COMM_DOUBLE_INIT,
                                     DS_ZERO3_INFLIGHT_REGISTRY, DS_ZERO3_GRAD_FN_NO_GRAD, DS_LIBAIO_DPKG,
                                     DS_ZERO3_HOOKS_DELEGATING, DS_ZERO0_BF16_LOAD, DS_ZEROPP_QUANT_BF16,
                                     DS_JIT_COMPAT_PY312)
ALL: Tuple[Regression, ...] = (*DEEPSPEED, TF_TMP_CHECKPOINT, TF_EVAL_DEEPSPEED_INIT, ACC_BNB_OPTIM_BITS,
                               ACC_STATE_BEFORE_ACCELERATOR, VLLM_COLLECTIVE_RPC_V1, VLLM_APPLY_MODEL_V1)


def deepspeed_bug(text: str, ver: Optional[Version] = None, *, any_version: bool = False) -> Optional[Regression]:
    """The DeepSpeed bug a line shows: one whose text it contains, in the log's DeepSpeed release (any release
    with ``any_version``, for a text only that bug prints)."""
    for reg in DEEPSPEED:
        if reg.text and reg.text in text and (any_version or reg.affects(ver)):
            return reg
    return None


def shown(text: str, versions: Dict[str, Optional[Version]], funcs: Sequence[str] = (),
          codes: Sequence[str] = ()) -> Optional[Regression]:
    """The bug a failure line shows in the log's releases: a row whose text the line contains, whose package's
    release the log shows (``versions``: package -> the release the log shows, None when it shows none) in the
    affected range, whose ``frame`` (if any) is one of the traceback's functions ``funcs`` and whose ``code`` (if
    any) is in one of its frames' source lines ``codes``. For a text other failures print too: the release is what
    names the bug; for a row's ``own`` text, a log that shows no release names it too (conditionally)."""
    for reg in ALL:
        ver = versions.get(reg.package)
        if (reg.text and reg.text in text and (reg.affects(ver) or (reg.own and ver is None))
                and (not reg.frame or reg.frame in funcs) and (not reg.code or any(reg.code in c for c in codes))):
            return reg
    return None



def caller_bug(text: str, caller: str, func: str = "", ver: Optional[Version] = None) -> Optional[Regression]:
    """The bug of the package whose code raised ``text`` (``caller``: the raising frame's package; ``func``: its
    function, which a row with a ``frame`` must be) that only its affected releases can raise: the traceback itself
    shows the release range (no version needed); a release of ``caller`` the log shows outside it (``ver``) vetoes
    it."""
    for reg in ALL:
        if (caller and reg.package == caller and reg.package != "deepspeed" and reg.text and reg.text in text
                and (not reg.frame or reg.frame == func) and not reg.vetoed(ver)):
            return reg
    return None


def candidate(text: str, versions: Dict[str, Optional[Version]]) -> Optional[Regression]:
    """A row whose text a line contains though nothing else in the log named it (no frame, no release shown): a
    possibility the answer can state conditionally. None when the log shows a release of its package outside the
    range (vetoed) or no row's text is in the line."""
    return next((r for r in ALL if r.text and r.text in text and not r.vetoed(versions.get(r.package))), None)
