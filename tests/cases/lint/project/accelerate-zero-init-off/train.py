import torch
from accelerate import Accelerator
from transformers import AutoModelForCausalLM


def main():
    accelerator = Accelerator()
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    model, optimizer = accelerator.prepare(model, optimizer)
    model.save_pretrained("out/trained")  # prepared: partitioned by deepspeed.initialize, saves no weights
    # zero3_init_flag is false: from_pretrained builds this one whole, and nothing hands it to DeepSpeed
    merged = AutoModelForCausalLM.from_pretrained("out/base")
    merged.save_pretrained("out/merged")


if __name__ == "__main__":
    main()
