import argparse

from transformers import AutoModelForSeq2SeqLM, Seq2SeqTrainer, Seq2SeqTrainingArguments

parser = argparse.ArgumentParser()
parser.add_argument("--model_id")
parser.add_argument("--epochs", type=int, default=1)
parser.add_argument("--deepspeed")
args, _ = parser.parse_known_args()
model = AutoModelForSeq2SeqLM.from_pretrained(args.model_id)
training_args = Seq2SeqTrainingArguments(output_dir="out", num_train_epochs=args.epochs, deepspeed=args.deepspeed)
Seq2SeqTrainer(model=model, args=training_args).train()
