import torch
from accelerate import Accelerator
from transformers import AutoModelForCausalLM


def main() -> None:
    accelerator = Accelerator()
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    model, optimizer = accelerator.prepare(model, optimizer)
    accelerator.save_model(model, "out")


if __name__ == "__main__":
    main()
