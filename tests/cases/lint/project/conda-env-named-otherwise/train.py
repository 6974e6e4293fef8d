import transformers
from transformers.deepspeed import is_deepspeed_zero3_enabled


def main():
    parser = transformers.HfArgumentParser(transformers.Seq2SeqTrainingArguments)
    (args,) = parser.parse_args_into_dataclasses()
    model = transformers.AutoModelForSeq2SeqLM.from_pretrained("t5-base")
    if is_deepspeed_zero3_enabled():
        print("partitioned")
    transformers.Seq2SeqTrainer(model=model, args=args).train()


if __name__ == "__main__":
    main()
