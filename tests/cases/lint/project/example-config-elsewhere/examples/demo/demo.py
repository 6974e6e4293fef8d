"""The example the stage-3 config sits next to: it keeps the project-wide ZeRO-3 context."""
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

model = AutoModelForCausalLM.from_pretrained("gpt2")
trainer = Trainer(model=model, args=TrainingArguments("out"))
trainer.train()
trainer.model.save_pretrained("out")  # an error under ZeRO-3
