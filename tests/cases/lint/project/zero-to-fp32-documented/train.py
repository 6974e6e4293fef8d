import sys

from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM
from trl import SFTConfig, SFTTrainer, TrlParser


def main():
    (args,) = TrlParser((SFTConfig,)).parse_args_and_config()
    model = AutoModelForCausalLM.from_pretrained("my-org/base")
    if "--lora" in sys.argv:
        model = get_peft_model(model, LoraConfig(r=16))
    trainer = SFTTrainer(model=model, args=args, train_dataset=[{"text": "hi"}])
    trainer.train()
    trainer.save_model(args.output_dir)


if __name__ == "__main__":
    main()
