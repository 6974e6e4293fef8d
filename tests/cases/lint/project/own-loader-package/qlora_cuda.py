"""The same recipe with Transformers' loader and PEFT's preparation."""
import torch
import transformers
from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training
from transformers import AutoModelForCausalLM, BitsAndBytesConfig

bnb_config = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_compute_dtype=torch.bfloat16)
model = AutoModelForCausalLM.from_pretrained("my-org/base", torch_dtype=torch.bfloat16, quantization_config=bnb_config)
model = prepare_model_for_kbit_training(model)
model = get_peft_model(model, LoraConfig(r=8))
parser = transformers.HfArgumentParser(transformers.TrainingArguments)
(training_args,) = parser.parse_args_into_dataclasses()
transformers.Trainer(model=model, args=training_args).train()
