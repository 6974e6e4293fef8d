from dataclasses import dataclass, field

import torch
import transformers


@dataclass
class Args:
    model_name: str = field(default="my-org/tiny-base")


def main():
    parser = transformers.HfArgumentParser((Args, transformers.TrainingArguments))
    args, training_args = parser.parse_args_into_dataclasses()
    model = transformers.AutoModelForCausalLM.from_pretrained(args.model_name, device_map="auto")
    trainer = transformers.Trainer(model=model, args=training_args)
    trainer.train()
    torch.save(trainer.model.state_dict(), f"{training_args.output_dir}/model.bin")


if __name__ == "__main__":
    main()
