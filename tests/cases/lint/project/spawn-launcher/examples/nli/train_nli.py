import argparse

from peft import LoraConfig, get_peft_model
from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

parser = argparse.ArgumentParser()
parser.add_argument("model")
parser.add_argument("--deepspeed", default=None)
parser.add_argument("--save_checkpoints", action="store_true", default=False)
parser.add_argument("--peft", action="store_true")
parser.add_argument("--save_final", action="store_true", default=True)
args = parser.parse_args()

training_args = TrainingArguments(
    "out",
    save_strategy="steps" if args.save_checkpoints else "no",
    deepspeed=args.deepspeed,
)
model = AutoModelForSequenceClassification.from_pretrained(args.model)
if args.peft:
    model = get_peft_model(model, LoraConfig(task_type="SEQ_CLS"))
Trainer(model=model, args=training_args).train()

if args.save_checkpoints and args.peft:
    model = model.merge_and_unload()
    model.save_pretrained("out/merged")

if args.save_final:  # on by default: the launch runs it
    model.save_pretrained("out/final")
