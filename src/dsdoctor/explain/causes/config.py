"""Causes in the DeepSpeed config and its Trainer / Accelerate integration. Most names are lint rules too
(``dsdoctor lint`` finds them in the config before a run: one name, one code). The messages live in
``knowledge/deepspeed.py`` and ``knowledge/transformers.py``."""

from __future__ import annotations

import re
from typing import Tuple

from ... import fixes as F
from ... import names as N
from ...knowledge import deepspeed as K
from ...knowledge import transformers as TK
from ...knowledge.versions import parse, v
from ...model import Fix, Severity
from .cause import Advice, Cause, Docs, LogFacts, Seen, cause, code_fix, form, frame, log, msg, rx

DS_CONFIG = "deepspeed/runtime/config.py"


def _offload_client_optimizer(s: Seen, f: LogFacts) -> Advice:
    return Advice("A torch (client) optimizer was passed with ZeRO-Offload; DeepSpeed refuses it by default", s.text[:300],
                  [F.OFFLOAD_CLIENT_OPTIMIZER_FIXES[0],  # lint's fixes for the same config (offload-client-optimizer), then explain's
                   code_fix("Or construct deepspeed.ops.adam.DeepSpeedCPUAdam yourself", "from deepspeed.ops.adam import DeepSpeedCPUAdam"),
                   *F.OFFLOAD_CLIENT_OPTIMIZER_FIXES[1:]])


def _trainer_mismatch(s: Seen, f: LogFacts) -> Advice:
    if "--mixed_precision" in s.text:
        return Advice("The ds_config enables the other half-precision dtype than the launch's --mixed_precision", "",
                      [code_fix('Let the launch decide: set the config\'s fp16 and bf16 "enabled" to "auto"',
                                'ds_config: "fp16": {"enabled": "auto"}, "bf16": {"enabled": "auto"}'),
                       code_fix("Or make the launch's mixed precision the config's dtype",
                                "accelerate launch --mixed_precision fp16 ...   # or the accelerate config's mixed_precision; "
                                "TrainingArguments(fp16=True) under the Trainer")])
    return Advice("DeepSpeed config values contradict the TrainingArguments", "",
                  [code_fix('Set the listed DeepSpeed keys to "auto" so the Trainer fills them', 'ds_config: "<key>": "auto"')])


def _auto_without_trainer(s: Seen, f: LogFacts) -> Advice:
    return Advice('"auto" values reached DeepSpeed without the HF Trainer to fill them', s.text,
                  [F.AUTO_WITHOUT_TRAINER_FIX,  # lint's fix (ds-config-auto-without-trainer), then how
                   code_fix('Replace every "auto" with a number', 'ds_config: "train_micro_batch_size_per_gpu": 4, '
                            '"gradient_accumulation_steps": 1 (and remove/compute "train_batch_size")'),
                   code_fix("Or pass the config through TrainingArguments(deepspeed=...) and the Trainer", "TrainingArguments(deepspeed=cfg)")])


def _batch_size_mismatch(s: Seen, f: LogFacts) -> Advice:
    g, ws, summary = s.groups, s.groups.get("ws", "?"), ""
    fixes = [code_fix("Let DeepSpeed derive train_batch_size", 'ds_config: remove "train_batch_size" (or "auto" under the Trainer)'),
             F.batch_auto_fix()]  # lint's fix under the HF Trainer (batch-size-mismatch)
    why = "DeepSpeed asserts train_batch_size == micro_batch_per_gpu * gradient_accumulation_steps * world_size."
    if ws == "1":
        why += (" It saw world size 1: the config was read before torch.distributed was initialised (zero.Init / "
                "from_pretrained before deepspeed.init_distributed()), or the script was not started by a launcher.")
        fixes.insert(0, code_fix("Initialise distributed before the model is built",
                                 "deepspeed.init_distributed()   # before from_pretrained / zero.Init; launch with deepspeed or torchrun"))
        tb, mb, ga = (int(g[k]) if g.get(k, "").isdigit() else 0 for k in ("tb", "mb", "ga"))
        if mb * ga and tb > mb * ga and tb % (mb * ga) == 0:  # the numbers fit a larger world DeepSpeed did not see
            summary = f"DeepSpeed read the config with world size 1, but {tb} = {mb} * {ga} * {tb // (mb * ga)}: it did not see the other ranks"
    return Advice(summary or f"Batch sizes do not add up: {g.get('tb', '?')} != {g.get('mb', '?')} * {g.get('ga', '?')} * {ws}", why, fixes)


def _bucket_size_float(s: Seen, f: LogFacts) -> Advice:
    key = f.extra.get("float_key", "the bucket size")
    m = re.search(r"input_value=(\d{1,15})\.\d", s.text)
    fixes = [F.bucket_int_fix(key, m.group(1) if m else "15099494")]  # lint's fix (bucket-size-float)
    tf = parse(f.transformers)
    if tf is None or tf < v(TK.AUTO_BUCKET_INT_FROM):
        fixes.append(F.pip_fix(f"transformers>={TK.AUTO_BUCKET_INT_FROM}",
                               "Upgrade Transformers (older releases filled \"auto\" bucket sizes as floats)"))
    return Advice(f"DeepSpeed's config model rejected a float for {key}",
                  "DeepSpeed >= 0.15 validates with pydantic v2, which refuses 15099494.4 for an int field.", fixes)


def _no_sync(s: Seen, f: LogFacts) -> Advice:
    return Advice("no_sync() was used with ZeRO stage 2/3", "",
                  [code_fix("Let DeepSpeed accumulate gradients", 'ds_config: "gradient_accumulation_steps": N',
                            reason="call engine.backward/step on every micro-batch, without no_sync()")])


def _lint_fix(what: str) -> Fix:
    """`dsdoctor lint` on the config: the same finding, with its fix, before the next run."""
    return code_fix(f"Lint the config: {what}", "dsdoctor lint ds_config.json   # dsdoctor lint --fix applies the safe fixes")


def _unknown_key(s: Seen, f: LogFacts) -> Advice:
    return Advice("DeepSpeed's config model refused a key it does not know (in this DeepSpeed version, or in that section)",
                  "DeepSpeed validates each config section with pydantic and forbids extra keys; the key name is on the "
                  "line above each error. A key written for a newer DeepSpeed (ZeRO++ zero_hpz_partition_size, "
                  "zero_quantized_gradients ...) or put in the wrong block (fp16 loss-scale keys under \"bf16\") is refused.",
                  [_lint_fix("it names the unknown key, the DeepSpeed versions that know it, and a rename"),
                   code_fix("Remove the key or move it to the section it belongs to", 'ds_config: delete "<key>"'),
                   F.pip_fix("deepspeed", "Or upgrade DeepSpeed when the key is newer than the installed version",
                             reason="e.g. the ZeRO++ keys need DeepSpeed >= 0.10")])


def _invalid(s: Seen, f: LogFacts) -> Advice:
    if K.MSG_BF16_ZERO_ONLY in s.text:  # K.MSG_BF16_ZERO_ONLY: the release's own limit, not a typo in the file
        return Advice("This DeepSpeed release (0.5.5-0.6.1) allows bf16 only with ZeRO stage 1-3", s.text[:300], [F.pip_fix("deepspeed>=0.6.3",
                      "Upgrade DeepSpeed (bf16 without ZeRO is allowed)"), code_fix("Or enable ZeRO", 'ds_config: "zero_optimization": {"stage":1}')])
    return Advice("The DeepSpeed config could not be read, or a value has the wrong type", s.text[:300],
                  [_lint_fix("it shows the line and the value DeepSpeed rejects"),
                   code_fix("Write sizes as plain integers (YAML reads 5e8 as a string) and the file as strict JSON "
                            "(no comments or trailing commas: Transformers/Accelerate load it with json.load)",
                            'ds_config: "reduce_bucket_size": 500000000')])


def _nvme_path(s: Seen, f: LogFacts) -> Advice:
    return Advice("NVMe offload is configured without an nvme_path", s.text[:300],
                  [code_fix(F.NVME_PATH_FIX.title, 'ds_config: "offload_param": {"device": "nvme", "nvme_path": "/local_nvme"}'),
                   _lint_fix(N.NVME_PATH_MISSING)])


def _needs_optimizer(s: Seen, f: LogFacts) -> Advice:
    return Advice(f"ZeRO stage {s.groups.get('stage', '1/2')} was started without an optimizer", "",
                  [code_fix("Add an optimizer to the DeepSpeed config (or pass optimizer= to deepspeed.initialize)",
                            'ds_config: "optimizer": {"type": "AdamW", "params": {"lr": "auto"}}'),
                   code_fix("For evaluation / generation / a frozen reference model use ZeRO stage 0 or 3",
                            'ds_config: "zero_optimization": {"stage": 0}   # ZeRO-3 also runs without an optimizer')])


def _untested_optimizer(s: Seen, f: LogFacts) -> Advice:
    return Advice("A client optimizer DeepSpeed's ZeRO does not list as supported", "",
                  [code_fix("Allow it explicitly", f"ds_config: {K.ALLOW_UNTESTED_OPTIMIZER}",
                            reason="ZeRO wraps any torch optimizer; the check only guards against untested ones"),
                   code_fix("Or use one of DeepSpeed's optimizers from the config", 'ds_config: "optimizer": {"type": "AdamW", ...}')])


def _path_not_found(s: Seen, f: LogFacts) -> Advice:
    return Advice("The DeepSpeed config path does not exist, so it was parsed as JSON/base64 text and failed", "",
                  [code_fix("Check the path from the directory the launcher starts the script in",
                            "ls -l <the --deepspeed / deepspeed_config_file path>   # relative paths resolve from the CWD",
                            reason="a typo or a relative path; editing the config file itself changes nothing")])


SPECS: Tuple[Cause, ...] = (
    form(N.OFFLOAD_CLIENT_OPTIMIZER, _offload_client_optimizer, signatures=(
              msg(K.MSG_CLIENT_OPTIMIZER.split(" Please")[0], "deepspeed/runtime/engine.py _configure_zero_optimizer "
                  "(ZeRORuntimeException, 0.10-0.19.8)",
                  "deepspeed.runtime.zero.utils.ZeRORuntimeException: You are using ZeRO-Offload with a client provided "
                  "optimizer (<class 'torch.optim.adamw.AdamW'>) which in most cases will yield poor performance. Please "
                  "either use deepspeed.ops.adam.DeepSpeedCPUAdam or set an optimizer in your ds-config"),), log_examples=(
              log(N.OFFLOAD_CLIENT_OPTIMIZER, "`dsdoctor explain` on the failed run:",
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
    form(N.DS_CONFIG_TRAINER_MISMATCH, _trainer_mismatch, log_examples=(
              log(N.DS_CONFIG_TRAINER_MISMATCH, "A Trainer run with train_micro_batch_size_per_gpu=4 and "
                                               "per_device_train_batch_size=8:",
                  "ValueError: Please correct the following DeepSpeed config values that mismatch TrainingArguments "
                  "values:\n"
                  "- ds train_micro_batch_size_per_gpu=4 vs hf per_device_train_batch_size=8\n"
                  "The easiest method is to set these DeepSpeed config values to 'auto'.\n"),),
    signatures=(
              msg(TK.MSG_CONFIG_MISMATCH, "transformers/integrations/deepspeed.py trainer_config_finalize (Transformers 4.3x-5.x)",
                  "ValueError: Please correct the following DeepSpeed config values that mismatch TrainingArguments "
                  "values:"),
              msg(TK.MSG_CONFIG_MISMATCH_ACCELERATE, "accelerate/utils/dataclasses.py DeepSpeedPlugin (Accelerate 1.1-1.15)",
                  "ValueError: Please correct the following DeepSpeed config values that mismatch kwargs  values:"),
              msg(TK.MSG_MIXED_PRECISION_VS_CONFIG, "accelerate/utils/dataclasses.py DeepSpeedPlugin.set_mixed_precision "
                  "(Accelerate 0.16-1.16): the launch's mixed precision against the config's other dtype",
                  "ValueError: `--mixed_precision` arg cannot be set to `bf16` when `fp16` is set in the DeepSpeed config file."),
              msg(TK.MSG_CONFIG_MISMATCH.split(" TrainingArguments")[0], "the same two messages, hard-wrapped by a "
                  "terminal after their common start (Transformers 4.3x-5.x, Accelerate 1.1-1.15)",
                  "ValueError: Please correct the following DeepSpeed config values that mismatch"))),
    form(N.DS_CONFIG_AUTO_WITHOUT_TRAINER, _auto_without_trainer, signatures=(
              msg(K.MSG_AUTO_COMPARE, f"{DS_CONFIG} _batch_assertion on a string \"auto\" (0.9.5-0.19.8)",
                  "TypeError: '>' not supported between instances of 'str' and 'int'"),
              frame("deepspeed/runtime/lr_schedules.py", "__init__", "deepspeed/runtime/lr_schedules.py WarmupLR / "
                    "WarmupDecayLR __init__ on an \"auto\" warmup_num_steps (0.9-0.19.8)",
                    "Traceback (most recent call last):\n"
                    "  File \"/venv/lib/python3.11/site-packages/deepspeed/runtime/lr_schedules.py\", line 706, in __init__\n"
                    "    self.warmup_num_steps = max(2, warmup_num_steps)\n"
                    "TypeError: '>' not supported between instances of 'str' and 'int'\n",
                    exc=r"^TypeError: .{0,40}not supported between instances of 'str'"),
              frame("deepspeed/runtime/lr_schedules.py", "__init__", "the same, the exception line cut below WarmupLR's "
                    "max() line (it raises only on a non-number)", "  File \"/venv/lib/python3.11/site-packages/deepspeed/"
                    "runtime/lr_schedules.py\", line 706, in __init__\n    self.warmup_num_steps = max(2, warmup_num_steps)\n",
                    exc="^$", code=re.escape(K.SRC_WARMUP_MAX)),
              rx(K.SRC_WARMUP_MAX.replace("_", "[ _]").replace("(", r"\(").replace(")", r" ?\)"), "= max(2, warmup",
                 "the line transcribed (spaces for underscores)", "self.warmup_num_steps = max(2, warmup_num_steps)")), log_examples=(
              log("auto-without-trainer", "`dsdoctor explain` on the failed run (\"auto\" reached deepspeed.initialize):",
                  "[rank0]:   File \"/opt/envs/ds/0.19.8/deepspeed/runtime/config.py\", line 596, in _batch_assertion\n"
                  "[rank0]:     assert (train_batch > 0), f\"Train batch size: {train_batch} has to be greater than 0\"\n"
                  "[rank0]: TypeError: '>' not supported between instances of 'str' and 'int'\n"),)),
    form(N.BATCH_SIZE_MISMATCH, _batch_size_mismatch, signatures=(
              msg(K.MSG_BATCH, f"{DS_CONFIG} _batch_assertion (0.9.5-0.19.8)",
                  "AssertionError: Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu "
                  "* gradient_acc_step * world_size 16 != 8 * 1 * 1"),
              msg(K.MSG_BATCH_CUT, f"{DS_CONFIG} _batch_assertion, hard-wrapped by a narrow terminal (0.9.5-0.19.8)",
                  "AssertionError: Check batch related parameters. train_batch_size is not"),
              msg(K.MSG_MICRO_BATCH_ZERO, f"{DS_CONFIG} _batch_assertion: train_batch_size < gradient accumulation x "
                  "world size (0.8.3-0.19.8)",
                  "AssertionError: Micro batch size per gpu: 0 has to be greater than 0")), log_examples=(
              log(N.BATCH_SIZE_MISMATCH, "`dsdoctor explain` on the failed run (world size 1: see the fix for "
                                         "init_distributed):",
                  "[rank0]:   File \"/opt/envs/ds/0.19.8/deepspeed/runtime/config.py\", line 602, in _batch_assertion\n"
                  "[rank0]:     assert train_batch == micro_batch * grad_acc * self.world_size, (\n"
                  "[rank0]: AssertionError: Check batch related parameters. train_batch_size is not equal to "
                  "micro_batch_per_gpu * gradient_acc_step * world_size 16 != 8 * 1 * 1\n"),)),
    form(N.BUCKET_SIZE_FLOAT, _bucket_size_float, signatures=(
              msg(K.MSG_INT_FROM_FLOAT, "pydantic_core int_from_float, DeepSpeedZeroConfig (DeepSpeed 0.15-0.19.8, pydantic 2)",
                  "  Input should be a valid integer, got a number with a fractional part [type=int_from_float, "
                  "input_value=15099494.4, input_type=float]"),), log_examples=(
              log(N.BUCKET_SIZE_FLOAT, "`dsdoctor explain` on the failed run (DeepSpeed 0.19.8, pydantic v2):",
                  "[rank0]: Traceback (most recent call last):\n"
                  "[rank0]: pydantic_core._pydantic_core.ValidationError: 1 validation error for DeepSpeedZeroConfig\n"
                  "[rank0]: stage3_prefetch_bucket_size\n"
                  "[rank0]:   Input should be a valid integer, got a number with a fractional part [type=int_from_float, "
                  "input_value=15099494.4, input_type=float]\n"),)),
    cause(
    N.DEEPSPEED_NO_SYNC_INCOMPAT,
    Severity.ERROR,
    "no_sync() (gradient accumulation) used with ZeRO stage 2/3",
    _no_sync,
    Docs(
        what="`engine.no_sync()` (or accelerate's accumulate with no_sync) was used with ZeRO stage 2 or 3.",
        why="DeepSpeed asserts: `no_sync context manager is incompatible with gradient partitioning logic of ZeRO "
              "stage N` — ZeRO 2/3 reduce-scatter gradients as they are produced.",
        fix="Let DeepSpeed accumulate gradients: ds_config `\"gradient_accumulation_steps\": N`, and call "
              "engine.backward/step on every micro-batch, without no_sync().",
        examples=(log("no-sync-zero2", "A training loop using no_sync() under ZeRO-2:",
                   "[rank0]:   File \"/opt/envs/ds/0.19.8/deepspeed/runtime/engine.py\", line 3227, in no_sync\n"
                   "[rank0]:     assert not self.zero_optimization_partition_gradients(), \\\n"
                   "[rank0]: AssertionError: no_sync context manager is incompatible with gradient partitioning logic of "
                   "ZeRO stage 2\n"),),
        reads="log"),
    signatures=(
              msg(K.MSG_NO_SYNC, "deepspeed/runtime/engine.py no_sync (0.16-0.19.8)",
                  "AssertionError: no_sync context manager is incompatible with gradient partitioning logic of ZeRO "
                  "stage 2"),
              frame("deepspeed/runtime/engine.py", "no_sync", "deepspeed/runtime/engine.py no_sync's assertion, message "
                    "cut (0.16-0.19.8)",
                    "Traceback (most recent call last):\n"
                    "  File \"/venv/lib/python3.11/site-packages/deepspeed/runtime/engine.py\", line 2020, in no_sync\n"
                    "    assert not self.zero_optimization_partition_gradients(), \\\n"
                    "AssertionError\n",
                    exc=r"^(?:AssertionError|$)"),
              frame("accelerate/accelerator.py", "no_sync", "accelerate/accelerator.py Accelerator.no_sync entering "
                    "DeepSpeedEngine.no_sync (Accelerate 0.2x-1.15, DeepSpeed 0.16-0.19.8), the log cut inside it",
                    "Traceback (most recent call last):\n"
                    "  File \"/venv/lib/python3.11/site-packages/accelerate/accelerator.py\", line 1104, in no_sync\n"
                    "    with context():\n  File \"/usr/lib/python3.11/contextlib.py\", line 137, in __enter__\n"
                    "    return next(self.gen)\n",
                    anywhere=True, exc=r"^(?:AssertionError|$)"))),
    form(N.DS_CONFIG_UNKNOWN_KEY, _unknown_key, signatures=(
              msg(K.MSG_PYDANTIC_EXTRA_V1, "pydantic v1 error_wrappers ValidationError of DeepSpeed's config models "
                  "(runtime/config_utils.py DeepSpeedConfigModel extra=forbid, DeepSpeed 0.7-0.14)",
                  "extra fields not permitted (type=value_error.extra)"),
              msg(K.MSG_PYDANTIC_EXTRA_V2, "pydantic_core ValidationError of DeepSpeed's config models "
                  "(DeepSpeedConfigModel extra=forbid, DeepSpeed 0.15-0.19.8, pydantic 2)",
                  "  Extra inputs are not permitted [type=extra_forbidden, input_value=12, input_type=int]")), log_examples=(
              log("ds-config-unknown-key-pydantic2", "A bf16 block carrying fp16's loss-scale keys (DeepSpeed 0.19.8):",
                  "pydantic_core._pydantic_core.ValidationError: 1 validation error for DeepSpeedBF16Config\n"
                  "loss_scale_window\n"
                  "  Extra inputs are not permitted [type=extra_forbidden, input_value=500, input_type=int]\n"),)),
    form(N.DS_CONFIG_INVALID, _invalid, signatures=(
              rx(re.escape(K.MSG_BF16_ZERO_ONLY) + r" ?(?:2|1,2,3) currently", K.MSG_BF16_ZERO_ONLY, f"{DS_CONFIG} (0.5.5-0.6.1)",
                 "AssertionError: bfloat16 mode is only enabled for Zero 1,2,3 currently. got 0"),
              msg(K.MSG_PYDANTIC_INT_STR, "pydantic_core int_parsing, DeepSpeed's config models (0.15-0.19.8, pydantic 2)",
                  "  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, "
                  "input_value='5e8', input_type=str]"),
              msg(K.MSG_PYDANTIC_TYPE_V1, "pydantic v1 type errors of DeepSpeed's config models (0.7-0.14)",
                  "  value is not a valid integer (type=type_error.integer)", "  value is not a valid dict (type=type_error.dict)"),
              frame("deepspeed.py", "__init__", "accelerate/utils/deepspeed.py HfDeepSpeedConfig.__init__ json.load of the "
                    "config file (Accelerate 0.2x-1.15; Transformers' HfDeepSpeedConfig subclasses it)",
                    "Traceback (most recent call last):\n"
                    "  File \"/venv/lib/python3.11/site-packages/accelerate/utils/deepspeed.py\", line 143, in __init__\n"
                    "    config = json.load(f)\n  File \"/usr/lib/python3.11/json/__init__.py\", line 293, in load\n"
                    "json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 9 column 5 (char 141)\n",
                    anywhere=True, code=r"json\.load\(f\)")), log_examples=(
              log("ds-config-not-json", "A config with a trailing comma passed as TrainingArguments(deepspeed=path):",
                  "Traceback (most recent call last):\n"
                  "  File \"/venv/lib/python3.11/site-packages/accelerate/utils/deepspeed.py\", line 68, in __init__\n"
                  "    config = json.load(f)\n"
                  "json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 12 column 5 "
                  "(char 287)\n"),)),
    form(N.NVME_PATH_MISSING, _nvme_path, signatures=(
              msg(K.MSG_NVME_PATH_NONE, "deepspeed/runtime/zero/partition_parameters.py Init._validate_remote_device (0.9-0.19.8)",
                  "AssertionError: \"nvme_path\" in DeepSpeed Config cannot be None if remote device is nvme",
                  "[rank0]: AssertionError: \"nvme_path\" in DeepSpeed Config cannot be None if remote device is "
                  "OffloadDeviceEnum.nvme"),
              frame("deepspeed/runtime/zero/partition_parameters.py", "__init__", "the same assertion, the log cut in "
                    "_validate_remote_device (all its asserts are about the nvme offload block; 0.9-0.19.8)",
                    "Traceback (most recent call last):\n"
                    "  File \"/venv/lib/python3.11/site-packages/deepspeed/runtime/zero/partition_parameters.py\", line 1019, "
                    "in __init__\n    self._validate_remote_device(remote_device, _ds_config)\n",
                    code=re.escape(K.SRC_VALIDATE_REMOTE), exc=r"^(?:AssertionError|$)")), log_examples=(
              log(N.NVME_PATH_MISSING, "from_pretrained under ZeRO-3 with offload_param device nvme and no nvme_path:",
                  "[rank0]: AssertionError: \"nvme_path\" in DeepSpeed Config cannot be None if remote device is "
                  "OffloadDeviceEnum.nvme\n"),)),
    cause(
    N.ZERO_STAGE_REQUIRES_OPTIMIZER,
    Severity.ERROR,
    "ZeRO stage 1/2 started without an optimizer",
    _needs_optimizer,
    Docs(
        what="DeepSpeed (or accelerate) asserted `zero stage N requires an optimizer`: a ZeRO stage 1/2 engine was "
              "built with no optimizer passed and none in the config.",
        why="ZeRO stages 1 and 2 partition optimizer states, so deepspeed.initialize (and accelerate's prepare) assert "
              "when no optimizer is passed and the config has none: evaluation, generation or a frozen reference model "
              "(DPO/PPO) prepared with the training config.",
        fix="Add an `\"optimizer\"` block to the DeepSpeed config (or pass `optimizer=` to `deepspeed.initialize`); "
              "for evaluation / generation / a reference model use ZeRO stage 0 (or 3, which runs without an optimizer).",
        examples=(log(N.ZERO_STAGE_REQUIRES_OPTIMIZER, "deepspeed.initialize(model=model, config=cfg) for evaluation, with a "
                                                     "ZeRO-2 config:",
                   "[rank0]: AssertionError: zero stage 2 requires an optimizer\n"),),
        reads="log"),
    signatures=(
              msg(K.MSG_ZERO_NEEDS_OPTIMIZER, "deepspeed/runtime/engine.py _configure_zero_optimizer (0.5.7-0.19.8) and "
                  "accelerate/accelerator.py _prepare_deepspeed (0.2x-1.15)",
                  "AssertionError: zero stage 2 requires an optimizer"),
              frame("deepspeed/runtime/engine.py", "_configure_zero_optimizer", "the same assertion, message cut "
                    "(engine.py _configure_zero_optimizer, 0.8-0.19.8: its only assertion)",
                    "Traceback (most recent call last):\n"
                    "  File \"/venv/lib/python3.11/site-packages/deepspeed/runtime/engine.py\", line 354, in __init__\n"
                    "    self.optimizer = self._configure_zero_optimizer(optimizer=None)\n"
                    "  File \"/venv/lib/python3.11/site-packages/deepspeed/runtime/engine.py\", line 1805, in "
                    "_configure_zero_optimizer\n",
                    exc=r"^(?:AssertionError|$)"))),
    cause(
    N.ZERO_UNTESTED_OPTIMIZER,
    Severity.ERROR,
    "A client optimizer ZeRO does not list, without zero_allow_untested_optimizer",
    _untested_optimizer,
    Docs(
        what="DeepSpeed refused the optimizer passed to `deepspeed.initialize`: `You are using an untested ZeRO "
              "Optimizer. Please add <\"zero_allow_untested_optimizer\": true> ...`.",
        why="With ZeRO enabled, DeepSpeed checks the client optimizer against the ones it tested "
              "(`is_zero_supported_optimizer`: Adam/AdamW/Lamb/...); any other class (Lion from a project, a custom "
              "optimizer) asserts unless the config allows it.",
        fix="Set `\"zero_allow_untested_optimizer\": true` in the DeepSpeed config, or use one of DeepSpeed's "
              "optimizers through its `\"optimizer\"` block.",
        examples=(log(N.ZERO_UNTESTED_OPTIMIZER, "A client torch.optim.Rprop passed to deepspeed.initialize under ZeRO-1:",
                   "[rank0]: AssertionError: You are using an untested ZeRO Optimizer. Please add "
                   "<\"zero_allow_untested_optimizer\": true> in the configuration file to use it.\n"),),
        reads="log"),
    signatures=(
              msg(K.MSG_UNTESTED_OPTIMIZER, "deepspeed/runtime/engine.py _configure_optimizer (0.8.3-0.19.8)",
                  "AssertionError: You are using an untested ZeRO Optimizer. Please add <\"zero_allow_untested_optimizer\": "
                  "true> in the configuration file to use it."),)),
    cause(
    N.DS_CONFIG_PATH_NOT_FOUND,
    Severity.ERROR,
    "The DeepSpeed config path does not exist (read as JSON/base64 text)",
    _path_not_found,
    Docs(
        what="The DeepSpeed config path given to the Trainer / Accelerate / DeepSpeed does not exist: the string was "
              "parsed as JSON or base64 instead (`Expected a string path to an existing deepspeed config ...`, or a "
              "`JSONDecodeError` / `UnicodeDecodeError` from `json.loads(config_file_or_dict)` / "
              "`base64.urlsafe_b64decode(config_file_or_dict)`).",
        why="HfDeepSpeedConfig (Transformers/Accelerate) and DeepSpeed read a string as a file only when "
              "`os.path.exists` is true; otherwise it is tried as inline JSON and as base64. The decode errors are "
              "consequences: the file was never opened, so editing it changes nothing.",
        fix="Fix the path (a typo, or a relative path resolved from another working directory): `ls -l` it from the "
              "directory the launcher starts the script in, or pass an absolute path.",
        examples=(log(N.DS_CONFIG_PATH_NOT_FOUND, "TrainingArguments(deepspeed=\"configs/ds_z2.jsn\") (a typo):",
                   "    config_decoded = base64.urlsafe_b64decode(config_file_or_dict).decode(\"utf-8\")\n"
                   "ValueError: Expected a string path to an existing deepspeed config, or a dictionary, or a base64 "
                   "encoded string. Received: configs/ds_z2.jsn\n"),),
        reads="log"),
    signatures=(
              msg(K.MSG_CONFIG_NOT_FOUND, "accelerate/utils/deepspeed.py HfDeepSpeedConfig (Accelerate 0.2x-1.15; "
                  "Transformers' HfDeepSpeedConfig) and deepspeed/runtime/config.py (0.9-0.19.8)",
                  "ValueError: Expected a string path to an existing deepspeed config, or a dictionary, or a base64 "
                  "encoded string. Received: configs/ds_z2.json"),
              rx("|".join(re.escape(c) for c in K.SRC_CONFIG_NOT_A_FILE), "(config_file_or_dict)",
                 "accelerate/utils/deepspeed.py HfDeepSpeedConfig.__init__'s fallbacks for a path that does not exist "
                 "(Accelerate 0.2x-1.15), seen as source lines of a traceback pasted without its frame lines",
                 "    config_decoded = base64.urlsafe_b64decode(config_file_or_dict).decode(\"utf-8\")"),
              frame("deepspeed.py", "__init__", "the same fallbacks in a traceback (Accelerate 0.2x-1.15)",
                    "Traceback (most recent call last):\n"
                    "  File \"/venv/lib/python3.11/site-packages/accelerate/utils/deepspeed.py\", line 148, in __init__\n"
                    "    config = json.loads(config_file_or_dict)\n"
                    "  File \"/usr/lib/python3.11/json/__init__.py\", line 346, in loads\n"
                    "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n",
                    anywhere=True, code="|".join(re.escape(c) for c in K.SRC_CONFIG_NOT_A_FILE)))),
)
