import torch
from accelerate import Accelerator
from transformers import AutoModelForCausalLM


def main():
    accelerator = Accelerator()
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    model, optimizer = accelerator.prepare(model, optimizer)
    for _ in range(10):
        loss = model(input_ids=torch.ones(1, 8, dtype=torch.long), labels=torch.ones(1, 8, dtype=torch.long)).loss
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
    # a ZeRO checkpoint: save_state never reads the 16-bit gathering flag
    accelerator.save_state("checkpoints")


if __name__ == "__main__":
    main()
