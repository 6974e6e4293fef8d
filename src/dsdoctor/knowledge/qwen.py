"""Facts about QwenLM/Qwen's (Qwen-1) fine-tuning script ``finetune.py``, read in the repository's history (the guard
added in 23a01b0, 2024-01-08; unchanged at the last commit read, 2026-03). No I/O.

For LoRA on a *base* model (a model path without "chat"), finetune.py trains the embedding and output layers too,
through PEFT's ``modules_to_save = ["wte", "lm_head"]`` (the base model does not know ChatML's special tokens); a chat
model gets ``modules_to_save = None``. Full trainable copies of those layers did not work under DeepSpeed ZeRO-3, so
the script refuses that combination before loading the model (the README: "if we have these parameters trainable, it
is not available to use ZeRO 3, and this is why we use ZeRO 2 in the script by default")."""

from __future__ import annotations

# finetune.py train(): use_lora and not q_lora and is_deepspeed_zero3_enabled() and 'chat' not in the model path
MSG_LORA_BASE_ZERO3 = "ZeRO3 is incompatible with LoRA when finetuning on base model."
MODULES_TO_SAVE = '["wte", "lm_head"]'  # what finetune.py trains in full next to LoRA on a base model
ZERO2_CONFIG = "finetune/ds_config_zero2.json"  # the config its LoRA scripts (finetune_lora_ds.sh) pass by default
