# dsdoctor-case: target=transformers==4.46.3 zero3=project
# expect: model-loaded-before-ds-config@25 error
# expect: zero3-unsupported-quantization@27 error
# expect: zero3-device-map-conflict@29 info
# expect: prepare-kbit-under-zero3@32 info
# expect: zero3-unsafe-save@44 error
"""Written in the style of alpaca-lora's finetune.py (8-bit base, DDP device_map, save_pretrained after train)."""
import os

import torch
import transformers
from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training
from transformers import LlamaForCausalLM, LlamaTokenizer


def train(base_model: str = "", output_dir: str = "./lora-alpaca", micro_batch_size: int = 4):
    gradient_accumulation_steps = 128 // micro_batch_size
    device_map = "auto"
    world_size = int(os.environ.get("WORLD_SIZE", 1))
    ddp = world_size != 1
    if ddp:
        device_map = {"": int(os.environ.get("LOCAL_RANK") or 0)}
        gradient_accumulation_steps = gradient_accumulation_steps // world_size

    model = LlamaForCausalLM.from_pretrained(
        base_model,
        load_in_8bit=True,
        torch_dtype=torch.float16,
        device_map=device_map,
    )
    tokenizer = LlamaTokenizer.from_pretrained(base_model)
    model = prepare_model_for_kbit_training(model)
    model = get_peft_model(model, LoraConfig(r=8, lora_alpha=16, task_type="CAUSAL_LM"))
    trainer = transformers.Trainer(
        model=model,
        args=transformers.TrainingArguments(
            per_device_train_batch_size=micro_batch_size,
            gradient_accumulation_steps=gradient_accumulation_steps,
            output_dir=output_dir,
            deepspeed="ds_z3.json",
        ),
    )
    trainer.train()
    model.save_pretrained(output_dir)
    tokenizer.save_pretrained(output_dir)


if __name__ == "__main__":
    import fire

    fire.Fire(train)
