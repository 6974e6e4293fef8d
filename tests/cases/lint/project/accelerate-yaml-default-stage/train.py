import torch
from accelerate import Accelerator
from transformers import AutoModelForCausalLM


def main() -> None:
    accelerator = Accelerator()
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    model, optimizer = accelerator.prepare(model, optimizer)
    for _ in range(3):
        optimizer.step()
    unwrapped_model = accelerator.unwrap_model(model)
    unwrapped_model.save_pretrained("out", is_main_process=accelerator.is_main_process, save_function=accelerator.save)


if __name__ == "__main__":
    main()
