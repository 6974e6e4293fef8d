import torch
from accelerate import Accelerator
from transformers import AutoModelForCausalLM


def main():
    accelerator = Accelerator()
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    model, optimizer = accelerator.prepare(model, optimizer)
    accelerator.save_state("ckpt")
    unwrapped = accelerator.unwrap_model(model)
    unwrapped.save_pretrained("out")


if __name__ == "__main__":
    main()
