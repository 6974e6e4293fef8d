import transformers
from pkg.dist import rank
from pkg.remote import dist as remote_dist  # noqa: F401
from transformers.deepspeed import is_deepspeed_zero3_enabled


def main():
    parser = transformers.HfArgumentParser((transformers.TrainingArguments,))
    (args,) = parser.parse_args_into_dataclasses()
    model = transformers.AutoModelForCausalLM.from_pretrained("my-org/base")
    trainer = transformers.Trainer(model=model, args=args)
    trainer.train()
    trainer.save_model()
    if rank() == 0:
        print("zero3:", is_deepspeed_zero3_enabled())


if __name__ == "__main__":
    main()
