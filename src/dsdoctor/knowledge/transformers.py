"""Version-ranged facts about Hugging Face Transformers / Accelerate / PEFT with DeepSpeed. No I/O.

Sections (append to the one you need; never copy a fact that lives elsewhere):
  1. ZeRO-3 load-time guards in ``from_pretrained`` (low_cpu_mem_usage / device_map / quantization)
  2. HfDeepSpeedConfig / Trainer integration ("auto" keys, which values the Trainer fills)
  3. Saving under ZeRO-3
  4. Messages (log signatures are built from these in ``knowledge/signatures.py``)
"""

from __future__ import annotations

from typing import Tuple

# ---------------------------------------------------------------------------------------------------
# 2. HfDeepSpeedConfig / Trainer integration: "auto" keys (HfTrainerDeepSpeedConfig, same logic 4.20-5.24;
#    read in 4.46.3 and 5.24.0, .cache/oracle/hf)
# ---------------------------------------------------------------------------------------------------

# Filled from TrainingArguments by trainer_config_process (at TrainingArguments creation).
HF_AUTO_KEYS_ARGS: Tuple[str, ...] = (
    "train_micro_batch_size_per_gpu", "gradient_accumulation_steps", "train_batch_size", "gradient_clipping",
    "optimizer.params.lr", "optimizer.params.betas", "optimizer.params.eps", "optimizer.params.weight_decay",
    "scheduler.params.warmup_min_lr", "scheduler.params.warmup_max_lr", "fp16.enabled", "bf16.enabled",
    "amp.enabled", "amp.opt_level",
)
# Filled at train time by trainer_config_finalize (from the model's hidden_size and the step counts).
HF_AUTO_KEYS_MODEL: Tuple[str, ...] = (
    "zero_optimization.reduce_bucket_size", "zero_optimization.stage3_prefetch_bucket_size",
    "zero_optimization.stage3_param_persistence_threshold", "scheduler.params.total_num_steps",
    "scheduler.params.warmup_num_steps",
)
# accelerate (without Trainer) fills these in prepare()/the plugin; any other "auto" stays a string.
ACCELERATE_AUTO_KEYS: Tuple[str, ...] = (
    "train_micro_batch_size_per_gpu", "gradient_accumulation_steps", "train_batch_size", "gradient_clipping",
    "zero_optimization.reduce_bucket_size", "zero_optimization.stage3_prefetch_bucket_size",
    "zero_optimization.stage3_param_persistence_threshold", "fp16.enabled", "bf16.enabled",
    "zero_optimization.stage", "zero_optimization.offload_optimizer.device", "zero_optimization.offload_param.device",
    "zero_optimization.offload_optimizer.nvme_path", "zero_optimization.offload_param.nvme_path",
    "zero_optimization.stage3_gather_16bit_weights_on_model_save",
)
# TrainingArguments(deepspeed=path) and accelerate load a config path with json.load: no comments, no HJSON,
# and duplicate keys are silently merged (last wins); only a raw DeepSpeed path goes through hjson.
HF_CONFIG_LOADER = "json.load"
# Up to 4.44 stage3_prefetch_bucket_size "auto" was filled as a float (0.9*h*h); 4.45.0 wraps it in int().
HF_PREFETCH_FLOAT_UNTIL = "4.44.2"
