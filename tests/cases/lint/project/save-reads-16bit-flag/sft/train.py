import os

import torch
from accelerate import Accelerator
from transformers import AutoModelForCausalLM


def save(accelerator, engine, model, out_dir, step):
    # accelerate exports the config's zero3_save_16bit_model to its processes
    gather = os.environ.get("ACCELERATE_DEEPSPEED_ZERO3_SAVE_16BIT_MODEL", "false").lower() == "true"
    if os.environ.get("ACCELERATE_DEEPSPEED_ZERO_STAGE") == "3" and not gather:
        engine.save_checkpoint(out_dir, f"step-{step}")  # a ZeRO checkpoint: zero_to_fp32.py turns it into weights
        return
    accelerator.unwrap_model(model).save_pretrained(out_dir, state_dict=accelerator.get_state_dict(model))


def main():
    accelerator = Accelerator()
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    engine, optimizer = accelerator.prepare(model, optimizer)
    save(accelerator, engine, model, "out", 0)


if __name__ == "__main__":
    main()
