import argparse

import torch
from accelerate import Accelerator
from transformers import AutoModelForCausalLM


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path")
    parser.add_argument("--output_dir")
    args = parser.parse_args()
    accelerator = Accelerator()
    model = AutoModelForCausalLM.from_pretrained(args.model_name_or_path)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    model, optimizer = accelerator.prepare(model, optimizer)
    unwrapped = accelerator.unwrap_model(model)
    unwrapped.save_pretrained(args.output_dir)


if __name__ == "__main__":
    main()
