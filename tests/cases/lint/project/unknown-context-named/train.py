"""A LoRA trainer the project starts with torchrun and no DeepSpeed config: its ZeRO-3 hazards hold only if a
user adds one, so they are info ("if run with ZeRO-3 ...")."""
from peft import prepare_model_for_kbit_training
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

(args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto", low_cpu_mem_usage=True)
model = prepare_model_for_kbit_training(model)
trainer = Trainer(model=model, args=args)
trainer.train()
model.save_pretrained(args.output_dir)
