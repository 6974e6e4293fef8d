import transformers
from transformers import AutoModelForCausalLM


def train():
    parser = transformers.HfArgumentParser(transformers.TrainingArguments)
    (training_args,) = parser.parse_args_into_dataclasses()

    load_args = {}
    if "zero3" not in training_args.deepspeed:
        load_args.update(dict(device_map={"": training_args.device}))

    model = AutoModelForCausalLM.from_pretrained(
        "facebook/opt-125m",
        torch_dtype="auto",
        **load_args,
    )
    trainer = transformers.Trainer(model=model, args=training_args)
    trainer.train()
