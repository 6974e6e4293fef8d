# The quantization config is set only with --use_qlora (None otherwise), and the k-bit preparation runs only when
# it is set: the ZeRO-3 launch here does not pass --use_qlora, so the finding is info.
import argparse

from peft import prepare_model_for_kbit_training
from transformers import AutoModelForCausalLM, BitsAndBytesConfig, HfArgumentParser, Trainer, TrainingArguments

parser = argparse.ArgumentParser()
parser.add_argument("--use_qlora", action="store_true")
args, rest = parser.parse_known_args()
training_args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses(rest)

if args.use_qlora:
    quant = BitsAndBytesConfig(load_in_4bit=True)
else:
    quant = None
model = AutoModelForCausalLM.from_pretrained("gpt2")
if quant:
    model = prepare_model_for_kbit_training(model)
Trainer(model=model, args=training_args).train()
