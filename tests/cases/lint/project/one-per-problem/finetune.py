import argparse

from transformers import AutoModelForCausalLM, AutoModelForSeq2SeqLM, Trainer, TrainingArguments


def build(arch, path):
    load_kwargs = {"device_map": "auto"}
    if arch == "causal":
        return AutoModelForCausalLM.from_pretrained(path, **load_kwargs)
    return AutoModelForSeq2SeqLM.from_pretrained(path, **load_kwargs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--arch", default="causal")
    parser.add_argument("--deepspeed")
    args = parser.parse_args()
    training_args = TrainingArguments(output_dir="out", deepspeed=args.deepspeed)
    model = build(args.arch, "my-org/base-model")
    Trainer(model=model, args=training_args).train()


if __name__ == "__main__":
    main()
