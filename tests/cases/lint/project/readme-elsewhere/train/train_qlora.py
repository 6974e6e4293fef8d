import torch
from peft import prepare_model_for_kbit_training
from transformers import AutoModelForCausalLM, BitsAndBytesConfig, HfArgumentParser, Trainer, TrainingArguments

training_args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained(
    "my-org/base-model",
    device_map="auto",
    quantization_config=BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_compute_dtype=torch.bfloat16),
)
model = prepare_model_for_kbit_training(model)
Trainer(model=model, args=training_args).train()
model.save_pretrained(training_args.output_dir)
