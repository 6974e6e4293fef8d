import argparse

import deepspeed
import torch
from transformers import AutoModelForCausalLM, get_scheduler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    parser = deepspeed.add_config_arguments(parser)
    parser.parse_args()
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-6)
    scheduler = get_scheduler("cosine", optimizer=optimizer, num_warmup_steps=10, num_training_steps=100)
    config = {"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 2}, "gradient_clipping": 1.0}
    engine, *_ = deepspeed.initialize(model=model, optimizer=optimizer, lr_scheduler=scheduler, config=config)


if __name__ == "__main__":
    main()
