import os
from types import SimpleNamespace

import deepspeed
import yaml
from transformers import AutoModelForCausalLM


class Runner:
    def __init__(self, config_file):
        with open(config_file) as f:
            self.args = SimpleNamespace(**yaml.safe_load(f))

    def train(self):
        world_size = int(os.environ.get("WORLD_SIZE", 1))
        # the config's batch size comes from the run's own settings
        self.args.deepspeed["train_batch_size"] = self.args.batch_size * world_size * self.args.gradient_accumulation_steps
        model = AutoModelForCausalLM.from_pretrained(self.args.model_path)
        engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                               config=self.args.deepspeed)
        engine.save_checkpoint("ckpt")
