"""Causes in loading a model under ZeRO-3 (Transformers / Accelerate with DeepSpeed): from_pretrained's
low_cpu_mem_usage and device_map, quantized models ZeRO-3 cannot partition and parameters of mixed dtypes in one
gather. Partitioned parameters used, saved or replaced afterwards are in ``zero3_params.py``; a running ZeRO engine's
checkpoints and steps in ``zero_runtime.py``. The messages live in ``knowledge/transformers.py``."""

from __future__ import annotations

import re
from typing import Tuple

from ... import names as N
from ...knowledge import deepspeed as K
from ...knowledge import transformers as TK
from ...model import Fix, Severity
from .cause import Advice, Cause, Docs, LogFacts, Seen, cause, code_fix, form, frame, log, msg, rx

MODELING = "transformers/modeling_utils.py from_pretrained"
PARTITION = "deepspeed/runtime/zero/partition_parameters.py"
# 4.20-4.50's combined message retyped: its head misspelt or cut, its backticks as other quotes or none; the tail that
# names both arguments is the message's own
_QUOTE = "[`'\"\u2018\u2019\u201c\u201d]?"
_COMBINED_TAIL = TK.MSG_ZERO3_COMBINED.split("Zero-3 ", 1)[1].rstrip(".")
COMBINED_RETYPED = _QUOTE.join(re.escape(p) for p in _COMBINED_TAIL.split("`"))


def _zero3_load(name: str, text: str, f: LogFacts) -> Advice:
    guard = TK.zero3_load_guard(f.transformers)
    drop_map = code_fix("Do not pass device_map under ZeRO-3 (zero.Init places the weights)",
                        "from_pretrained(..., device_map=None)   # or: device_map=None if is_deepspeed_zero3_enabled() else dm")
    drop_low = code_fix("Remove low_cpu_mem_usage=True (ZeRO-3's zero.Init already loads with low memory)",
                        "from_pretrained(..., low_cpu_mem_usage=not is_deepspeed_zero3_enabled())")
    after = ""
    if guard is not None and guard[0] == "device_map":
        after = f" (Transformers {f.transformers} ignores low_cpu_mem_usage; only device_map raises.)"
    if name == N.ZERO3_DEVICE_MAP_CONFLICT:
        return Advice("from_pretrained was given a device_map while ZeRO-3 is enabled" + after, text, [drop_map])
    return Advice("from_pretrained was given low_cpu_mem_usage=True while ZeRO-3 is enabled", text, [drop_low])


def zero3_both(text: str) -> Advice:
    """The 4.20-4.50 combined message when the call line does not show which argument triggered it (a framework's
    loader may pass the device_map itself, for a pre-quantized checkpoint ZeRO-3 cannot partition either)."""
    return Advice("from_pretrained was given low_cpu_mem_usage=True or a device_map while ZeRO-3 is enabled "
                  "(the log does not show which: Transformers 4.20-4.50 print one message for both)", text,
                  [_zero3_load(N.ZERO3_LOW_CPU_MEM_USAGE_CONFLICT, text, LogFacts()).fixes[0],
                   _zero3_load(N.ZERO3_DEVICE_MAP_CONFLICT, text, LogFacts()).fixes[0],
                   _quantized(Seen(), LogFacts()).fixes[0]])


def _low_cpu_mem(s: Seen, f: LogFacts) -> Advice:
    return _zero3_load(N.ZERO3_LOW_CPU_MEM_USAGE_CONFLICT, s.text, f)


def _device_map(s: Seen, f: LogFacts) -> Advice:
    return _zero3_load(N.ZERO3_DEVICE_MAP_CONFLICT, s.text, f)


def quant_storage_fix(title: str) -> Fix:
    return code_fix(title, "BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_storage=torch.bfloat16), torch_dtype=torch.bfloat16",
                    reason="needs " + ", ".join(TK.QLORA_ZERO3_REQUIRES))


def _quantized(s: Seen, f: LogFacts) -> Advice:
    return Advice("A quantized model ZeRO-3 cannot partition", "",
                  [code_fix("Train a pre-quantized (GPTQ/AWQ/PTQ) model with ZeRO-2, or start from the fp16/bf16 weights",
                            'ds_config: "zero_optimization": {"stage": 2}',
                            reason="ZeRO-3 partitions parameters at load time; packed int weights cannot be split"),
                   quant_storage_fix("QLoRA under ZeRO-3: quantize on the fly with a storage dtype ZeRO-3 can gather")])


def _mixed_dtypes(s: Seen, f: LogFacts) -> Advice:
    return Advice("Parameters of different dtypes in one ZeRO-3 gather: the flat all-gather needs one dtype", "",
                  [code_fix("Give every parameter the training dtype before deepspeed.initialize / the Trainer",
                            "model.to(torch.bfloat16)   # or: for p in model.parameters(): p.data = p.data.to(torch.bfloat16)",
                            reason="LoRA / new heads / resized embeddings created in fp32 next to bf16/fp16 weights; "
                                   "the ds_config fp16/bf16 block must match the dtype the model is loaded in"),
                   quant_storage_fix("Only if the model is loaded in 4-bit (QLoRA): store the 4-bit weights in the "
                                      "training dtype")])


SPECS: Tuple[Cause, ...] = (
    form(N.ZERO3_LOW_CPU_MEM_USAGE_CONFLICT, _low_cpu_mem, signatures=(
              msg(TK.MSG_ZERO3_LOW_MEM_411, f"{MODELING} (Transformers 4.11-4.18)",
                  "ValueError: low_cpu_mem_usage arg cannot be used with DeepSpeed ZeRO-3"),
              msg(TK.MSG_ZERO3_LOW_MEM_419, f"{MODELING} (Transformers 4.19)",
                  "ValueError: low_cpu_mem_usage arg cannot currently be used with DeepSpeed ZeRO-3"),
              # 4.20-4.50 print one message for both arguments: diagnose decides between the two names
              msg(TK.MSG_ZERO3_COMBINED, f"{MODELING} (Transformers 4.20-4.50)",
                  "ValueError: DeepSpeed Zero-3 is not compatible with `low_cpu_mem_usage=True` or with passing a "
                  "`device_map`."),
              rx(COMBINED_RETYPED, "or with passing a", f"{MODELING} (Transformers 4.20-4.50), the message retyped (a "
                 "misspelt head, other quotes)", "ValueError: DeepSpeed ZeRO3 is not compatible with 'low_cpu_mem_usage=True' "
                 "or with passing a 'device_map'.")), log_examples=(
              log("zero3-low-cpu-mem-tf4.46.3", "`dsdoctor explain` on the failed run (Transformers 4.46.3):",
                  "  File \"/home/user/proj/train.py\", line 7, in <module>\n"
                  "    m = LlamaForCausalLM.from_pretrained(d, low_cpu_mem_usage=True)\n"
                  "  File \"/opt/envs/hf/tf4.46.3/transformers/modeling_utils.py\", line 3573, in from_pretrained\n"
                  "    raise ValueError(\n"
                  "ValueError: DeepSpeed Zero-3 is not compatible with `low_cpu_mem_usage=True` or with passing a "
                  "`device_map`.\n"),)),
    form(N.ZERO3_DEVICE_MAP_CONFLICT, _device_map, signatures=(
              msg(TK.MSG_ZERO3_DEVICE_MAP, f"{MODELING} (Transformers 4.51-5.x)",
                  "ValueError: DeepSpeed Zero-3 is not compatible with passing a `device_map`."),
              msg(TK.MSG_DEVICE_MAP_NEEDS_LOW_MEM, f"{MODELING} (Transformers 4.20-4.49; ZeRO-3 sets low_cpu_mem_usage=False)",
                  "ValueError: Passing along a `device_map` requires `low_cpu_mem_usage=True`"),
              msg(TK.MSG_ACCELERATE_DEVICE_MAP_AUTO, "accelerate/accelerator.py prepare_model (Accelerate 0.2x-1.15)",
                  "ValueError: You can't train a model that has been loaded with `device_map='auto'` in any "
                  "distributed mode. Please rerun your script specifying `--num_processes=1` or by launching with "
                  "`python {{myscript.py}}`.")), log_examples=(
              log("zero3-device-map-tf5.24.0", "`dsdoctor explain` on the failed run (Transformers 5.24.0):",
                  "  File \"/home/user/proj/train.py\", line 7, in <module>\n"
                  "    m = LlamaForCausalLM.from_pretrained(d, device_map='auto')\n"
                  "    raise ValueError(\"DeepSpeed Zero-3 is not compatible with passing a `device_map`.\")\n"
                  "ValueError: DeepSpeed Zero-3 is not compatible with passing a `device_map`.\n"),)),
    cause(
    N.ZERO3_QUANTIZED_MODEL_CONFLICT,
    Severity.ERROR,
    "A quantized model loaded in a way ZeRO-3 cannot partition",
    _quantized,
    Docs(
        what="A pre-quantized model (GPTQ / AWQ / other post-training quantization) was loaded for training under "
              "ZeRO-3: the framework refuses it (`DeepSpeed ZeRO-3 or FSDP is incompatible with PTQ-quantized models`), "
              "or ZeRO-3 fails to partition the packed weights.",
        why="ZeRO-3 partitions every parameter while the model is built (zero.Init); packed integer weights and their "
              "scales cannot be split and gathered like float tensors.",
        fix="Train the pre-quantized model with ZeRO-2, or start from the fp16/bf16 weights and quantize on the fly "
              "with a storage dtype ZeRO-3 can gather: `BitsAndBytesConfig(load_in_4bit=True, "
              f"bnb_4bit_quant_storage=torch.bfloat16)` (needs {', '.join(TK.QLORA_ZERO3_REQUIRES)}). `dsdoctor lint` "
              "finds 8-bit / GPTQ / AWQ models under ZeRO-3 "
              "in the script (zero3-unsupported-quantization, DS507).",
        examples=(log("zero3-ptq-llamafactory", "LLaMA-Factory asked to fine-tune a GPTQ checkpoint with a ZeRO-3 config:",
                   "[rank0]:     raise ValueError(\"DeepSpeed ZeRO-3 or FSDP is incompatible with PTQ-quantized models.\")\n"
                   "[rank0]: ValueError: DeepSpeed ZeRO-3 or FSDP is incompatible with PTQ-quantized models.\n"),),
        reads="log"),
    signatures=(
              msg(TK.MSG_LLAMAFACTORY_PTQ, "LLaMA-Factory src/llamafactory/model/model_utils/quantization.py "
                  "configure_quantization (0.8.3-0.9.3)",
                  "ValueError: DeepSpeed ZeRO-3 or FSDP is incompatible with PTQ-quantized models."),
              # a paste often stops inside the model's __init__: the frames still show a pre-quantized checkpoint's
              # loader building the model inside zero.Init
              frame(".py", "from_quantized", "AutoAWQ awq/models/base.py from_quantized -> from_config (0.2.x, read in "
                    f"0.2.9; AutoGPTQ's from_quantized alike) building the model inside zero.Init ({PARTITION} wrapper, "
                    "DeepSpeed 0.8-0.19.8)",
                    "Traceback (most recent call last):\n"
                    "  File \"/home/user/proj/train.py\", line 30, in <module>\n"
                    "    model = AutoAWQForCausalLM.from_quantized(args.model, fuse_layers=False)\n"
                    "  File \"/venv/lib/python3.11/site-packages/awq/models/base.py\", line 498, in from_quantized\n"
                    "    model = target_cls.from_config(\n"
                    "  File \"/venv/lib/python3.11/site-packages/transformers/modeling_utils.py\", line 1318, in _from_config\n"
                    "    model = cls(config, **kwargs)\n"
                    f"  File \"/venv/lib/python3.11/site-packages/{PARTITION}\", line 511, in wrapper\n"
                    "    f(module, *args, **kwargs)\n",
                    anywhere=True, below=(PARTITION, "wrapper")),
              # named only in a context the log shows (explain/context.py): ZeRO-3 for the first, a quantized load for
              # the second; otherwise the line alone names no cause
              rx(r"[Oo]nly Tensors of floating point (?:and complex )?dtype can require gradients", "dtype can require "
                 "gradients", "torch autograd (c10, torch 1.x-2.14): requires_grad on an integer tensor, the packed weights "
                 "of a quantized model ZeRO-3 made trainable",
                 "RuntimeError: Only Tensors of floating point and complex dtype can require gradients"),
              frame(PARTITION, "*", f"torch's meta-tensor copy inside zero.Init ({PARTITION}, DeepSpeed 0.8-0.19.8): a "
                    "quantized loader's meta parameters partitioned",
                    "Traceback (most recent call last):\n"
                    "  File \"/home/user/proj/train.py\", line 30, in <module>\n"
                    "    model = AutoModelForCausalLM.from_pretrained(name, quantization_config=BitsAndBytesConfig(load_in_4bit=True))\n"
                    f"  File \"/venv/lib/python3.11/site-packages/{PARTITION}\", line 1101, in _partition_param\n"
                    "    param.ds_tensor.copy_(src_tensor)\n"
                    "NotImplementedError: Cannot copy out of meta tensor; no data!\n",
                    exc=r"^NotImplementedError: Cannot copy out of meta tensor", anywhere=True)),
    predicted=N.ZERO3_UNSUPPORTED_QUANTIZATION),
    cause(
    N.ZERO3_MIXED_PARAM_DTYPES,
    Severity.ERROR,
    "Parameters of different dtypes in one ZeRO-3 all-gather",
    _mixed_dtypes,
    Docs(
        what="ZeRO-3 failed to gather a group of parameters because they do not share one dtype: `output tensor must "
              "have the same type as input tensor` or `expected there to be only one unique element in <generator "
              "... all_gather_coalesced ...>`.",
        why="ZeRO-3 all-gathers the partitions of a module's parameters into one flat buffer of a single dtype. "
              "Parameters added in fp32 (LoRA adapters, a new head, resized embeddings) next to fp16/bf16 weights, a "
              "config whose fp16/bf16 block does not match the loaded dtype, or 4-bit weights stored as uint8 (QLoRA "
              "without `bnb_4bit_quant_storage`) all break it.",
        fix="Give every parameter the training dtype before `deepspeed.initialize` / the Trainer (e.g. "
              "`model.to(torch.bfloat16)`, and the same dtype in the ds_config's bf16/fp16 block). For QLoRA store the "
              "4-bit weights in that dtype: `BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_storage=torch.bfloat16)`; "
              "`dsdoctor lint` finds that one in the script (qlora-quant-storage-missing, DS506).",
        examples=(log("zero3-quantized-qlora",
                   "QLoRA under ZeRO-3 without bnb_4bit_quant_storage:",
                   "[rank1]:   File \"/venv/lib/python3.11/site-packages/deepspeed/runtime/zero/partition_parameters.py\", "
                   "line 1152, in _all_gather_dtype\n"
                   "[rank1]:     handle = _dist_allgather_fn(partitions[rank_in_group], flat_tensor, ds_process_group)\n"
                   "[rank1]: TypeError: output tensor must have the same type as input tensor\n"),),
        reads="log"),
    signatures=(
              msg(TK.MSG_DTYPE_MIXED, "torch/distributed/distributed_c10d.py all_gather_into_tensor, via DeepSpeed "
                  f"{PARTITION} _all_gather_dtype (torch 2.x, DeepSpeed 0.10-0.19)",
                  "TypeError: output tensor must have the same type as input tensor",
                  "RuntimeError: output tensor must have the same type as input tensor"),
              msg(K.MSG_UNIQUE_ITEM, f"deepspeed/runtime/utils.py get_only_unique_item, from {PARTITION} "
                  "all_gather_coalesced (0.8-0.19.8)",
                  "RuntimeError: expected there to be only one unique element in <generator object "
                  "Init._convert_to_deepspeed_param.<locals>.all_gather_coalesced.<locals>.<genexpr> at 0x7f00c0ffee00>"),
              rx(re.escape(K.SRC_UNIQUE_DTYPE), K.SRC_UNIQUE_DTYPE, f"{PARTITION} all_gather_coalesced's source line, the "
                 "call that raises it (0.8-0.19.8), as a boxed (rich) or headless traceback shows it when the message is cut",
                 "│ ❱ 1204 │   │   │   │   │   dtype=get_only_unique_item(p.dtype for p in params),          │"),
              frame("deepspeed/runtime/zero/stage3.py", "defragment", "deepspeed/runtime/zero/stage3.py defragment's "
                    "assert (0.6-0.19.8): the trainable parameters flattened into one buffer have mixed dtypes",
                    "Traceback (most recent call last):\n"
                    '  File "/venv/lib/python3.11/site-packages/deepspeed/runtime/zero/stage3.py", line 577, in defragment\n'
                    "    assert len(set(t.dtype for t in tensors)) == 1\n"
                    "AssertionError\n", code=re.escape(K.SRC_DEFRAGMENT_DTYPE))),
    predicted=N.QLORA_QUANT_STORAGE_MISSING),
)
