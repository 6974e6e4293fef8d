import argparse

from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", required=True)
    p.add_argument("--ds", required=True, help="path of the DeepSpeed config")
    p.add_argument("--out", default="runs")
    args = p.parse_args()
    model = AutoModelForCausalLM.from_pretrained(args.model, device_map="auto")
    targs = TrainingArguments(output_dir=args.out, deepspeed=args.ds, bf16=True)
    Trainer(model=model, args=targs).train()


if __name__ == "__main__":
    main()
