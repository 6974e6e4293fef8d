import transformers
from kit.trainer import KitTrainer
from peft import LoraConfig, get_peft_model


def main():
    parser = transformers.HfArgumentParser((transformers.Seq2SeqTrainingArguments,))
    (args,) = parser.parse_args_into_dataclasses()
    model = transformers.AutoModelForCausalLM.from_pretrained("my-org/base")
    model = get_peft_model(model, LoraConfig(r=8, target_modules=["q_proj", "v_proj"]))
    trainer = KitTrainer(model=model, args=args)
    trainer.train()
    trainer.save_model()


if __name__ == "__main__":
    main()
