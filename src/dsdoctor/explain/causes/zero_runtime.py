"""Causes in a running ZeRO engine: a ZeRO checkpoint resumed at another data-parallel world size, a checkpoint
without optimizer state loaded with load_optimizer_states=False, a weights file path given as zero_to_fp32.py's output
directory, a CPU-offload optimizer given GPU parameters, DeepSpeed
0.14.1-0.14.4's CPU-offload unscale bug and non-reentrant gradient checkpointing over partitioned frozen parameters.
The messages live in ``knowledge/deepspeed.py`` and ``knowledge/cuda.py``."""

from __future__ import annotations

import re
from typing import Tuple

from ... import fixes as F
from ... import names as N
from ...knowledge import cuda as CK
from ...knowledge import deepspeed as K
from ...knowledge import transformers as TK
from ...model import Severity
from .cause import Advice, Cause, Docs, LogFacts, Seen, cause, code_fix, form, frame, log, msg, rx


def _world_size_changed(s: Seen, f: LogFacts) -> Advice:
    g = s.groups
    return Advice(f"A ZeRO checkpoint saved with {g.get('saved', '?')} data-parallel ranks was resumed with "
                  f"{g.get('now', '?').rstrip('.')}: DeepSpeed cannot re-partition its optimizer states", "",
                  [code_fix("Resume with the data-parallel size the checkpoint was saved with", "deepspeed --num_gpus <as when saved> ..."),
                   code_fix("Or convert it to a universal checkpoint and load that (DeepSpeed >= 0.14)",
                            "python -m deepspeed.checkpoint.ds_to_universal --input_folder ckpt/global_stepN "
                            "--output_folder ckpt/global_stepN_universal",
                            reason='then ds_config "checkpoint": {"load_universal": true}'),
                   code_fix("Or keep only the weights and start a new optimizer",
                            "python ckpt/zero_to_fp32.py ckpt pytorch_model.bin   # or engine.load_checkpoint(d, "
                            "load_optimizer_states=False, load_module_only=True)")])


def _no_optimizer_state(s: Seen, f: LogFacts) -> Advice:
    return Advice("engine.load_checkpoint read the optimizer state from a checkpoint that has none", "",
                  [code_fix("Load only the module's weights from a checkpoint saved without optimizer state",
                            "engine.load_checkpoint(load_dir, tag, load_optimizer_states=False, load_module_only=True)",
                            reason="or load the weights with from_pretrained / load_state_dict and start a new optimizer"),
                   code_fix("To resume training, load a checkpoint the engine saved (engine.save_checkpoint: "
                            "mp_rank_*_model_states.pt with its optimizer states)",
                            "engine.save_checkpoint(save_dir)   # then engine.load_checkpoint(save_dir)")])


def _fp32_output_dir(s: Seen, f: LogFacts) -> Advice:
    since, created = K.FP32_OUTPUT_DIR_SINCE, K.FP32_OUTPUT_DIR_CREATED
    return Advice(f"A weights file path was given where a directory is expected: zero_to_fp32.py (DeepSpeed {since}+) "
                  "writes its shards into an output directory", "",
                  [code_fix("Pass an output directory (create it first on DeepSpeed 0.15.3-0.15.4)",
                            "mkdir -p out && python zero_to_fp32.py <checkpoint_dir> out/   # out/pytorch_model.bin or shards",
                            reason=f"DeepSpeed {created}+ creates it; a file name there becomes a directory of that name"),
                   F.pip_fix(f"deepspeed<{since}", "Or, for scripts that expect one output file, use the script of an "
                             "earlier DeepSpeed")])


def _cpu_adam_on_gpu(s: Seen, f: LogFacts) -> Advice:
    return Advice("DeepSpeedCPUAdam (the optimizer-offload optimizer) was given parameters that are on the GPU", "",
                  [code_fix("A model prepared only for inference (a TRL reference / reward model) needs a config without "
                            "the optimizer and its offload",
                            'ref_cfg = copy.deepcopy(ds_config); ref_cfg.pop("optimizer", None); '
                            'ref_cfg["zero_optimization"].pop("offload_optimizer", None)',
                            reason="TRL's prepare_deepspeed copies the trainer's config and, below ZeRO-3, sets stage 0: "
                                   "DeepSpeed still builds a CPUAdam from it, for parameters it never offloads"),
                   code_fix("For the trained model: the engine must be built at ZeRO stage 1-3 (offload does nothing at 0)",
                            'ds_config: "zero_optimization": {"stage": 2}   # the stage the engine is built with, not 0'),
                   code_fix("Or train on the GPU: drop offload_optimizer (DeepSpeed then uses its GPU Adam)",
                            'ds_config: "zero_optimization": {"offload_optimizer": {"device": "none"}}')])


def _unscale_bug(s: Seen, f: LogFacts) -> Advice:
    first, last = K.UNSCALE_DEVICE_BUG
    return Advice(f"DeepSpeed {first}-{last} bug: ZeRO-3 with CPU offload multiplies the CPU gradients by a GPU tensor in "
                  "unscale_and_clip_grads", "",
                  [F.pip_fix(f"deepspeed>{last}", f"Upgrade DeepSpeed (fixed after {last})"),
                   F.pip_fix(f"deepspeed=={_before(first)}", "Or pin the last release before the regression")])


def _before(version: str) -> str:
    major, minor, patch = (int(p) for p in version.split("."))
    return f"{major}.{minor}.{patch - 1}"


def _checkpoint_meta(s: Seen, f: LogFacts) -> Advice:
    return Advice("Non-reentrant gradient checkpointing recomputed ZeRO-3 partitioned (size-0) frozen parameters",
                  "Under ZeRO-3, frozen parameters (e.g. the norms of a LoRA model) are gathered for the forward but "
                  "back in their size-0 partition when torch's non-reentrant checkpoint recomputes, so the saved and "
                  "recomputed metadata differ (`recomputed metadata: {'shape': torch.Size([0])`).",
                  [code_fix(F.PEFT_REENTRANT_FIX.title, 'TrainingArguments(..., gradient_checkpointing_kwargs={"use_reentrant": True})',
                            f"pip install 'deepspeed>={K.PEFT_NONREENTRANT_SINCE}'")])


def _moe_not_leaf(s: Seen, f: LogFacts) -> Advice:
    api, conf = K.Z3_LEAF_API_SINCE, K.Z3_LEAF_CONFIG_SINCE
    return Advice("A collective hangs in a ZeRO-3 run of a sparse-MoE model whose MoE block is not a ZeRO-3 leaf module",
                  "", [code_fix("Register the MoE block as a ZeRO-3 leaf before deepspeed.initialize / trainer.train()",
                                "from deepspeed.utils import set_z3_leaf_modules",
                                "set_z3_leaf_modules(model, [type(model.model.layers[1].mlp)])   # the sparse-MoE block's "
                                "class (e.g. DeepseekV2MoE): the first layers of some models are dense",
                                reason=f"DeepSpeed {api}+: ZeRO-3 then gathers the whole block (every expert) on every rank"),
                       code_fix(f"With accelerate {TK.ACCELERATE_MOE_LEAF_SINCE}+, name the block class at launch",
                                "accelerate launch --deepspeed_moe_layer_cls_names DeepseekV2MoE ... train.py"),
                       code_fix(f"With DeepSpeed {conf}+, list it in the ds_config (keep the default classes)",
                                'ds_config: "zero_optimization": {"leaf_module": {"classes": ["DeepseekV2MoE", '
                                + ", ".join(f'"{c}"' for c in K.Z3_LEAF_DEFAULT_CLASSES) + "]}}",
                                reason="a classes list replaces the defaults")],
                  f"DeepSpeed {conf}+ makes {', '.join(K.Z3_LEAF_DEFAULT_CLASSES)} leaves by default; other MoE "
                  "blocks, and every block on an older DeepSpeed, are not.")


def _sp_mpu_zero0(s: Seen, f: LogFacts) -> Advice:
    return Advice("DeepSpeed asked Ulysses sequence parallelism's mpu for a tensor-model-parallel rank it does not have: "
                  "ZeRO stage 0 does not handle that mpu", "",
                  [code_fix("Run Ulysses sequence parallelism with ZeRO stage 1, 2 or 3 (they skip the call for its mpu)",
                            'ds_config: "zero_optimization": {"stage": 1}'),
                   code_fix("Or, to stay on stage 0, give deepspeed.initialize no sequence-parallel mpu (no Ulysses)",
                            "deepspeed.initialize(model=model, config=ds_config, ...)   # without mpu=parallel_state_sp",
                            applicability="unsafe")],
                  f"The frame is utils/bwc.py's deprecated branch (`{K.SRC_BWC_DEPRECATED_RANK}`), reached only by an "
                  "mpu without get_tensor_model_parallel_rank and get_slice_parallel_rank.")


SPECS: Tuple[Cause, ...] = (
    cause(
    N.ZERO_CHECKPOINT_WORLD_SIZE_CHANGED,
    Severity.ERROR,
    "A ZeRO checkpoint resumed at another data-parallel world size",
    _world_size_changed,
    Docs(
        what="Resuming a DeepSpeed ZeRO checkpoint failed: `The checkpoint being loaded used a DP world size of N but "
              "the current world size is M. Automatic adjustment of ZeRO's optimizer state partitioning with a new "
              "world size is not currently supported.`",
        why="A ZeRO checkpoint stores the optimizer states partitioned over the data-parallel ranks that saved it; "
              "`load_checkpoint` cannot re-partition them for another number of ranks.",
        fix="Resume with the same data-parallel size; or convert the checkpoint to a universal checkpoint "
              "(`python -m deepspeed.checkpoint.ds_to_universal --input_folder ... --output_folder ...`, then "
              "`\"checkpoint\": {\"load_universal\": true}`); or keep only the weights (`zero_to_fp32.py`, or "
              "`load_checkpoint(..., load_optimizer_states=False, load_module_only=True)`) and start a new optimizer.",
        examples=(log(N.ZERO_CHECKPOINT_WORLD_SIZE_CHANGED, "A checkpoint saved on 16 GPUs resumed on 4:",
                   "deepspeed.runtime.zero.utils.ZeRORuntimeException: The checkpoint being loaded used a DP world size "
                   "of 16 but the current world size is 4. Automatic adjustment of ZeRO's optimizer state partitioning "
                   "with a new world size is not currently supported.\n"),),
        reads="log"),
    signatures=(
              msg(K.MSG_DP_WORLD_SIZE, "deepspeed/runtime/engine.py _load_zero_checkpoint, ZeRORuntimeException "
                  "(0.8.3-0.19.8)",
                  "deepspeed.runtime.zero.utils.ZeRORuntimeException: The checkpoint being loaded used a DP world size "
                  "of 16 but the current world size is 4. Automatic adjustment of ZeRO's optimizer state partitioning "
                  "with a new world size is not currently supported."),)),
    cause(
    N.CHECKPOINT_MISSING_OPTIMIZER_STATE,
    Severity.ERROR,
    "A checkpoint without optimizer state loaded with load_optimizer_states=False",
    _no_optimizer_state,
    Docs(
        what="`engine.load_checkpoint(..., load_optimizer_states=False)` failed with `KeyError: 'optimizer'` in "
              "deepspeed/runtime/engine.py `_load_checkpoint` (`client_state['optimizer'] = "
              "optim_checkpoint['optimizer']`).",
        why="With load_optimizer_states=False and load_module_only=False DeepSpeed still copies the checkpoint's "
              "`optimizer` entry into the client state; a checkpoint holding only model weights (downloaded, "
              "converted, or saved without an optimizer) has no such key.",
        fix="Pass `load_module_only=True` to `load_checkpoint` (or load the weights with from_pretrained / "
              "load_state_dict and start a new optimizer); resume only from checkpoints `engine.save_checkpoint` wrote.",
        examples=(log(N.CHECKPOINT_MISSING_OPTIMIZER_STATE, "Fine-tuning from a released model-only checkpoint:",
                   "  File \"/usr/lib/python3.10/site-packages/deepspeed/runtime/engine.py\", line 2905, in "
                   "_load_checkpoint\n"
                   "    client_state['optimizer'] = optim_checkpoint['optimizer']\n"
                   "KeyError: 'optimizer'\n"),),
        reads="log"),
    signatures=(
              rx(re.escape(K.SRC_CLIENT_OPTIMIZER), K.SRC_CLIENT_OPTIMIZER, "deepspeed/runtime/engine.py _load_checkpoint's "
                 "source line (0.5-0.19.8), run when load_optimizer_states=False and load_module_only=False: a dict "
                 "read that raises nothing but KeyError, so a traceback cut below it shows the failure",
                 "    client_state['optimizer'] = optim_checkpoint['optimizer']"),
              frame("deepspeed/runtime/engine.py", "_load_checkpoint", "deepspeed/runtime/engine.py _load_checkpoint "
                    "(0.5-0.19.8) raising KeyError: 'optimizer'",
                    "Traceback (most recent call last):\n"
                    "  File \"/venv/lib/python3.8/site-packages/deepspeed/runtime/engine.py\", line 2671, in "
                    "_load_checkpoint\n"
                    "    optim = checkpoint_state['optimizer']\n"
                    "KeyError: 'optimizer'\n",
                    exc=r"^KeyError: 'optimizer'"))),
    cause(
    N.ZERO_TO_FP32_OUTPUT_DIR,
    Severity.ERROR,
    "A weights file path given as zero_to_fp32.py's output directory",
    _fp32_output_dir,
    Docs(
        what="Saving consolidated weights failed with torch's `Parent directory <x>.bin does not exist.`: the path "
              "written to is a weights file name followed by the file written into it (`../pytorch_model.bin/"
              "pytorch_model.bin`).",
        why="zero_to_fp32.py's second argument became an output directory in DeepSpeed 0.15.3 (it writes "
              "`pytorch_model.bin` or shards into it); the old usage `zero_to_fp32.py . ../pytorch_model.bin` names a "
              "file. DeepSpeed 0.15.3-0.15.4 do not create the directory, so torch.save cannot open the file.",
        fix="Pass a directory (`mkdir -p out && python zero_to_fp32.py <checkpoint_dir> out/`), or use an earlier "
              "DeepSpeed's script where a single output file is expected.",
        examples=(log(N.ZERO_TO_FP32_OUTPUT_DIR, "The pre-0.15.3 usage on DeepSpeed 0.15.4:",
                   "RuntimeError: Parent directory /runs/export/model.safetensors does not exist.\n"),),
        reads="log"),
    signatures=(
              rx(r"Parent directory \S{0,300}\.(?:bin|pt|pth|safetensors|ckpt)/? does not exist", "Parent directory ",
                 "torch caffe2/serialize/inline_container.cc PyTorchStreamWriter (torch 1.13-2.14, C++), from torch.save, "
                 "on a directory named like a weights file",
                 "RuntimeError: Parent directory ../pytorch_model.bin does not exist."),)),
    cause(
    N.CPU_ADAM_PARAMS_ON_GPU,
    Severity.ERROR,
    "DeepSpeedCPUAdam given parameters on the GPU (optimizer offload not in effect)",
    _cpu_adam_on_gpu,
    Docs(
        what="DeepSpeedCPUAdam's step asserted `CPUAdam param is on cuda:N and must be 'cpu'`: the optimizer built "
              "for optimizer offload was handed parameters that stayed on the GPU.",
        why="With `offload_optimizer` in the config DeepSpeed builds a CPUAdam, whose step needs the fp32 parameters "
              "ZeRO 1-3 keep on the CPU. An engine built from that config at ZeRO stage 0 (TRL's prepare_deepspeed "
              "does so for a reference model below ZeRO-3), or a CPUAdam created by hand for a model on the GPU, "
              "steps GPU parameters.",
        fix="Give a model prepared for inference a config without `optimizer` / `offload_optimizer`; train with "
              "offload only at ZeRO stage 1-3; or drop the offload and use the GPU optimizer.",
        examples=(log(N.CPU_ADAM_PARAMS_ON_GPU, "A stage-0 engine built from a config with offload_optimizer cpu:",
                   "[rank0]: AssertionError: CPUAdam param is on cuda:0 and must be 'cpu', make sure you enabled "
                   "'offload_optimizer': 'cpu' in your ZeRO config.\n"),),
        reads="log"),
    signatures=(
              rx(re.escape(K.MSG_CPU_ADAM_PARAM_DEVICE.split("{")[0]) + r"\S{1,40} and must be 'cpu'", "CPUAdam param is on ",
                 "deepspeed/ops/adam/cpu_adam.py DeepSpeedCPUAdam.step's assert (0.5.10-0.19.8)",
                 "AssertionError: CPUAdam param is on cuda:0 and must be 'cpu', make sure you enabled 'offload_optimizer': "
                 "'cpu' in your ZeRO config."),)),
    cause(
    N.ZERO3_OFFLOAD_UNSCALE_DEVICE_BUG,
    Severity.ERROR,
    "DeepSpeed 0.14.1-0.14.4 ZeRO-3 CPU-offload gradient unscale bug",
    _unscale_bug,
    Docs(
        what="ZeRO-3 with CPU offload fails in the optimizer step: `Expected all tensors to be on the same device, "
              "but found at least two devices, cuda:N and cpu!` in stage3.py `unscale_and_clip_grads` "
              "(`...grad.mul_(1. / combined_scale)`).",
        why="A DeepSpeed 0.14.1-0.14.4 regression (the global gradient norm computed on the GPU, PR #5256 / #5493): "
              "the CPU-resident fp32 gradients are multiplied by a GPU tensor. Not a device-placement bug in the "
              "script.",
        fix="Upgrade DeepSpeed (`pip install 'deepspeed>0.14.4'`: 0.14.5 moves the norm to the CPU, PR #5504), or pin "
              "`deepspeed==0.14.0`.",
        examples=(log(N.ZERO3_OFFLOAD_UNSCALE_DEVICE_BUG, "ZeRO-3 + offload_optimizer cpu on DeepSpeed 0.14.2:",
                   "  File \"/venv/lib/python3.10/site-packages/deepspeed/runtime/zero/stage3.py\", line 2117, in "
                   "unscale_and_clip_grads\n"
                   "    self.fp32_partitioned_groups_flat[sub_group_id].grad.mul_(1. / combined_scale)\n"
                   "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 "
                   "and cpu!\n"),),
        reads="log"),
    signatures=(
              rx(re.escape(K.SRC_UNSCALE_GRADS), K.SRC_UNSCALE_GRADS, "deepspeed/runtime/zero/stage3.py "
                 "unscale_and_clip_grads' source line (0.14.1-0.14.4: PR #5256 / #5493, fixed by #5504 in 0.14.5), "
                 "seen in a traceback pasted without its header",
                 "    self.fp32_partitioned_groups_flat[sub_group_id].grad.mul_(1. / combined_scale)"),
              frame("deepspeed/runtime/zero/stage3.py", "*", "the same line as the raising frame's source line "
                    "(DeepSpeed 0.14.1-0.14.4; any function: ranks' lines interleave in real logs)",
                    "Traceback (most recent call last):\n"
                    "  File \"/venv/lib/python3.11/site-packages/deepspeed/runtime/zero/stage3.py\", line 2117, in "
                    "unscale_and_clip_grads\n"
                    "    self.fp32_partitioned_groups_flat[sub_group_id].grad.mul_(1. / combined_scale)\n"
                    "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 "
                    "and cpu!\n",
                    exc=r"^(?:RuntimeError: Expected all tensors to be on the same device|$)",
                    code=re.escape(K.SRC_UNSCALE_GRADS)),
              # the function's frame anywhere in a traceback whose exception line is that error or cut off (ranks'
              # tracebacks interleaved): its one tensor operation is that multiply
              frame("deepspeed/runtime/zero/stage3.py", "unscale_and_clip_grads", "stage3.py unscale_and_clip_grads "
                    "(0.14.1-0.14.4), its source line not shown",
                    "Traceback (most recent call last):\n"
                    "  File \"/venv/lib/python3.10/site-packages/deepspeed/runtime/zero/stage3.py\", line 2117, in "
                    "unscale_and_clip_grads\n",
                    exc=r"^(?:RuntimeError: Expected all tensors to be on the same device|$)", anywhere=True))),
    form(N.PEFT_CHECKPOINTING_REENTRANT, _checkpoint_meta, signatures=(
              msg(CK.MSG_RECOMPUTED_SIZE0, "torch/utils/checkpoint.py CheckpointError's per-tensor lines (torch 2.1-2.14) "
                  "with a ZeRO-3 size-0 partition",
                  "recomputed metadata: {'shape': torch.Size([0]), 'dtype': torch.bfloat16, 'device': "
                  "device(type='cuda', index=3)}"),
              msg(CK.MSG_CHECKPOINT_META, "torch/utils/checkpoint.py _checkpoint_hook (torch 2.1-2.14)",
                  "torch.utils.checkpoint.CheckpointError: torch.utils.checkpoint: Recomputed values for the following "
                  "tensors have different metadata than during the forward pass.")), log_examples=(
              log(N.PEFT_CHECKPOINTING_REENTRANT, "A LoRA model with gradient_checkpointing (use_reentrant=False) under "
                                                  "ZeRO-3, DeepSpeed 0.19.2:",
                  "[rank0]: torch.utils.checkpoint.CheckpointError: torch.utils.checkpoint: Recomputed values for the "
                  "following tensors have different metadata than during the forward pass.\n"),)),
    cause(
    N.ZERO3_MOE_NOT_LEAF_MODULE,
    Severity.ERROR,
    "A ZeRO-3 run of a sparse-MoE model hangs in a collective: the MoE block is not a ZeRO-3 leaf module",
    _moe_not_leaf,
    Docs(
        what="A collective hangs (an NCCL watchdog timeout, a stack dump inside a collective) in a ZeRO-3 run of a "
              "sparse-MoE model (Mixtral, Qwen-MoE, DeepSeek-V2/V3, OLMoE, ...) whose MoE block is not registered as "
              "a ZeRO-3 leaf module. explain names it when the log shows ZeRO-3, the MoE model and that hang, does "
              "not show the run registering a leaf (nor a framework that does, such as LLaMA-Factory), and "
              "shows a family DeepSpeed does not make a leaf by default or a "
              "DeepSpeed older than 0.18.0.",
        why="ZeRO-3 all-gathers each submodule's parameters in hooks as the forward reaches it. In an MoE block each "
              "rank runs only the experts its tokens are routed to, so the ranks gather different experts, in a "
              "different order or number: their collectives no longer match and every rank waits. A leaf module is "
              "gathered whole (all experts) on every rank, so the ranks agree.",
        fix="Register the MoE block class as a leaf before the engine is built: `deepspeed.utils."
              "set_z3_leaf_modules(model, [MoEBlockClass])` (DeepSpeed 0.13.0+); with accelerate 0.30.0+ "
              "`--deepspeed_moe_layer_cls_names <Class>`; with DeepSpeed 0.18.0+ the ds_config's "
              "`zero_optimization.leaf_module.classes` (its defaults already cover Mixtral, Qwen2-MoE and Qwen3-MoE).",
        examples=(log(N.ZERO3_MOE_NOT_LEAF_MODULE, "DeepSeek-V2-Lite under ZeRO-3 (DeepSpeed 0.15.4), stuck mid-epoch:",
                   "[INFO|modeling_utils.py:3934] 2025-02-03 10:11:12,004 >> loading weights file "
                   "/data/models/DeepSeek-V2-Lite-Chat/model.safetensors.index.json\n"
                   '        "stage": 3,\n'
                   "[rank1]:[E203 10:44:52.118234501 ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught collective "
                   "operation timeout: WorkNCCL(SeqNum=21131, OpType=_ALLGATHER_BASE, NumelIn=5636096, "
                   "NumelOut=11272192, Timeout(ms)=1800000) ran for 1800047 milliseconds before timing out.\n"),),
        reads="log")),
    cause(
    N.SEQUENCE_PARALLEL_MPU_ZERO0,
    Severity.ERROR,
    "Ulysses sequence parallelism under ZeRO stage 0: DeepSpeed asks its mpu for a model-parallel rank it lacks",
    _sp_mpu_zero0,
    Docs(
        what="A ZeRO stage 0 run with Ulysses sequence parallelism (DeepSpeed 0.17.0+, `parallel_state_sp` given as "
              "the mpu, as the HF / ALST integration does) fails at its first optimizer step in DeepSpeed's "
              "`bwc_tensor_model_parallel_rank`: `module '...parallel_state_sp' has no attribute "
              "'get_model_parallel_rank'`. explain names it from that message, or from that function's frame at "
              "its deprecated branch (line 42 in every release with `utils/bwc.py`) when the log is cut there.",
        why="DeepSpeed reads the tensor-model-parallel rank from the mpu it was given through "
              "`get_tensor_model_parallel_rank`, else `get_slice_parallel_rank`, else the deprecated "
              "`get_model_parallel_rank`. The sequence-parallel mpu has none of them. ZeRO stages 1-3 treat a "
              "sequence-parallel mpu as no model parallelism and never ask; stage 0's BF16 / FP16 optimizers and the "
              "gradient-norm helpers still ask (a DeepSpeed bug, unchanged in 0.19.8).",
        fix="Use ZeRO stage 1, 2 or 3 with Ulysses sequence parallelism, or run stage 0 without it.",
        examples=(log(N.SEQUENCE_PARALLEL_MPU_ZERO0, "A bf16 ZeRO-0 run with Ulysses sequence parallelism, its first step:",
                   "[rank1]:   File \"/srv/venv/lib/python3.12/site-packages/deepspeed/utils/bwc.py\", line 42, in "
                   "bwc_tensor_model_parallel_rank\n"
                   "[rank1]:     return mpu.get_model_parallel_rank()\n"
                   "[rank1]: AttributeError: module 'deepspeed.runtime.sequence_parallel.parallel_state_sp' has no "
                   "attribute 'get_model_parallel_rank'\n"),),
        reads="log"),
    signatures=(
              rx(re.escape(f"module '{K.SP_MPU}' has no attribute 'get_model_parallel_rank'"), K.SP_MPU, "CPython's "
                 "module __getattr__ error for deepspeed/utils/bwc.py bwc_tensor_model_parallel_rank's deprecated call "
                 "(0.17.0-0.19.8, the module parallel_state_sp since 0.17.0)",
                 "AttributeError: module 'deepspeed.runtime.sequence_parallel.parallel_state_sp' has no attribute "
                 "'get_model_parallel_rank'"),
              # the deprecated branch's frame, the exception line that error or cut off (its call may be cut too)
              frame("deepspeed/utils/bwc.py", "bwc_tensor_model_parallel_rank", "deepspeed/utils/bwc.py "
                    "bwc_tensor_model_parallel_rank, line 42: the deprecated branch (0.14.1-0.19.8)",
                    "[rank0]: Traceback (most recent call last):\n"
                   "[rank0]:   File \"/opt/venv/lib/python3.11/site-packages/deepspeed/runtime/bf16_optimizer.py\", line 561, in "
                   "get_grads_for_norm\n"
                   "[rank0]:     tensor_mp_rank = bwc_tensor_model_parallel_rank(mpu=self.mpu)\n"
                   "[rank0]:   File \"/opt/venv/lib/python3.11/site-packages/deepspeed/utils/bwc.py\", line 42, in "
                   "bwc_tensor_model_parallel_rank\n"
                   "[rank0]:     return mpu.get_model_parallel_rank()\n",
                    exc=r"^(?:AttributeError: .{0,200}get_model_parallel_rank|$)",
                    code=r"^(?:return mpu\.get(?:_m[\w()]{0,30}|_)?)?$", lines=(K.BWC_DEPRECATED_RANK_LINE,)))),
)
