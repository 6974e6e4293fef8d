from transformers import AutoModelForCausalLM, HfArgumentParser, TrainingArguments

from myproj.trl.models.loaders import load_reference
from myproj.trl.trainer import PairTrainer

args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained("gpt2")
PairTrainer(model=model, ref_model=load_reference("gpt2"), args=args).train()
