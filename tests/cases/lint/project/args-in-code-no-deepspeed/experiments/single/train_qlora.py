"""A one-GPU QLoRA experiment: its training arguments are written here, with no DeepSpeed config."""
import torch
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, BitsAndBytesConfig, Trainer, TrainingArguments

bnb = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_compute_dtype=torch.bfloat16)
model = AutoModelForCausalLM.from_pretrained("gpt2", quantization_config=bnb, low_cpu_mem_usage=True)
model = get_peft_model(model, LoraConfig(r=8, target_modules=["c_attn"]))
args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, bf16=True)
trainer = Trainer(model=model, args=args)
trainer.train()
trainer.model.save_pretrained("out/adapter")
