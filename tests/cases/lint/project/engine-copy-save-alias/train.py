import argparse

import torch
from accelerate import Accelerator
from patches.engine_patch import patch_engine
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--output_dir", required=True)
    args = p.parse_args()
    patch_engine()
    accelerator = Accelerator()
    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B")
    model = get_peft_model(model, LoraConfig(r=8, target_modules=["q_proj", "v_proj"]))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    model, optimizer = accelerator.prepare(model, optimizer)
    for _ in range(10):
        loss = model(input_ids=torch.ones(1, 8, dtype=torch.long), labels=torch.ones(1, 8, dtype=torch.long)).loss
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
    accelerator.save_state(args.output_dir)


if __name__ == "__main__":
    main()
