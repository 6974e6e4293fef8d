from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

(args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained("lmsys/vicuna-7b-v1.5")
Trainer(model=model, args=args).train()
