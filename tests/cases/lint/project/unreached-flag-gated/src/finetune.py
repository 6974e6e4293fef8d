"""A stage-3 config exists in the project, but no recipe launches this script with it: no option is known to be
passed, so the 4-bit branch (only with --use_qlora) is info, while the unconditional save stays an error."""
import argparse

from transformers import AutoModelForCausalLM, BitsAndBytesConfig, Trainer, TrainingArguments

parser = argparse.ArgumentParser()
parser.add_argument("--use_qlora", action="store_true")
parser.add_argument("--deepspeed", default=None)
args = parser.parse_args()

if args.use_qlora:  # only with --use_qlora: info
    quant = BitsAndBytesConfig(load_in_4bit=True)
    model = AutoModelForCausalLM.from_pretrained("gpt2", quantization_config=quant, device_map={"": 0})
else:
    model = AutoModelForCausalLM.from_pretrained("gpt2")
trainer = Trainer(model=model, args=TrainingArguments("out", deepspeed=args.deepspeed))
trainer.train()
trainer.model.save_pretrained("out")  # every run: an error under ZeRO-3
