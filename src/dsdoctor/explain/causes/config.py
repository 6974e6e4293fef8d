"""Causes in the DeepSpeed config and its Trainer / Accelerate integration. Most names are lint rules too
(``dsdoctor lint`` finds them in the config before a run: one name, one code). The messages live in
``knowledge/deepspeed.py`` and ``knowledge/transformers.py``."""

from __future__ import annotations

from typing import Tuple

from ... import fixes as F
from ...knowledge import deepspeed as K
from ...knowledge import transformers as TK
from ...knowledge.versions import parse, v
from .spec import Advice, Cause, Docs, LogFacts, Seen, code_fix, log, msg

DS_CONFIG = "deepspeed/runtime/config.py"


def _offload_client_optimizer(s: Seen, f: LogFacts) -> Advice:
    return Advice("A torch (client) optimizer was passed with ZeRO-Offload; DeepSpeed refuses it by default", s.text[:300],
                  [code_fix("Let DeepSpeed build the optimizer (DeepSpeedCPUAdam)",
                            'ds_config: "optimizer": {"type": "AdamW", "params": {"lr": 2e-5}}   # and do not pass optimizer='),
                   code_fix("Or construct deepspeed.ops.adam.DeepSpeedCPUAdam yourself", "from deepspeed.ops.adam import DeepSpeedCPUAdam"),
                   code_fix("Or force the client optimizer", f"ds_config: {K.MSG_FORCE_DS_CPU_OPTIMIZER}", applicability="unsafe",
                            reason="a torch optimizer on offloaded fp32 states is much slower")])


def _trainer_mismatch(s: Seen, f: LogFacts) -> Advice:
    return Advice("DeepSpeed config values contradict the TrainingArguments", s.text,
                  [code_fix('Set the listed DeepSpeed keys to "auto" so the Trainer fills them', 'ds_config: "<key>": "auto"')])


def _auto_without_trainer(s: Seen, f: LogFacts) -> Advice:
    return Advice('"auto" values reached DeepSpeed without the HF Trainer to fill them', s.text,
                  [code_fix('Replace every "auto" with a number', 'ds_config: "train_micro_batch_size_per_gpu": 4, '
                            '"gradient_accumulation_steps": 1 (and remove/compute "train_batch_size")'),
                   code_fix("Or pass the config through TrainingArguments(deepspeed=...) and the Trainer", "TrainingArguments(deepspeed=cfg)")])


def _batch_size_mismatch(s: Seen, f: LogFacts) -> Advice:
    g = s.groups
    ws = g.get("ws", "?")
    fixes = [code_fix("Let DeepSpeed derive train_batch_size", 'ds_config: remove "train_batch_size" (or "auto" under the Trainer)')]
    why = "DeepSpeed asserts train_batch_size == micro_batch_per_gpu * gradient_accumulation_steps * world_size."
    if ws == "1":
        why += (" It saw world size 1: the config was read before torch.distributed was initialised (zero.Init / "
                "from_pretrained before deepspeed.init_distributed()), or the script was not started by a launcher.")
        fixes.insert(0, code_fix("Initialise distributed before the model is built",
                                 "deepspeed.init_distributed()   # before from_pretrained / zero.Init; launch with deepspeed or torchrun"))
    return Advice(f"Batch sizes do not add up: {g.get('tb', '?')} != {g.get('mb', '?')} * {g.get('ga', '?')} * {ws}", why, fixes)


def _bucket_size_float(s: Seen, f: LogFacts) -> Advice:
    key = f.extra.get("float_key", "the bucket size")
    fixes = [code_fix(f"Write {key} as an integer", f'ds_config: "{key}": 15099494')]
    tf = parse(f.transformers)
    if tf is None or tf < v("4.45.0"):
        fixes.append(F.pip_fix("transformers>=4.45.0", "Upgrade Transformers (<= 4.44 filled \"auto\" bucket sizes as floats)"))
    return Advice(f"DeepSpeed's config model rejected a float for {key}",
                  "DeepSpeed >= 0.15 validates with pydantic v2, which refuses 15099494.4 for an int field.", fixes)


def _no_sync(s: Seen, f: LogFacts) -> Advice:
    return Advice("no_sync() was used with ZeRO stage 2/3", s.text,
                  [code_fix("Let DeepSpeed accumulate gradients", 'ds_config: "gradient_accumulation_steps": N',
                            reason="call engine.backward/step on every micro-batch, without no_sync()")])


SPECS: Tuple[Cause, ...] = (
    Cause("offload-client-optimizer", "DS413", "Optimizer offload with a client optimizer and no optimizer block",
          _offload_client_optimizer, predicted_by="lint:offload-client-optimizer", signatures=(
              msg(K.MSG_CLIENT_OPTIMIZER.split(" Please")[0], "deepspeed/runtime/engine.py _configure_zero_optimizer "
                  "(ZeRORuntimeException, 0.10-0.19.8)",
                  "deepspeed.runtime.zero.utils.ZeRORuntimeException: You are using ZeRO-Offload with a client provided "
                  "optimizer (<class 'torch.optim.adamw.AdamW'>) which in most cases will yield poor performance. Please "
                  "either use deepspeed.ops.adam.DeepSpeedCPUAdam or set an optimizer in your ds-config"),),
          log_examples=(
              log("offload-client-optimizer", "`dsdoctor explain` on the failed run:",
                  "[rank0]: Traceback (most recent call last):\n"
                  "[rank0]:   File \"/home/user/proj/train.py\", line 7, in <module>\n"
                  "[rank0]:     deepspeed.initialize(model=model, optimizer=opt, config=cfg)\n"
                  "[rank0]:     raise ZeRORuntimeException(msg)\n"
                  "[rank0]: deepspeed.runtime.zero.utils.ZeRORuntimeException: You are using ZeRO-Offload with a client "
                  "provided optimizer (<class 'torch.optim.adamw.AdamW'>) which in most cases will yield poor performance. "
                  "Please either use deepspeed.ops.adam.DeepSpeedCPUAdam or set an optimizer in your ds-config "
                  "(https://www.deepspeed.ai/docs/config-json/#optimizer-parameters). If you really want to use a custom "
                  "optimizer w. ZeRO-Offload and understand the performance impacts you can also set "
                  "<\"zero_force_ds_cpu_optimizer\": false> in your configuration file.\n"),)),
    Cause("ds-config-trainer-mismatch", "DS312", "DeepSpeed config values contradict TrainingArguments",
          _trainer_mismatch, predicted_by="none", signatures=(
              msg(TK.MSG_CONFIG_MISMATCH, "transformers/integrations/deepspeed.py trainer_config_finalize (Transformers 4.3x-5.x)",
                  "ValueError: Please correct the following DeepSpeed config values that mismatch TrainingArguments "
                  "values:"),
              msg(TK.MSG_CONFIG_MISMATCH_ACCELERATE, "accelerate/utils/dataclasses.py DeepSpeedPlugin (Accelerate 1.1-1.15)",
                  "ValueError: Please correct the following DeepSpeed config values that mismatch kwargs  values:")),
          docs=Docs(
              "The HF Trainer refused the DeepSpeed config: values in it contradict TrainingArguments (`Please correct "
              "the following DeepSpeed config values that mismatch TrainingArguments values`, listing each pair).",
              "The Trainer fills or checks batch size, gradient accumulation, learning rate, optimizer/scheduler "
              "parameters and fp16/bf16 from its own arguments; an explicit different value in the config is ambiguous.",
              "Set the listed DeepSpeed keys to \"auto\" so the Trainer fills them (ds_config `\"<key>\": \"auto\"`).",
              (log("ds-config-trainer-mismatch", "A Trainer run with train_micro_batch_size_per_gpu=4 and "
                                                 "per_device_train_batch_size=8:",
                   "ValueError: Please correct the following DeepSpeed config values that mismatch TrainingArguments "
                   "values:\n"
                   "- ds train_micro_batch_size_per_gpu=4 vs hf per_device_train_batch_size=8\n"
                   "The easiest method is to set these DeepSpeed config values to 'auto'.\n"),))),
    Cause("ds-config-auto-without-trainer", "DS407", '"auto" config values where no HF Trainer fills them',
          _auto_without_trainer, predicted_by="lint:ds-config-auto-without-trainer", signatures=(
              msg(K.MSG_AUTO_COMPARE, f"{DS_CONFIG} _batch_assertion on a string \"auto\" (0.9.5-0.19.8)",
                  "TypeError: '>' not supported between instances of 'str' and 'int'"),),
          log_examples=(
              log("auto-without-trainer", "`dsdoctor explain` on the failed run (\"auto\" reached deepspeed.initialize):",
                  "[rank0]:   File \"/opt/envs/ds/0.19.8/deepspeed/runtime/config.py\", line 596, in _batch_assertion\n"
                  "[rank0]:     assert (train_batch > 0), f\"Train batch size: {train_batch} has to be greater than 0\"\n"
                  "[rank0]: TypeError: '>' not supported between instances of 'str' and 'int'\n"),)),
    Cause("batch-size-mismatch", "DS406", "train_batch_size != micro batch x gradient accumulation x world size",
          _batch_size_mismatch, predicted_by="lint:batch-size-mismatch", signatures=(
              msg(K.MSG_BATCH, f"{DS_CONFIG} _batch_assertion (0.9.5-0.19.8)",
                  "AssertionError: Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu "
                  "* gradient_acc_step * world_size 16 != 8 * 1 * 1"),),
          log_examples=(
              log("batch-size-mismatch", "`dsdoctor explain` on the failed run (world size 1: see the fix for "
                                         "init_distributed):",
                  "[rank0]:   File \"/opt/envs/ds/0.19.8/deepspeed/runtime/config.py\", line 602, in _batch_assertion\n"
                  "[rank0]:     assert train_batch == micro_batch * grad_acc * self.world_size, (\n"
                  "[rank0]: AssertionError: Check batch related parameters. train_batch_size is not equal to "
                  "micro_batch_per_gpu * gradient_acc_step * world_size 16 != 8 * 1 * 1\n"),)),
    Cause("bucket-size-float", "DS415", "A fractional float for an integer ZeRO size (DeepSpeed >= 0.15)",
          _bucket_size_float, predicted_by="lint:bucket-size-float", signatures=(
              msg(K.MSG_INT_FROM_FLOAT, "pydantic_core int_from_float, DeepSpeedZeroConfig (DeepSpeed 0.15-0.19.8, pydantic 2)",
                  "  Input should be a valid integer, got a number with a fractional part [type=int_from_float, "
                  "input_value=15099494.4, input_type=float]"),),
          log_examples=(
              log("bucket-size-float", "`dsdoctor explain` on the failed run (DeepSpeed 0.19.8, pydantic v2):",
                  "[rank0]: Traceback (most recent call last):\n"
                  "[rank0]: pydantic_core._pydantic_core.ValidationError: 1 validation error for DeepSpeedZeroConfig\n"
                  "[rank0]: stage3_prefetch_bucket_size\n"
                  "[rank0]:   Input should be a valid integer, got a number with a fractional part [type=int_from_float, "
                  "input_value=15099494.4, input_type=float]\n"),)),
    Cause("deepspeed-no-sync-incompat", "DS316", "no_sync() (gradient accumulation) used with ZeRO stage 2/3",
          _no_sync, predicted_by="none", signatures=(
              msg(K.MSG_NO_SYNC, "deepspeed/runtime/engine.py no_sync (0.14-0.19.8)",
                  "AssertionError: no_sync context manager is incompatible with gradient partitioning logic of ZeRO "
                  "stage 2"),),
          docs=Docs(
              "`engine.no_sync()` (or accelerate's accumulate with no_sync) was used with ZeRO stage 2 or 3.",
              "DeepSpeed asserts: `no_sync context manager is incompatible with gradient partitioning logic of ZeRO "
              "stage N` — ZeRO 2/3 reduce-scatter gradients as they are produced.",
              "Let DeepSpeed accumulate gradients: ds_config `\"gradient_accumulation_steps\": N`, and call "
              "engine.backward/step on every micro-batch, without no_sync().",
              (log("no-sync-zero2", "A training loop using no_sync() under ZeRO-2:",
                   "[rank0]:   File \"/opt/envs/ds/0.19.8/deepspeed/runtime/engine.py\", line 3227, in no_sync\n"
                   "[rank0]:     assert not self.zero_optimization_partition_gradients(), \\\n"
                   "[rank0]: AssertionError: no_sync context manager is incompatible with gradient partitioning logic of "
                   "ZeRO stage 2\n"),))),
)
