from dataclasses import dataclass, field
from typing import Any, Dict


@dataclass
class TrainerConfig:
    micro_batch_size: int = 1
    gradient_accumulation_steps: int = 1
    world_size: int = 1
    deepspeed: Dict[str, Any] = field(default_factory=dict)

    def build_deepspeed_config(self) -> "TrainerConfig":
        ds_config = self.deepspeed
        ds_config["train_micro_batch_size_per_gpu"] = self.micro_batch_size
        ds_config["train_batch_size"] = self.micro_batch_size * self.gradient_accumulation_steps * self.world_size
        ds_config["gradient_accumulation_steps"] = self.gradient_accumulation_steps
        ds_config["zero_optimization"] = ds_config.get("zero_optimization", {"stage": 2})  # the YAML's, if it has one
        return self
