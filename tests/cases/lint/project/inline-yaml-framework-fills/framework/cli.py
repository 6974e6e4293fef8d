import sys

import deepspeed
import yaml
from framework.config import TrainerConfig
from framework.optim import make_optimizer
from transformers import AutoModelForCausalLM


def main():
    raw = yaml.safe_load(open(sys.argv[1]))
    config = TrainerConfig(micro_batch_size=raw["micro_batch_size"], deepspeed=raw["deepspeed"]).build_deepspeed_config()
    model = AutoModelForCausalLM.from_pretrained(raw["model"])
    optimizer = make_optimizer(raw["optimizer"], model.parameters(), raw["lr"])
    engine, *_ = deepspeed.initialize(model=model, optimizer=optimizer, config=config.deepspeed)
    engine.train()


if __name__ == "__main__":
    main()
