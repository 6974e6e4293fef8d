import argparse

import torch
from accelerate import Accelerator
from transformers import AutoModelForCausalLM


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model_name", required=True)
    args = p.parse_args()
    accelerator = Accelerator()
    model = AutoModelForCausalLM.from_pretrained(args.model_name, low_cpu_mem_usage=True)
    ref = AutoModelForCausalLM.from_pretrained(args.model_name, device_map={"": accelerator.process_index})
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    model, optimizer = accelerator.prepare(model, optimizer)
    ref.eval()


if __name__ == "__main__":
    main()
