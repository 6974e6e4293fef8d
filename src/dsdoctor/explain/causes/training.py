"""Causes in the training loop itself: fp16 loss scaling, backward outside the engine, gradient checkpointing,
gradients reduced twice, ZeRO stages a mode does not support (inference, pipeline parallelism), two optimizers, the
LR scheduler's param groups and resuming from a folder without DeepSpeed's engine state. The messages live in
``knowledge/deepspeed.py`` (``ds_messages``) and ``knowledge/transformers.py``."""

from __future__ import annotations

import re
from typing import Tuple

from ... import names as N
from ...knowledge import deepspeed as K
from ...knowledge import transformers as TK
from ...model import Severity
from .cause import Advice, Cause, Docs, LogFacts, Seen, cause, code_fix, frame, log, msg, rx

LOSS_SCALER = "deepspeed/runtime/fp16/loss_scaler.py DynamicLossScaler.update_scale"
STAGE12 = "deepspeed/runtime/zero/stage_1_and_2.py"
HF_DS = "transformers/integrations/deepspeed.py"


def _loss_scale(s: Seen, f: LogFacts) -> Advice:
    scale = s.groups.get("scale")
    return Advice(f"fp16 gradients overflowed on every step: the loss scale walked down to {scale} (DeepSpeed aborts at "
                  "min_loss_scale)" if scale else "fp16 gradients overflowed on every step until the loss scale reached "
                  "its minimum", "",
                  [code_fix("Train in bf16 where the GPU supports it (Ampere or newer); models pretrained in bf16 "
                            "overflow in fp16", 'ds_config: "bf16": {"enabled": "auto"}, "fp16": {"enabled": false}',
                            "--bf16 true --fp16 false   # Trainer"),
                   code_fix("fp16 only (V100, T4): lower the learning rate, clip gradients, and check the data for "
                            "inf/nan or degenerate samples", "--learning_rate 1e-5 --max_grad_norm 1.0",
                            reason="lowering min_loss_scale or initial_scale_power only delays the abort"),
                   code_fix("Tune the dynamic loss scaler (more tolerance before each halving)",
                            'ds_config: "fp16": {"enabled": true, "initial_scale_power": 16, "loss_scale_window": 1000, '
                            '"hysteresis": 2, "min_loss_scale": 1}')])


def _backward(s: Seen, f: LogFacts) -> Advice:
    return Advice("backward() was called on the loss directly, bypassing the DeepSpeed engine", "",
                  [code_fix("Call the engine's backward and step", "model_engine.backward(loss)", "model_engine.step()",
                            reason="ZeRO-1/2 set up their gradient buckets (ipg_buffer / ipg_index) in engine.backward; "
                                   "with accelerate: accelerator.backward(loss)")])


def _frozen_inputs(s: Seen, f: LogFacts) -> Advice:
    return Advice("Gradient checkpointing (reentrant) over a model whose inputs do not require grad: the checkpointed "
                  "blocks produce no gradients", "",
                  [code_fix("Make the input embeddings' output require grad (PEFT / frozen embeddings)",
                            "model.enable_input_require_grads()   # before get_peft_model / the Trainer",
                            reason="Transformers does this in gradient_checkpointing_enable() for a PEFT model "
                                   "from 4.35"),
                   code_fix("Or use non-reentrant checkpointing",
                            "model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={'use_reentrant': False})")])


def _reduced_twice(s: Seen, f: LogFacts) -> Advice:
    p = s.groups.get("param_id", "")
    return Advice(f"ZeRO-1/2 got a second gradient for parameter {p or '(n)'} in one backward", "",
                  [code_fix("One forward per backward: run the inputs through the model in one concatenated forward "
                            "(as TRL's concatenated_forward does) instead of several forwards summed into one loss",
                            "logits = model(torch.cat([chosen_ids, rejected_ids])).logits",
                            reason="each forward registers the parameter's gradient hook again; ZeRO-1/2 reduce a "
                                   "parameter's gradient once per step"),
                   code_fix("With gradient checkpointing use the non-reentrant form (reentrant checkpointing runs a "
                            "backward per checkpointed block)",
                            "model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={'use_reentrant': False})",
                            reason="models still on the old _set_gradient_checkpointing ignore the kwargs: Transformers "
                                   "warns about it")])


def _inference_stage(s: Seen, f: LogFacts) -> Advice:
    return Advice("The Trainer started DeepSpeed for inference only (predict / evaluate before training), which needs "
                  "ZeRO-3", "",
                  [code_fix("Use a ZeRO-3 config for an inference-only run",
                            'ds_config: "zero_optimization": {"stage": 3}'),
                   code_fix("Or run prediction without --deepspeed (plain DDP), or after trainer.train() in the same run",
                            "python predict.py ...   # no --deepspeed")])


def _pipeline(s: Seen, f: LogFacts) -> Advice:
    return Advice("A pipeline-parallel model (PipelineModule) with ZeRO stage 2 or 3", "",
                  [code_fix("Use ZeRO stage 0 or 1 with pipeline parallelism",
                            'ds_config: "zero_optimization": {"stage": 1}', "--zero-stage 1   # Megatron-DeepSpeed"),
                   code_fix("Or do not build a PipelineModule when using ZeRO-2/3",
                            "--no-pipeline-parallel   # Megatron-DeepSpeed: GPTModel instead of GPTModelPipe")])


def _two_optimizers(s: Seen, f: LogFacts) -> Advice:
    return Advice("An optimizer was built in the code and the DeepSpeed config has an optimizer block too", "",
                  [code_fix("Keep one: drop the ds_config optimizer block (DeepSpeed then wraps the optimizer built "
                            "in the code)", 'ds_config: remove "optimizer": {...}',
                            reason="an optimizer that needs whole, unflattened parameters (GaLore's projections) does "
                                   "not work under ZeRO either way: train it without DeepSpeed"),
                   code_fix("Or keep the config's optimizer and pass a placeholder from the code",
                            "optimizer = accelerate.utils.DummyOptim(model.parameters(), lr=lr)")])


def _scheduler_groups(s: Seen, f: LogFacts) -> Advice:
    facts = f"torch {f.torch}." if f.torch else ""
    return Advice("The LR scheduler has a learning rate for more param groups than the optimizer DeepSpeed prepared",
                  "",
                  [code_fix("Upgrade Transformers to a release that creates the scheduler after deepspeed.initialize, "
                            "or stay on torch < 2.10 until then", "pip install -U transformers   # or: pip install 'torch<2.10'"),
                   code_fix("Own code: drop empty param groups before creating the optimizer and the scheduler",
                            "groups = [g for g in groups if g['params']]",
                            reason="DeepSpeed removes empty param groups (e.g. LoRA's empty no-decay group)")],
                  facts=facts)


def _ds_state(s: Seen, f: LogFacts) -> Advice:
    return Advice("The checkpoint folder has no DeepSpeed engine state (global_step*/ and latest)", "",
                  [code_fix("Save DeepSpeed's state with the checkpoints: do not set save_only_model with DeepSpeed when "
                            "resuming or loading the best model", "--save_only_model false"),
                   code_fix("Or load the saved weights yourself instead of resuming (a fresh optimizer)",
                            "model = AutoModelForCausalLM.from_pretrained('out/checkpoint-500'); trainer.train()")])


MSG_SAVE_ONLY = "DeepSpeed " + TK.MSG_SAVE_ONLY_MODEL_BEST


def _shards_missing(s: Seen, f: LogFacts) -> Advice:
    ranks = sorted({int(r) for r in re.findall(r"zero_pp_rank_(\d{1,6})_", s.text)})
    facts = f"Missing: the shard(s) of data-parallel rank(s) {', '.join(map(str, ranks[:8]))}{' ...' if len(ranks) > 8 else ''}." if ranks else ""
    return Advice("The checkpoint folder lacks some ranks' ZeRO shard files (saved on another node's local disk, or "
                  "by a run with fewer ranks)", "",
                  [code_fix("Save checkpoints to storage every node mounts, or copy every node's shard files into the "
                            "checkpoint folder on each node before resuming",
                            "rsync -a node2:/path/to/out/checkpoint-500/ /path/to/out/checkpoint-500/   # each node's global_step*/ files"),
                   code_fix("Or resume with the world size the checkpoint was saved with",
                            "ls out/checkpoint-500/global_step*/ | grep -c optim_states   # the number of ranks that saved")],
                  facts=facts)

SPECS: Tuple[Cause, ...] = (
    cause(
    N.ZERO_CHECKPOINT_SHARDS_MISSING,
    Severity.ERROR,
    "Loading a ZeRO checkpoint whose other ranks' shard files are missing here (not on shared storage)",
    _shards_missing,
    Docs(
        what="`load_checkpoint` (a Trainer resume) cannot find the ZeRO shard files of some ranks: DeepSpeed 0.3-0.7 "
              "warns `The following zero checkpoints paths are missing: [.../zero_pp_rank_8_mp_rank_00_optim_states.pt, "
              "...]` and loads no optimizer state; later releases fail in `torch.load` with `No such file or "
              "directory: .../bf16_zero_pp_rank_8_mp_rank_00_optim_states.pt`.",
        why="Every rank writes its own `*zero_pp_rank_<r>_mp_rank_<m>_optim_states.pt` (and, under ZeRO-3, "
              "`..._model_states.pt`) into the checkpoint folder. In a multi-node run whose output folder is on each "
              "node's local disk, every node only has its own ranks' files, and resuming needs all of them; a "
              "checkpoint saved with fewer ranks than the resuming run lacks the extra ranks' files too.",
        fix="Put the output folder on storage every node mounts (or copy all nodes' shard files into each node's "
              "checkpoint folder), or resume with the world size the checkpoint was saved with (use "
              "`zero_to_fp32.py` / universal checkpoints to change it).",
        examples=(log(N.ZERO_CHECKPOINT_SHARDS_MISSING, "A two-node resume, each node with its own local output dir:",
                   "[rank8]: FileNotFoundError: [Errno 2] No such file or directory: 'out/checkpoint-500/global_step500/"
                   "bf16_zero_pp_rank_8_mp_rank_00_optim_states.pt'\n"),),
        reads="log"),
    signatures=(
        msg(K.MSG_ZERO_CKPT_MISSING, "deepspeed/runtime/engine.py _get_all_zero_checkpoints (0.3.14-0.7.4): the warning "
            "before it loads no ZeRO state",
            "[WARNING] [engine.py:2823:_get_all_zero_checkpoints] The following zero checkpoints paths are missing: "
            "['out/step_5/zero_pp_rank_8_mp_rank_00_optim_states.pt', 'out/step_5/zero_pp_rank_9_mp_rank_00_optim_states.pt']"),
        rx(r"No such file or directory: '[^']{0,400}[/\\]" + K.ZERO_SHARD_FILE + "'", "_states.pt'",
           "torch.load of a rank's shard file in deepspeed/runtime/engine.py _get_all_zero_checkpoint_state_dicts / "
           "checkpoint_engine.load (0.8-0.19.8)",
           "FileNotFoundError: [Errno 2] No such file or directory: 'out/checkpoint-500/global_step500/"
           "zero_pp_rank_3_mp_rank_00_model_states.pt'"))),
    cause(
    N.FP16_LOSS_SCALE_COLLAPSE,
    Severity.ERROR,
    "fp16 loss scale collapsed: every step overflows",
    _loss_scale,
    Docs(
        what="DeepSpeed's fp16 dynamic loss scaler halved the scale on each overflowing step until it reached "
              "`min_loss_scale`: it raises `Current loss scale already at minimum - cannot decrease scale anymore`, or "
              "(releases that do not raise) logs `OVERFLOW! ... Attempted loss scale: 1, reducing to 1` and skips "
              "every step.",
        why="The fp16 gradients (or activations) are inf/nan on every step: a model pretrained in bf16 whose "
              "activations exceed fp16's range, a learning rate too high, or bad samples. Scaling the loss down "
              "cannot fix an overflow in the forward pass.",
        fix="Train in bf16 where the GPU supports it (`\"bf16\": {\"enabled\": \"auto\"}` / `--bf16`); on fp16-only "
              "GPUs lower the learning rate, clip gradients and check the data for inf/nan; tune `initial_scale_power` / "
              "`loss_scale_window` / `hysteresis` / `min_loss_scale` in the fp16 block.",
        examples=(log("fp16-loss-scale-min", "fp16 training overflowing on every step (DeepSpeed 0.16):",
                   "[rank0]: Exception: Current loss scale already at minimum - cannot decrease scale anymore. "
                   "Exiting run.\n"),
                  log("fp16-overflow-at-min", "an older release skipping every step at the minimum scale:",
                   "[2021-06-01 09:00:13,297] [INFO] [stage2.py:1628:step] [deepscale] OVERFLOW! Rank 0 Skipping step. "
                   "Attempted loss scale: 1, reducing to 1\n")),
        reads="log"),
    signatures=(
        msg(K.MSG_LOSS_SCALE_MIN, f"{LOSS_SCALER} (0.6.5-0.19.8)",
            "Exception: Current loss scale already at minimum - cannot decrease scale anymore. Exiting run."),
        # the scale already at its minimum and "reduced" to the same value: every step is skipped from here on
        rx(r"(?:OVERFLOW! Rank \d{1,6}|fp16 dynamic loss scale overflow!) Skipping step\. Attempted loss scale: "
           r"(?P<cur>[\d.]{1,16}), reducing to (?P=cur)(?![\d.])",
           "Skipping step. Attempted loss scale: ", f"{LOSS_SCALER} info line (0.3-0.19.8; stage2.py logged it with "
           "[deepscale] in 0.3-0.5): " + K.MSG_OVERFLOW_AT_MIN + "; runtime/fp16/fused_optimizer.py / "
           "unfused_optimizer.py step (0.3-0.19.8): " + K.MSG_FP16_OVERFLOW,
           "[INFO] [stage2.py:1628:step] [deepscale] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 1, reducing to 1",
           "[INFO] [fused_optimizer.py:174:step] [deepspeed] fp16 dynamic loss scale overflow! Skipping step. Attempted "
           "loss scale: 1.0, reducing to 1.0"))),
    cause(
    N.LOSS_BACKWARD_BYPASSES_ENGINE,
    Severity.ERROR,
    "loss.backward() called outside the DeepSpeed engine (ZeRO-1/2)",
    _backward,
    Docs(
        what="A custom training loop called `loss.backward()` (or `torch.autograd.backward`) on a model wrapped by "
              "`deepspeed.initialize` with ZeRO-1/2: ZeRO's gradient hook fails with `'DeepSpeedZeroOptimizer' object "
              "has no attribute 'ipg_index'`.",
        why="ZeRO-1/2 reduce gradients from hooks that use buckets the engine sets up in `engine.backward(loss)`; a "
              "plain autograd backward runs the hooks before those exist.",
        fix="Call `model_engine.backward(loss)` and `model_engine.step()` (with accelerate: `accelerator.backward(loss)`).",
        examples=(log("zero-backward-outside-engine", "a custom loop calling loss.backward() under ZeRO-2:",
                   "AttributeError: 'DeepSpeedZeroOptimizer' object has no attribute 'ipg_index'\n"),),
        reads="log"),
    signatures=(
        msg(K.MSG_NO_IPG_INDEX, f"Python's AttributeError in {STAGE12} reduce_independent_p_g_buckets_and_remove_grads "
            "(0.5-0.16.x)", "AttributeError: 'DeepSpeedZeroOptimizer' object has no attribute 'ipg_index'"),)),
    cause(
    N.CHECKPOINTING_FROZEN_INPUTS_NO_GRAD,
    Severity.ERROR,
    "Reentrant gradient checkpointing with inputs that do not require grad",
    _frozen_inputs,
    Docs(
        what="torch's reentrant activation checkpointing warned `None of the inputs have requires_grad=True. "
              "Gradients will be None` and the backward then failed (`element 0 of tensors does not require grad and "
              "does not have a grad_fn`) or the checkpointed blocks got no gradients.",
        why="With frozen input embeddings (LoRA / PEFT, a frozen encoder) the hidden states entering each "
              "checkpointed block do not require grad; reentrant checkpointing then records no graph for the block, "
              "so its trainable weights (the adapters) get no gradient and the loss may have no grad_fn.",
        fix="Call `model.enable_input_require_grads()` before wrapping the model with PEFT / the Trainer, or use "
              "non-reentrant checkpointing: `gradient_checkpointing_kwargs={'use_reentrant': False}`.",
        examples=(log("checkpointing-frozen-inputs", "LoRA with gradient checkpointing, no enable_input_require_grads:",
                   "/opt/envs/venv/lib/python3.11/site-packages/torch/utils/checkpoint.py:90: UserWarning: None of the inputs have "
                   "requires_grad=True. Gradients will be None\n"
                   "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn\n"),),
        reads="log"),
    signatures=(
        msg(TK.MSG_CKPT_NO_GRAD_INPUTS, "torch/utils/checkpoint.py check_backward_validity (torch 1.x-2.x)",
            "/venv/lib/python3.11/site-packages/torch/utils/checkpoint.py:90: UserWarning: None of the inputs have "
            "requires_grad=True. Gradients will be None", note=True,
            cause_with=r"does not have a grad_fn|^Traceback \(most recent call last\)|^File \"[^\"]{1,300}\", line \d"),
        msg(TK.MSG_NO_GRAD_FN, "torch autograd run_backward (torch 1.x-2.x): the loss has no grad_fn",
            "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn", symptom=True)),
    # the warning with any traceback is promoted; another cause in the log (an OOM after silent None gradients) goes first
    yields=True),
    cause(
    N.ZERO_GRADIENT_REDUCED_TWICE,
    Severity.ERROR,
    "A parameter's gradient reduced twice in one step (ZeRO-1/2)",
    _reduced_twice,
    Docs(
        what="ZeRO-1/2 asserted `The parameter N has already been reduced. Gradient computed twice for this "
              "partition. Multiple gradient reduction is currently not supported`.",
        why="ZeRO-1/2 reduce each parameter's gradient once per backward, from a hook. The hook fires twice when "
              "the parameter is in the graph twice: several forward passes summed into one loss (chosen and rejected "
              "run separately), a module called twice, or reentrant gradient checkpointing re-running a block's "
              "backward.",
        fix="Run one forward per backward (concatenate the inputs into one batch), or use non-reentrant gradient "
              "checkpointing (`gradient_checkpointing_kwargs={'use_reentrant': False}`).",
        examples=(log("zero-grad-reduced-twice", "two forwards before one backward under ZeRO-2:",
                   "[rank0]: AssertionError: The parameter 12 has already been reduced.             Gradient computed "
                   "twice for this partition.             Multiple gradient reduction is currently not supported\n"),),
        reads="log"),
    signatures=(
        msg(K.MSG_REDUCED_TWICE, f"{STAGE12} reduce_independent_p_g_buckets_and_remove_grads / reduce_ipg_grads "
            "(assert, 0.3-0.19.8)", "AssertionError: The parameter 255 has already been reduced.                     "
            "Gradient computed twice for this partition."),)),
    cause(
    N.ZERO_INFERENCE_REQUIRES_STAGE3,
    Severity.ERROR,
    "DeepSpeed inference-only run (predict/evaluate before training) without ZeRO-3",
    _inference_stage,
    Docs(
        what="`Trainer.predict()` / `evaluate()` called before any training with a ZeRO-1/2 config: `ZeRO inference "
              "only makes sense with ZeRO Stage 3 - please adjust your config`.",
        why="Without training the Trainer starts DeepSpeed for inference only; ZeRO-1/2 shard optimizer state and "
              "gradients, which inference does not have, so only ZeRO-3 (sharded parameters) is supported.",
        fix="Use a ZeRO-3 config for an inference-only run, run prediction without `--deepspeed`, or predict after "
              "`trainer.train()` in the same run.",
        examples=(log("zero-inference-stage3", "trainer.predict() with a ZeRO-2 config:",
                   "ValueError: ZeRO inference only makes sense with ZeRO Stage 3 - please adjust your config\n"),),
        reads="log"),
    signatures=(
        msg(TK.MSG_ZERO_INFERENCE_STAGE3, f"{HF_DS} deepspeed_init (Transformers 4.2x-4.5x)",
            "ValueError: ZeRO inference only makes sense with ZeRO Stage 3 - please adjust your config"),)),
    cause(
    N.ZERO23_WITH_PIPELINE_PARALLEL,
    Severity.ERROR,
    "ZeRO-2/3 with DeepSpeed pipeline parallelism",
    _pipeline,
    Docs(
        what="A `PipelineModule` was given to `deepspeed.initialize` with ZeRO stage 2 or 3: `ZeRO-2 and ZeRO-3 are "
              "incompatible with pipeline parallelism`.",
        why="The pipeline engine accumulates gradients over micro-batches inside one `train_batch`; ZeRO-2/3 partition "
              "gradients / parameters in a way it does not support (Megatron-DeepSpeed builds a pipeline model even "
              "with a pipeline size of 1).",
        fix="Use ZeRO stage 0 or 1 with pipeline parallelism, or do not build a PipelineModule (Megatron-DeepSpeed: "
              "`--no-pipeline-parallel`) when you need ZeRO-2/3.",
        examples=(log("zero23-pipeline", "a PipelineModule with ZeRO-3:",
                   "AssertionError: ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism\n"),),
        reads="log"),
    signatures=(
        msg(K.MSG_PIPE_ZERO23, "deepspeed/runtime/pipe/engine.py PipelineEngine.__init__ (assert, 0.3.16-0.19.8)",
            "AssertionError: ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism"),)),
    cause(
    N.CLIENT_OPTIMIZER_AND_DS_CONFIG_OPTIMIZER,
    Severity.ERROR,
    "An optimizer in the code and in the DeepSpeed config",
    _two_optimizers,
    Docs(
        what="accelerate refused to prepare the model: `You cannot specify an optimizer in the config file and in "
              "the code at the same time`.",
        why="DeepSpeed builds the config's optimizer itself; an optimizer built in the code as well leaves two "
              "optimizers for one model, and accelerate does not pick one.",
        fix="Keep one: drop the `optimizer` block from the ds_config (DeepSpeed wraps the code's optimizer), or "
              "keep the config's and pass `accelerate.utils.DummyOptim` from the code. An optimizer that needs whole "
              "parameters (GaLore) does not work under ZeRO either way.",
        examples=(log("two-optimizers-accelerate", "an optimizer built in the code and one in the ds_config:",
                   "ValueError: You cannot specify an optimizer in the config file and in the code at the same time. "
                   "Please remove the optimizer from the config file or create `accelerate.utils.DummyOptim` in the "
                   "code.\n"),),
        reads="log"),
    signatures=(
        msg(TK.MSG_ACCELERATE_TWO_OPTIMIZERS, "accelerate/accelerator.py _prepare_deepspeed (0.2x-1.x)",
            "ValueError: You cannot specify an optimizer in the config file and in the code at the same time. "
            "Please remove the optimizer from the config file or create `accelerate.utils.DummyOptim` in the code."),)),
    cause(
    N.LR_SCHEDULER_PARAM_GROUP_MISMATCH,
    Severity.ERROR,
    "LR scheduler built for more param groups than the prepared optimizer has",
    _scheduler_groups,
    Docs(
        what="The LR scheduler's step failed in `_update_lr` with `zip() argument 2 is longer than argument 1`: it "
              "has a learning rate for more param groups than the optimizer.",
        why="torch 2.10 made `LRScheduler._update_lr` zip param groups and learning rates strictly. The scheduler "
              "was created for the optimizer's groups before `deepspeed.initialize`, which then dropped the empty "
              "ones (e.g. LoRA's empty no-decay group).",
        fix="Upgrade Transformers to a release that creates the scheduler after the optimizer is prepared, stay on "
              "torch < 2.10, or (own code) drop empty param groups before creating the optimizer and scheduler.",
        examples=(log("lr-scheduler-param-groups", "torch 2.10 with a Trainer that built the scheduler first:",
                   "[rank0]:   File \"/opt/envs/venv/lib/python3.11/site-packages/torch/optim/lr_scheduler.py\", line 296, in _update_lr\n"
                   "[rank0]:     for param_group, lr in zip(self.optimizer.param_groups, values, strict=True):\n"
                   "[rank0]: ValueError: zip() argument 2 is longer than argument 1\n"),),
        reads="log"),
    signatures=(
        frame("torch/optim/lr_scheduler.py", "_update_lr", "torch/optim/lr_scheduler.py LRScheduler._update_lr "
              "(torch 2.10+: zip(param_groups, lrs, strict=True)) raising Python's zip message",
              "Traceback (most recent call last):\n"
              "  File \"/venv/lib/python3.12/site-packages/torch/optim/lr_scheduler.py\", line 296, in _update_lr\n"
              "    for param_group, lr in zip(self.optimizer.param_groups, values, strict=True):\n"
              "ValueError: zip() argument 2 is longer than argument 1\n",
              exc=re.escape(TK.MSG_ZIP_LONGER).replace("longer", "(?:longer|shorter)")),)),
    cause(
    N.DEEPSPEED_CHECKPOINT_STATE_MISSING,
    Severity.ERROR,
    "Resuming / loading a checkpoint folder that has no DeepSpeed engine state",
    _ds_state,
    Docs(
        what="The Trainer's `deepspeed_load_checkpoint` found no `global_step*` folder: `Can't find a valid "
              "checkpoint at <dir>`; newer Transformers refuse `save_only_model` with `load_best_model_at_end` "
              "under DeepSpeed up front.",
        why="Under DeepSpeed, resuming and loading the best model go through the engine's checkpoint "
              "(`global_step*/` and `latest`); a folder saved with `save_only_model=True` (or holding only model "
              "weights) has none.",
        fix="Do not set `save_only_model` when resuming or using `load_best_model_at_end` with DeepSpeed, or load the "
              "saved weights with `from_pretrained` and start a new run.",
        examples=(log("ds-checkpoint-state-missing", "resuming from a checkpoint saved with save_only_model=True:",
                   "  File \"/opt/envs/venv/lib/python3.11/site-packages/transformers/integrations/deepspeed.py\", line 447, "
                   "in deepspeed_load_checkpoint\n"
                   "    raise ValueError(f\"Can't find a valid checkpoint at {checkpoint_path}\")\n"
                   "ValueError: Can't find a valid checkpoint at out/checkpoint-500\n"),),
        reads="log"),
    signatures=(
        msg(MSG_SAVE_ONLY, "transformers/trainer.py create_accelerator_and_postprocess (4.38-5.x)",
            "ValueError: DeepSpeed can't be used with `save_only_model` along with `load_best_model_at_end`."),
        rx(re.escape(TK.SRC_NO_DS_CHECKPOINT), "Can't find a valid checkpoint at {checkpoint_path}",
           f"{HF_DS} deepspeed_load_checkpoint's source line (4.3x-5.x), as a traceback cut before the message shows it",
           '    raise ValueError(f"Can\'t find a valid checkpoint at {checkpoint_path}")'),
        # the message alone: DeepSpeed's branch only where the log shows a DeepSpeed run (explain/context.py)
        rx(re.escape(TK.MSG_NO_DS_CHECKPOINT) + r" (?!\{)\S", TK.MSG_NO_DS_CHECKPOINT,
           f"{HF_DS} deepspeed_load_checkpoint (4.33-5.25; deepspeed.py deepspeed_init / deepspeed_load_checkpoint "
           "4.27-4.32), in a log that shows DeepSpeed; trainer.py _load_from_checkpoint prints it without DeepSpeed",
           "ValueError: Can't find a valid checkpoint at out/checkpoint-500"),
        frame(HF_DS, "deepspeed_load_checkpoint", f"{HF_DS} deepspeed_load_checkpoint (4.3x-5.x)",
              "Traceback (most recent call last):\n"
              f"  File \"/venv/lib/python3.11/site-packages/{HF_DS}\", line 447, in deepspeed_load_checkpoint\n"
              "    raise ValueError(f\"Can't find a valid checkpoint at {checkpoint_path}\")\n"
              "ValueError: Can't find a valid checkpoint at out/checkpoint-500\n",
              exc=re.escape(TK.MSG_NO_DS_CHECKPOINT)))),
)
