import transformers
from kit.trainer import KitTrainer


def main():
    parser = transformers.HfArgumentParser((transformers.Seq2SeqTrainingArguments,))
    (args,) = parser.parse_args_into_dataclasses()
    model = transformers.AutoModelForCausalLM.from_pretrained("my-org/finetuned")
    trainer = KitTrainer(model=model, args=args)
    out = trainer.predict(test_dataset=[{"input_ids": [1, 2, 3]}])
    print(out.predictions.shape)


if __name__ == "__main__":
    main()
