import transformers
from explorepkg.actor import make_explorer
from explorepkg.options import Options


def main():
    parser = transformers.HfArgumentParser((Options, transformers.TrainingArguments))
    args, training_args = parser.parse_args_into_dataclasses()
    explorer = make_explorer(args)
    model = transformers.AutoModelForCausalLM.from_pretrained(args.policy)
    transformers.Trainer(model=model, args=training_args, callbacks=[explorer] if explorer else None).train()


if __name__ == "__main__":
    main()
