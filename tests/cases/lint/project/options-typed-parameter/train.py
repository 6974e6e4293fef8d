"""Options parsed into a class named neither *Args nor *Arguments, held by a parameter annotated with it."""
from dataclasses import dataclass

import torch
from accelerate import Accelerator
from options import ModelConfig
from transformers import AutoModelForCausalLM, HfArgumentParser


@dataclass
class Args:
    output_dir: str = "out"


def main(args: Args, model_config: ModelConfig):
    accelerator = Accelerator()
    model = AutoModelForCausalLM.from_pretrained(model_config.model_name_or_path)
    model, optimizer = accelerator.prepare(model, torch.optim.AdamW(model.parameters()))
    if model_config.use_peft:
        model.save_pretrained(args.output_dir)
    else:
        state_dict = accelerator.get_state_dict(model)
        accelerator.unwrap_model(model).save_pretrained(args.output_dir, state_dict=state_dict)


if __name__ == "__main__":
    main(*HfArgumentParser((Args, ModelConfig)).parse_args_into_dataclasses())
