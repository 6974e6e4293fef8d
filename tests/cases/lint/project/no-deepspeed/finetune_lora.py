# Single-GPU LoRA fine-tuning: python finetune_lora.py
import torch
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

model = AutoModelForCausalLM.from_pretrained("my-org/small-chat", device_map="auto", torch_dtype=torch.bfloat16)
model = get_peft_model(model, LoraConfig(r=8, target_modules=["q_proj", "v_proj"]))
trainer = Trainer(model=model, args=TrainingArguments(output_dir="out", per_device_train_batch_size=2))
trainer.train()
torch.save(trainer.model.state_dict(), "out/adapter.bin")
