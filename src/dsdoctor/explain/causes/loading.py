"""Causes around ZeRO-3 model loading, partitioned parameters and saving (Transformers / Accelerate / PEFT
with DeepSpeed). The messages live in ``knowledge/transformers.py``."""

from __future__ import annotations

import re
from typing import Tuple

from ... import fixes as F
from ... import names as N
from ...knowledge import cuda as CK
from ...knowledge import deepspeed as K
from ...knowledge import transformers as TK
from ...model import Fix, Severity
from .spec import Advice, Cause, Docs, LogFacts, Seen, cause, code_fix, form, frame, log, msg, rx

MODELING = "transformers/modeling_utils.py from_pretrained"
PARTITION = "deepspeed/runtime/zero/partition_parameters.py"
LOAD_STATE = "torch/nn/modules/module.py load_state_dict size mismatch (torch 1.x-2.14)"
SET_TENSOR = "accelerate/utils/modeling.py set_module_tensor_to_device (0.2x-1.x)"
# its message with the new value's and the placeholder's shapes (one of them torch.Size([0]))
_SET_TENSOR = r'Trying to set a tensor of shape torch\.Size\(\[%s\]\) in "[^"]{1,200}" \(which has shape torch\.Size\(\[%s\]\)\)'



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
    """The 4.20-4.50 combined message when the call line does not show which argument triggered it."""
    return Advice("from_pretrained was given low_cpu_mem_usage=True or a device_map while ZeRO-3 is enabled "
                  "(the log does not show which: Transformers 4.20-4.50 print one message for both)", text,
                  [_zero3_load(N.ZERO3_LOW_CPU_MEM_USAGE_CONFLICT, text, LogFacts()).fixes[0],
                   _zero3_load(N.ZERO3_DEVICE_MAP_CONFLICT, text, LogFacts()).fixes[0]])


def _low_cpu_mem(s: Seen, f: LogFacts) -> Advice:
    return _zero3_load(N.ZERO3_LOW_CPU_MEM_USAGE_CONFLICT, s.text, f)


def _device_map(s: Seen, f: LogFacts) -> Advice:
    return _zero3_load(N.ZERO3_DEVICE_MAP_CONFLICT, s.text, f)


def _gather_fix() -> Fix:
    return code_fix("Gather the parameters around the code that reads them",
                    "with deepspeed.zero.GatheredParameters(list(module.parameters()), modifier_rank=None): ...")


def _quant_storage_fix(title: str) -> Fix:
    return code_fix(title, "BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_storage=torch.bfloat16), torch_dtype=torch.bfloat16",
                    reason="needs " + ", ".join(TK.QLORA_ZERO3_REQUIRES))


def _quantized(s: Seen, f: LogFacts) -> Advice:
    return Advice("A quantized model ZeRO-3 cannot partition", "",
                  [code_fix("Train a pre-quantized (GPTQ/AWQ/PTQ) model with ZeRO-2, or start from the fp16/bf16 weights",
                            'ds_config: "zero_optimization": {"stage": 2}',
                            reason="ZeRO-3 partitions parameters at load time; packed int weights cannot be split"),
                   _quant_storage_fix("QLoRA under ZeRO-3: quantize on the fly with a storage dtype ZeRO-3 can gather")])


def _mixed_dtypes(s: Seen, f: LogFacts) -> Advice:
    return Advice("Parameters of different dtypes in one ZeRO-3 gather: the flat all-gather needs one dtype", "",
                  [code_fix("Give every parameter the training dtype before deepspeed.initialize / the Trainer",
                            "model.to(torch.bfloat16)   # or: for p in model.parameters(): p.data = p.data.to(torch.bfloat16)",
                            reason="LoRA / new heads / resized embeddings created in fp32 next to bf16/fp16 weights; "
                                   "the ds_config fp16/bf16 block must match the dtype the model is loaded in"),
                   _quant_storage_fix("Only if the model is loaded in 4-bit (QLoRA): store the 4-bit weights in the "
                                      "training dtype")])


def _meta_load_into_partition(s: Seen, f: LogFacts) -> Advice:
    return Advice("from_pretrained's meta-device loader wrote a full checkpoint tensor into a ZeRO-3 placeholder (size 0)",
                  "",
                  [code_fix("Let zero.Init load the weights: no low_cpu_mem_usage=True / device_map under ZeRO-3",
                            "from_pretrained(name, torch_dtype=torch.bfloat16)   # no device_map, no low_cpu_mem_usage"),
                   _quant_storage_fix("A 4-bit (QLoRA) load under ZeRO-3 needs releases that gather 4-bit weights, or "
                                      "train it with ZeRO-2")])


def _partitioned_access(s: Seen, f: LogFacts) -> Advice:
    if TK.MSG_SET_TENSOR_SHAPE in s.text:
        return _meta_load_into_partition(s, f)
    return Advice("A ZeRO-3 partitioned parameter (size 0 on this rank) was used outside a gather", "",
                  [code_fix("Run the model through the DeepSpeed engine (a reference / frozen model too: "
                            "deepspeed.initialize or accelerator.prepare it), or build it outside zero.Init",
                            "ref_engine, *_ = deepspeed.initialize(model=ref_model, config=ds_config)",
                            reason="under ZeRO-3 only the engine's forward gathers the weights"),
                   _gather_fix(),
                   code_fix("Loading a full checkpoint into a zero.Init model: load with from_pretrained, or inside a gather",
                            "with deepspeed.zero.GatheredParameters(list(model.parameters()), modifier_rank=0): "
                            "model.load_state_dict(sd)")])


def _saved_partitioned(s: Seen, f: LogFacts) -> Advice:
    return Advice("Weights were saved from ZeRO-3 without gathering them (size-0 tensors or no weights)", "",
                  [code_fix("Gather 16-bit weights on save",
                            'ds_config: "zero_optimization": {"stage3_gather_16bit_weights_on_model_save": true}'),
                   code_fix("Or save through the Trainer / consolidate the checkpoint", "trainer.save_model(out)",
                            "python <checkpoint>/zero_to_fp32.py <checkpoint> <out_dir>")])


def _moved_quantized(s: Seen, f: LogFacts) -> Advice:
    return Advice("The DeepSpeed engine moved a bitsandbytes-quantized model to its device, which Transformers refuses",
                  "",
                  [F.pip_fix("bitsandbytes>=0.43.2", "4-bit: upgrade bitsandbytes (and Transformers) so .to() is allowed"),
                   code_fix("8-bit: load in 4-bit, or keep the quantized model out of deepspeed.initialize",
                            "BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_storage=torch.bfloat16)")])


def _create_reference_model(s: Seen, f: LogFacts) -> Advice:
    return Advice("TRL's create_reference_model() cannot copy a ZeRO-3 partitioned model", "",
                  [code_fix("Load the reference model on its own (TRL then prepares it with DeepSpeed)",
                            "ref_model = AutoModelForCausalLM.from_pretrained(name)   # instead of create_reference_model(model)"),
                   code_fix("Or pass ref_model=None with a PEFT model (the adapter-disabled policy is the reference)",
                            "DPOTrainer(model, ref_model=None, peft_config=lora_config, ...)")])


def _not_converted(s: Seen, f: LogFacts) -> Advice:
    return Advice("A parameter without ZeRO-3's ds_* attributes reached ZeRO-3 code: it was never converted by zero.Init "
                  "or was replaced afterwards", "",
                  [code_fix("Build the model under zero.Init: create TrainingArguments(deepspeed=...) / HfDeepSpeedConfig "
                            "before from_pretrained",
                            "args = TrainingArguments(..., deepspeed=cfg); model = AutoModel.from_pretrained(...)",
                            reason="parameters created before, or added after (new heads, PEFT modules built outside the "
                                   "Trainer), are plain tensors"),
                   code_fix("Model code that replaces a parameter (self.weight = nn.Parameter(...)) drops the ds_* "
                            "attributes: update it in place instead",
                            "self.weight.data = torch.nn.functional.normalize(self.weight.data)",
                            reason="e.g. a remote-code head that re-creates its weight on the first forward")])


def _zeropp_hpz(s: Seen, f: LogFacts) -> Advice:
    return Advice("ZeRO++ hierarchical partitioning (zero_hpz_partition_size > 1) was set up twice: a second model was "
                  "built under zero.Init in the same process", "",
                  [code_fix("Use hpZ with one zero.Init model per process, or turn it off",
                            'ds_config: "zero_optimization": {"zero_hpz_partition_size": 1}',
                            reason="DeepSpeed creates the intra-node parameter group once (utils/groups.py) and asserts "
                                   "on the second")])


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


SPECS: Tuple[Cause, ...] = (
    form(N.ZERO3_LOW_CPU_MEM_USAGE_CONFLICT, _low_cpu_mem, signatures=(
              msg(TK.MSG_ZERO3_LOW_MEM_411, f"{MODELING} (Transformers 4.11-4.18)",
                  "ValueError: low_cpu_mem_usage arg cannot be used with DeepSpeed ZeRO-3"),
              msg(TK.MSG_ZERO3_LOW_MEM_419, f"{MODELING} (Transformers 4.19)",
                  "ValueError: low_cpu_mem_usage arg cannot currently be used with DeepSpeed ZeRO-3"),
              # 4.20-4.50 print one message for both arguments: diagnose decides between the two names
              msg(TK.MSG_ZERO3_COMBINED, f"{MODELING} (Transformers 4.20-4.50)",
                  "ValueError: DeepSpeed Zero-3 is not compatible with `low_cpu_mem_usage=True` or with passing a "
                  "`device_map`.")), log_examples=(
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
              msg(TK.MSG_DEVICE_MAP_NEEDS_LOW_MEM, f"{MODELING} (Transformers 4.20-4.50; ZeRO-3 sets low_cpu_mem_usage=False)",
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
                    anywhere=True, below=(PARTITION, "wrapper"))),
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
    cause(
    N.ZERO3_PARTITIONED_PARAM_ACCESS,
    Severity.ERROR,
    "A ZeRO-3 partitioned parameter used outside a gather (size-0 weights)",
    _partitioned_access,
    Docs(
        what="A ZeRO-3 partitioned parameter (size 0 on this rank) was used outside a gather: e.g. the model called "
              "directly instead of through the engine, or a weight read in custom code (`'weight' must be 2-D`).",
        why="Under ZeRO-3 each rank holds only its partition; the full tensor exists only inside the engine's "
              "forward or a `GatheredParameters` block.",
        fix="Gather the parameters around the code that reads them: `with "
              "deepspeed.zero.GatheredParameters(list(module.parameters()), modifier_rank=None): ...` (or run the "
              "model through the DeepSpeed engine).",
        examples=(log("zero3-partitioned-forward", "A model built under zero.Init, called outside the engine:",
                   "[rank0]:   File \"/opt/envs/venv/lib/python3.11/site-packages/torch/nn/functional.py\", line 2621, in "
                   "embedding\n"
                   "[rank0]:     return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)\n"
                   "[rank0]: RuntimeError: 'weight' must be 2-D\n"),),
        reads="log"),
    signatures=(
              msg(TK.MSG_WEIGHT_2D, "torch/nn/functional.py embedding (torch 1.x-2.14) on a size-0 ZeRO-3 weight",
                  "RuntimeError: 'weight' must be 2-D"),
              msg(TK.MSG_SIZE0_CURRENT, f"{LOAD_STATE}: the model side is a ZeRO-3 partition",
                  "size mismatch for model.layers.0.mlp.up_proj.weight: copying a param with shape torch.Size([11008, "
                  "4096]) from checkpoint, the shape in current model is torch.Size([0])."),
              rx(r"The size of tensor a \(0\) must match the size of tensor b \(\d{1,9}\)|"
                 r"The size of tensor a \(\d{1,9}\) must match the size of tensor b \(0\)",
                 "must match the size of tensor b", "ATen broadcasting check (torch 1.x-2.14) with a size-0 ZeRO-3 partition",
                 "RuntimeError: The size of tensor a (0) must match the size of tensor b (2048) at non-singleton dimension 1"),
              rx(r"shape '\[(?:-?\d{1,12}, ){0,6}0(?:, -?\d{1,12}){0,6}\]' is invalid for input of size",
                 "' is invalid for input of size", "ATen InferSize.h view/reshape (torch 1.x-2.14) to a size read from a "
                 "partitioned parameter (e.g. config.vocab_size from a size-0 embedding)",
                 "RuntimeError: shape '[-1, 0]' is invalid for input of size 1048576"),
              rx(r"The expanded size of the tensor \(\d{1,9}\) must match the existing size \(0\) at non-singleton",
                 "must match the existing size (0)", "ATen expand (torch 1.x-2.14) of a size-0 ZeRO-3 partition",
                 "RuntimeError: The expanded size of the tensor (4096) must match the existing size (0) at non-singleton "
                 "dimension 0.  Target sizes: [4096, 16, 1].  Tensor sizes: [0, 1, 1]"),
              # a weight printed (state_dict(), a parameter) as an empty tensor: its partition on this rank
              rx(r"(?:weight|bias)'?,? tensor\(\[\], (?:device|dtype|size)=", "tensor([], ",
                 "torch Tensor repr of a size-0 ZeRO-3 partition (torch 1.x-2.14)",
                 "('model.embed_tokens.weight', tensor([], device='cuda:0', dtype=torch.bfloat16))"),
              # from_pretrained's meta-device loader (low_cpu_mem_usage, device_map, a bitsandbytes load) writing a full
              # checkpoint tensor into a zero.Init placeholder
              rx(_SET_TENSOR % (r"[\d, ]{1,60}", "0"), TK.MSG_SET_TENSOR_SHAPE, f"{SET_TENSOR}: the model side is a "
                 "ZeRO-3 partition", 'ValueError: Trying to set a tensor of shape torch.Size([32000, 4096]) in "weight" '
                 "(which has shape torch.Size([0])), this looks incorrect."),
              frame("torch/nn/functional.py", "linear", "torch/nn/functional.py linear -> torch.addmm (torch 1.x) on a "
                    "1-D size-0 ZeRO-3 weight", "Traceback (most recent call last):\n"
                    '  File "/venv/lib/python3.7/site-packages/torch/nn/functional.py", line 1690, in linear\n'
                    "    ret = torch.addmm(bias, input, weight.t())\n"
                    "RuntimeError: tensors must be 2-D\n", exc=re.escape(TK.MSG_TENSORS_2D)))),
    cause(
    N.ZERO3_SAVED_PARTITIONED_WEIGHTS,
    Severity.ERROR,
    "Weights saved from ZeRO-3 without gathering (size-0 tensors / no weights)",
    _saved_partitioned,
    Docs(
        what="Weights saved from ZeRO-3 without gathering: loading them finds size-0 tensors (`copying a param with "
              "shape torch.Size([0])`), PEFT adapters saved empty, or accelerate/Trainer refusing to save without "
              "`stage3_gather_16bit_weights_on_model_save`.",
        why="`model.save_pretrained()` / `state_dict()` on a ZeRO-3 model writes each rank's partition (size 0) "
              "unless the 16-bit weights are gathered on save.",
        fix="Gather 16-bit weights on save (ds_config `\"zero_optimization\": "
              "{\"stage3_gather_16bit_weights_on_model_save\": true}`), or save through the Trainer "
              "(`trainer.save_model(out)`) / consolidate the checkpoint (`python <checkpoint>/zero_to_fp32.py "
              "<checkpoint> <out_dir>`). `dsdoctor lint` finds the save in the script (zero3-unsafe-save, DS510).",
        examples=(log("zero3-saved-partitioned", "Loading a LoRA adapter that was saved under ZeRO-3:",
                   "Traceback (most recent call last):\n"
                   "  File \"/home/user/proj/infer.py\", line 9, in <module>\n"
                   "    model = PeftModel.from_pretrained(base, \"out/adapter\")\n"
                   "RuntimeError: Error(s) in loading state_dict for PeftModelForCausalLM:\n"
                   "\tsize mismatch for base_model.model.model.layers.0.self_attn.q_proj.lora_B.default.weight: copying a "
                   "param with shape torch.Size([0]) from checkpoint, the shape in current model is torch.Size([4096, "
                   "16]).\n"),),
        reads="log"),
    signatures=(
              msg(TK.MSG_SIZE0_CHECKPOINT, "torch/nn/modules/module.py load_state_dict size mismatch (torch 1.x-2.14)",
                  "size mismatch for base_model.model.model.layers.0.self_attn.q_proj.lora_B.default.weight: copying a "
                  "param with shape torch.Size([0]) from checkpoint, the shape in current model is torch.Size([4096, 16])."),
              rx(_SET_TENSOR % ("0", r"[\d, ]{1,60}"), TK.MSG_SET_TENSOR_SHAPE, f"{SET_TENSOR}: the checkpoint side is an "
                 "empty partition", 'ValueError: Trying to set a tensor of shape torch.Size([0]) in "weight" (which has '
                 "shape torch.Size([32000, 4096])), this looks incorrect."),
              msg(TK.MSG_PEFT_UNGATHERED, "peft/utils/save_and_load.py, warning on save (PEFT 0.21.2)",
                  "UserWarning: Adapter 'default': 2 LoRA tensor(s) have invalid shape: "
                  "base_model.model.model.layers.0.self_attn.q_proj.lora_A.default.weight:torch.Size([0]). A 1-D or "
                  "zero-sized lora_A / lora_B tensor indicates that DeepSpeed ZeRO-3 / FSDP shards were not gathered "
                  "before save_pretrained() and are therefore incomplete."),
              msg(TK.MSG_ACCELERATE_NO_16BIT, "accelerate/accelerator.py get_state_dict (Accelerate 0.2x-1.15)",
                  "ValueError: Cannot get 16bit model weights because `stage3_gather_16bit_weights_on_model_save` in "
                  "DeepSpeed config is False. To save the model weights in 16bit, set "
                  "`stage3_gather_16bit_weights_on_model_save` to True in DeepSpeed config file or set "
                  "`zero3_save_16bit_model` to True when using `accelerate config`. To save the full checkpoint, run "
                  "`model.save_checkpoint(save_dir)` and use `zero_to_fp32.py` to recover weights."),
              msg(TK.MSG_GATHER_16BIT_FALSE, "transformers/trainer.py save_model warning (Transformers 4.2x-5.x)",
                  "stage3_gather_16bit_weights_on_model_save=false. Saving the full checkpoint instead, use "
                  "zero_to_fp32.py to recover weights", note=True)),
    predicted=N.ZERO3_UNSAFE_SAVE),
    cause(
    N.DEEPSPEED_MOVES_QUANTIZED_MODEL,
    Severity.ERROR,
    "deepspeed.initialize moved a bitsandbytes-quantized model",
    _moved_quantized,
    Docs(
        what="`deepspeed.initialize` failed while moving a bitsandbytes 4-bit/8-bit model to its GPU: Transformers "
              "raises ``ValueError: `.to` is not supported for `8-bit` bitsandbytes models``.",
        why="DeepSpeed's engine calls `module.to(device)` on the model it wraps (engine.py "
              "`_configure_distributed_model`). Transformers forbids moving 8-bit models, and 4-bit ones with "
              "bitsandbytes < 0.43.2.",
        fix="For 4-bit: `pip install 'bitsandbytes>=0.43.2'` with a current Transformers. For 8-bit: load in 4-bit "
              "instead, or keep the quantized model out of `deepspeed.initialize`.",
        examples=(log(N.DEEPSPEED_MOVES_QUANTIZED_MODEL, "An 8-bit model handed to deepspeed.initialize:",
                   "  File \"/venv/lib/python3.11/site-packages/deepspeed/runtime/engine.py\", line 1311, in "
                   "_configure_distributed_model\n"
                   "    self.module.to(self.device)\n"
                   "ValueError: `.to` is not supported for `8-bit` bitsandbytes models. Please use the model as it is, "
                   "since the model has already been set to the correct devices and casted to the correct `dtype`.\n"),),
        reads="log"),
    signatures=(
              msg(TK.MSG_BNB_TO, "transformers/modeling_utils.py PreTrainedModel.to (4.30-5.x), called by DeepSpeed "
                  "engine.py _configure_distributed_model",
                  "ValueError: `.to` is not supported for `8-bit` bitsandbytes models. Please use the model as it is, "
                  "since the model has already been set to the correct devices and casted to the correct `dtype`."),)),
    cause(
    N.ZERO3_CREATE_REFERENCE_MODEL,
    Severity.ERROR,
    "TRL create_reference_model() under ZeRO-3",
    _create_reference_model,
    Docs(
        what="TRL refused to build a reference model by copying the policy: ``DeepSpeed ZeRO-3 is enabled and is not "
              "compatible with `create_reference_model()` ``.",
        why="`create_reference_model()` deep-copies the policy model; under ZeRO-3 its parameters are partitions, so "
              "the copy would share or lose them.",
        fix="Load the reference model on its own with `from_pretrained` (TRL prepares it with DeepSpeed), or with a "
              "PEFT model pass `ref_model=None` so the adapter-disabled policy serves as the reference.",
        examples=(log(N.ZERO3_CREATE_REFERENCE_MODEL, "A DPO script calling create_reference_model under ZeRO-3:",
                   "[rank0]:     raise ValueError(\n"
                   "[rank0]: ValueError: DeepSpeed ZeRO-3 is enabled and is not compatible with `create_reference_model()`. "
                   "Please instantiate your reference model directly with `AutoModelForCausalLM.from_pretrained()`.\n"),),
        reads="log"),
    signatures=(
              msg(TK.MSG_TRL_REF_MODEL, "trl/models/modeling_base.py create_reference_model (TRL 0.7-0.19; "
                  "trl/experimental/utils.py in 1.x)",
                  "ValueError: DeepSpeed ZeRO-3 is enabled and is not compatible with `create_reference_model()`. "
                  "Please instantiate your reference model directly with `AutoModelForCausalLM.from_pretrained()`."),)),
    cause(
    N.ZERO3_PARAM_NOT_CONVERTED,
    Severity.ERROR,
    "A parameter without ZeRO-3's ds_* attributes reached ZeRO-3 code",
    _not_converted,
    Docs(
        what="ZeRO-3 code met a parameter without the `ds_*` attributes zero.Init attaches: `'Parameter' object has "
              "no attribute 'ds_numel'` / `'ds_status'` / `'ds_id'`.",
        why="Under ZeRO-3 every parameter is converted when the model is built inside zero.Init. A model built before "
              "ZeRO-3 was registered (TrainingArguments(deepspeed=...) / HfDeepSpeedConfig created after "
              "from_pretrained), a module added afterwards outside the Trainer, or model code that replaces a parameter "
              "(`self.weight = nn.Parameter(...)`) leaves plain tensors.",
        fix="Create TrainingArguments(deepspeed=...) (or keep an HfDeepSpeedConfig alive) before from_pretrained; add "
              "modules before the engine is built; in model code update parameters in place "
              "(`self.weight.data = ...`) instead of replacing them. `dsdoctor lint` finds the first one in the script "
              "(model-loaded-before-ds-config, DS502).",
        examples=(log(N.ZERO3_PARAM_NOT_CONVERTED, "The Trainer counting parameters of a model built before ZeRO-3 was set up:",
                   "  File \"/venv/lib/python3.11/site-packages/transformers/trainer_pt_utils.py\", line 1102, in numel\n"
                   "    return p.ds_numel\n"
                   "AttributeError: 'Parameter' object has no attribute 'ds_numel'\n"),),
        reads="log"),
    signatures=(
              rx(r"'Parameter' object has no attribute 'ds_[a-z_]{2,30}'", "object has no attribute 'ds_",
                 f"Python AttributeError on a parameter DeepSpeed {PARTITION} never converted (ds_numel read by "
                 "transformers trainer_pt_utils.py get_model_param_count, ds_status by the ZeRO-3 fetch; 0.8-0.19.8)",
                 "AttributeError: 'Parameter' object has no attribute 'ds_numel'",
                 "AttributeError: 'Parameter' object has no attribute 'ds_status'"),),
    predicted=N.MODEL_LOADED_BEFORE_DS_CONFIG),
    cause(
    N.ZEROPP_HPZ_SECOND_MODEL,
    Severity.ERROR,
    "ZeRO++ hpZ with a second zero.Init model in the process",
    _zeropp_hpz,
    Docs(
        what="DeepSpeed asserted `ZeRO parameter intra parallel group is already initialized`: ZeRO++ hierarchical "
              "partitioning (`zero_hpz_partition_size` > 1) was set up a second time.",
        why="With hpZ, each zero.Init creates the intra-node parameter process group; DeepSpeed allows that once per "
              "process, so a second model built under zero.Init (a vision tower and an LLM, a reference model) asserts.",
        fix="Keep hpZ to one zero.Init model per process, or set `\"zero_hpz_partition_size\": 1`.",
        examples=(log(N.ZEROPP_HPZ_SECOND_MODEL, "Two from_pretrained calls under a ZeRO++ hpZ config:",
                   "AssertionError: ZeRO parameter intra parallel group is already initialized\n"),),
        reads="log"),
    signatures=(
              msg(K.MSG_HPZ_GROUP, "deepspeed/utils/groups.py _create_zero_param_parallel_group (0.10-0.19.8)",
                  "AssertionError: ZeRO parameter intra parallel group is already initialized"),)),
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
                    code=re.escape(K.SRC_UNSCALE_GRADS)))),
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
)
