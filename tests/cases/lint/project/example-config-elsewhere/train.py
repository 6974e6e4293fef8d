"""The project's own training script: plain DDP, it never names a DeepSpeed config. The only stage-3 file is the
accelerate config shipped with examples/demo, which says nothing about this file: its ZeRO-3 findings are info."""
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

model = AutoModelForCausalLM.from_pretrained("gpt2", load_in_8bit=True, device_map="auto")
trainer = Trainer(model=model, args=TrainingArguments("out"))
trainer.train()
model.save_pretrained("out")
