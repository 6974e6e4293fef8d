import os
from dataclasses import dataclass, field

import torch
from transformers import AutoModel, AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

SCORER = "google/siglip-base-patch16-224"


def load_scorer():
    # the reward's image-text scorer: whole on this rank's GPU, called directly in the reward
    device = f"cuda:{int(os.getenv('LOCAL_RANK', 0))}"
    return AutoModel.from_pretrained(SCORER, torch_dtype=torch.bfloat16).eval().to(device)


scorer = load_scorer()


@dataclass
class ModelArgs:
    model_name_or_path: str = field(default="Qwen/Qwen2.5-VL-7B-Instruct")


def reward(inputs):
    with torch.no_grad():
        return scorer(**inputs).logits_per_image


def main():
    model_args, args = HfArgumentParser((ModelArgs, TrainingArguments)).parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path, torch_dtype=torch.bfloat16)
    Trainer(model=model, args=args).train()


if __name__ == "__main__":
    main()
