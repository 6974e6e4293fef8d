import json

import transformers
import vlm
from vlm import files
from vlm.builder import build_for_training


def main():
    parser = transformers.HfArgumentParser((transformers.TrainingArguments,))
    (training_args,) = parser.parse_args_into_dataclasses()
    with open("meta.json") as fh:
        meta = json.load(fh)
    records = files.load(meta["data"])
    model = build_for_training(meta["model"])
    trainer = transformers.Trainer(model=model, args=training_args, train_dataset=records)
    trainer.train()
    trainer.save_model()
    vlm.report(trainer)


if __name__ == "__main__":
    main()
