"""Causes around ZeRO-3 model loading, partitioned parameters and saving (Transformers / Accelerate / PEFT
with DeepSpeed). The messages live in ``knowledge/transformers.py``."""

from __future__ import annotations

from typing import Tuple

from ...knowledge import transformers as TK
from .spec import Advice, Cause, Docs, LogFacts, Seen, code_fix, log, msg

MODELING = "transformers/modeling_utils.py from_pretrained"


def _zero3_load(name: str, text: str, f: LogFacts) -> Advice:
    guard = TK.zero3_load_guard(f.transformers)
    drop_map = code_fix("Do not pass device_map under ZeRO-3 (zero.Init places the weights)",
                        "from_pretrained(..., device_map=None)   # or: device_map=None if is_deepspeed_zero3_enabled() else dm")
    drop_low = code_fix("Remove low_cpu_mem_usage=True (ZeRO-3's zero.Init already loads with low memory)",
                        "from_pretrained(..., low_cpu_mem_usage=not is_deepspeed_zero3_enabled())")
    after = ""
    if guard is not None and guard[0] == "device_map":
        after = f" (Transformers {f.transformers} ignores low_cpu_mem_usage; only device_map raises.)"
    if name == "zero3-device-map-conflict":
        return Advice("from_pretrained was given a device_map while ZeRO-3 is enabled" + after, text, [drop_map])
    return Advice("from_pretrained was given low_cpu_mem_usage=True while ZeRO-3 is enabled", text, [drop_low])


def zero3_both(text: str) -> Advice:
    """The 4.20-4.50 combined message when the call line does not show which argument triggered it."""
    return Advice("from_pretrained was given low_cpu_mem_usage=True or a device_map while ZeRO-3 is enabled "
                  "(the log does not show which: Transformers 4.20-4.50 print one message for both)", text,
                  [_zero3_load("zero3-low-cpu-mem-usage-conflict", text, LogFacts()).fixes[0],
                   _zero3_load("zero3-device-map-conflict", text, LogFacts()).fixes[0]])


def _low_cpu_mem(s: Seen, f: LogFacts) -> Advice:
    return _zero3_load("zero3-low-cpu-mem-usage-conflict", s.text, f)


def _device_map(s: Seen, f: LogFacts) -> Advice:
    return _zero3_load("zero3-device-map-conflict", s.text, f)


def _quantized(s: Seen, f: LogFacts) -> Advice:
    return Advice("A quantized model's mixed dtypes break ZeRO-3 partitioning", s.text,
                  [code_fix("Store 4-bit weights in the training dtype",
                            "BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_storage=torch.bfloat16), torch_dtype=torch.bfloat16",
                            reason="needs bitsandbytes>=0.43.3, accelerate>=1.0.1, transformers>4.44.2, peft>0.13.0")])


def _partitioned_access(s: Seen, f: LogFacts) -> Advice:
    return Advice("A ZeRO-3 partitioned parameter (size 0 on this rank) was used outside a gather", s.text,
                  [code_fix("Gather the parameters around the code that reads them",
                            "with deepspeed.zero.GatheredParameters(list(module.parameters()), modifier_rank=None): ...")])


def _saved_partitioned(s: Seen, f: LogFacts) -> Advice:
    return Advice("Weights were saved from ZeRO-3 without gathering them (size-0 tensors or no weights)", s.text,
                  [code_fix("Gather 16-bit weights on save",
                            'ds_config: "zero_optimization": {"stage3_gather_16bit_weights_on_model_save": true}'),
                   code_fix("Or save through the Trainer / consolidate the checkpoint", "trainer.save_model(out)",
                            "python <checkpoint>/zero_to_fp32.py <checkpoint> <out_dir>")])


SPECS: Tuple[Cause, ...] = (
    Cause("zero3-low-cpu-mem-usage-conflict", "DS306", "low_cpu_mem_usage=True in from_pretrained under ZeRO-3",
          _low_cpu_mem, predicted_by="lint:zero3-low-cpu-mem-usage-conflict", signatures=(
              msg(TK.MSG_ZERO3_LOW_MEM_411, f"{MODELING} (Transformers 4.11-4.18)",
                  "ValueError: low_cpu_mem_usage arg cannot be used with DeepSpeed ZeRO-3"),
              msg(TK.MSG_ZERO3_LOW_MEM_419, f"{MODELING} (Transformers 4.19)",
                  "ValueError: low_cpu_mem_usage arg cannot currently be used with DeepSpeed ZeRO-3"),
              # 4.20-4.50 print one message for both arguments: diagnose decides between the two names
              msg(TK.MSG_ZERO3_COMBINED, f"{MODELING} (Transformers 4.20-4.50)",
                  "ValueError: DeepSpeed Zero-3 is not compatible with `low_cpu_mem_usage=True` or with passing a "
                  "`device_map`.")),
          log_examples=(
              log("zero3-low-cpu-mem-tf4.46.3", "`dsdoctor explain` on the failed run (Transformers 4.46.3):",
                  "  File \"/home/user/proj/train.py\", line 7, in <module>\n"
                  "    m = LlamaForCausalLM.from_pretrained(d, low_cpu_mem_usage=True)\n"
                  "  File \"/opt/envs/hf/tf4.46.3/transformers/modeling_utils.py\", line 3573, in from_pretrained\n"
                  "    raise ValueError(\n"
                  "ValueError: DeepSpeed Zero-3 is not compatible with `low_cpu_mem_usage=True` or with passing a "
                  "`device_map`.\n"),)),
    Cause("zero3-device-map-conflict", "DS307", "A device_map passed to from_pretrained under ZeRO-3",
          _device_map, predicted_by="lint:zero3-device-map-conflict", signatures=(
              msg(TK.MSG_ZERO3_DEVICE_MAP, f"{MODELING} (Transformers 4.51-5.x)",
                  "ValueError: DeepSpeed Zero-3 is not compatible with passing a `device_map`."),
              msg(TK.MSG_DEVICE_MAP_NEEDS_LOW_MEM, f"{MODELING} (Transformers 4.20-4.50; ZeRO-3 sets low_cpu_mem_usage=False)",
                  "ValueError: Passing along a `device_map` requires `low_cpu_mem_usage=True`"),
              msg(TK.MSG_ACCELERATE_DEVICE_MAP_AUTO, "accelerate/accelerator.py prepare_model (Accelerate 0.2x-1.15)",
                  "ValueError: You can't train a model that has been loaded with `device_map='auto'` in any "
                  "distributed mode. Please rerun your script specifying `--num_processes=1` or by launching with "
                  "`python {{myscript.py}}`.")),
          log_examples=(
              log("zero3-device-map-tf5.24.0", "`dsdoctor explain` on the failed run (Transformers 5.24.0):",
                  "  File \"/home/user/proj/train.py\", line 7, in <module>\n"
                  "    m = LlamaForCausalLM.from_pretrained(d, device_map='auto')\n"
                  "    raise ValueError(\"DeepSpeed Zero-3 is not compatible with passing a `device_map`.\")\n"
                  "ValueError: DeepSpeed Zero-3 is not compatible with passing a `device_map`.\n"),)),
    Cause("zero3-quantized-model-conflict", "DS308", "A quantized model loaded in a way ZeRO-3 cannot partition",
          _quantized, predicted_by="lint:qlora-quant-storage-missing", signatures=(
              msg(TK.MSG_DTYPE_MIXED, "torch/distributed/distributed_c10d.py all_gather_into_tensor, via DeepSpeed "
                  "partition_parameters.py _all_gather_dtype (torch 2.x, DeepSpeed 0.10-0.19)",
                  "TypeError: output tensor must have the same type as input tensor"),),
          docs=Docs(
              "A quantized (bitsandbytes 4-bit) model under ZeRO-3 fails when DeepSpeed gathers its parameters: "
              "`output tensor must have the same type as input tensor` (mixed dtypes in one partition).",
              "ZeRO-3 flattens and all-gathers parameters of one dtype; 4-bit weights stored as uint8 next to bf16 ones "
              "break that.",
              "Store the 4-bit weights in the training dtype: `BitsAndBytesConfig(load_in_4bit=True, "
              "bnb_4bit_quant_storage=torch.bfloat16)` with `torch_dtype=torch.bfloat16` (needs bitsandbytes>=0.43.3, "
              "accelerate>=1.0.1, transformers>4.44.2, peft>0.13.0). `dsdoctor lint` finds this in the script "
              "(qlora-quant-storage-missing, DS506).",
              (log("zero3-quantized-qlora",
                   "QLoRA under ZeRO-3 without bnb_4bit_quant_storage:",
                   "[rank1]:   File \"/venv/lib/python3.11/site-packages/deepspeed/runtime/zero/partition_parameters.py\", "
                   "line 1152, in _all_gather_dtype\n"
                   "[rank1]:     handle = _dist_allgather_fn(partitions[rank_in_group], flat_tensor, ds_process_group)\n"
                   "[rank1]: TypeError: output tensor must have the same type as input tensor\n"),))),
    Cause("zero3-partitioned-param-access", "DS309", "A ZeRO-3 partitioned parameter used outside a gather (size-0 weights)",
          _partitioned_access, predicted_by="none", signatures=(
              msg(TK.MSG_WEIGHT_2D, "torch/nn/functional.py embedding (torch 1.x-2.14) on a size-0 ZeRO-3 weight",
                  "RuntimeError: 'weight' must be 2-D"),),
          docs=Docs(
              "A ZeRO-3 partitioned parameter (size 0 on this rank) was used outside a gather: e.g. the model called "
              "directly instead of through the engine, or a weight read in custom code (`'weight' must be 2-D`).",
              "Under ZeRO-3 each rank holds only its partition; the full tensor exists only inside the engine's "
              "forward or a `GatheredParameters` block.",
              "Gather the parameters around the code that reads them: `with "
              "deepspeed.zero.GatheredParameters(list(module.parameters()), modifier_rank=None): ...` (or run the "
              "model through the DeepSpeed engine).",
              (log("zero3-partitioned-forward", "A model built under zero.Init, called outside the engine:",
                   "[rank0]:   File \"/opt/envs/venv/lib/python3.11/site-packages/torch/nn/functional.py\", line 2621, in "
                   "embedding\n"
                   "[rank0]:     return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)\n"
                   "[rank0]: RuntimeError: 'weight' must be 2-D\n"),))),
    Cause("zero3-saved-partitioned-weights", "DS310", "Weights saved from ZeRO-3 without gathering (size-0 tensors / no weights)",
          _saved_partitioned, predicted_by="lint:zero3-unsafe-save", signatures=(
              msg(TK.MSG_SIZE0_CHECKPOINT, "torch/nn/modules/module.py load_state_dict size mismatch (torch 1.x-2.14)",
                  "size mismatch for base_model.model.model.layers.0.self_attn.q_proj.lora_B.default.weight: copying a "
                  "param with shape torch.Size([0]) from checkpoint, the shape in current model is torch.Size([4096, 16])."),
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
          docs=Docs(
              "Weights saved from ZeRO-3 without gathering: loading them finds size-0 tensors (`copying a param with "
              "shape torch.Size([0])`), PEFT adapters saved empty, or accelerate/Trainer refusing to save without "
              "`stage3_gather_16bit_weights_on_model_save`.",
              "`model.save_pretrained()` / `state_dict()` on a ZeRO-3 model writes each rank's partition (size 0) "
              "unless the 16-bit weights are gathered on save.",
              "Gather 16-bit weights on save (ds_config `\"zero_optimization\": "
              "{\"stage3_gather_16bit_weights_on_model_save\": true}`), or save through the Trainer "
              "(`trainer.save_model(out)`) / consolidate the checkpoint (`python <checkpoint>/zero_to_fp32.py "
              "<checkpoint> <out_dir>`). `dsdoctor lint` finds the save in the script (zero3-unsafe-save, DS510).",
              (log("zero3-saved-partitioned", "Loading a LoRA adapter that was saved under ZeRO-3:",
                   "Traceback (most recent call last):\n"
                   "  File \"/home/user/proj/infer.py\", line 9, in <module>\n"
                   "    model = PeftModel.from_pretrained(base, \"out/adapter\")\n"
                   "RuntimeError: Error(s) in loading state_dict for PeftModelForCausalLM:\n"
                   "\tsize mismatch for base_model.model.model.layers.0.self_attn.q_proj.lora_B.default.weight: copying a "
                   "param with shape torch.Size([0]) from checkpoint, the shape in current model is torch.Size([4096, "
                   "16]).\n"),))),
)
