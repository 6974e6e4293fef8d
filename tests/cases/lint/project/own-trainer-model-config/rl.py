"""A project's own RL trainer (not the Hugging Face one) on accelerate, and a model built from a BERT config file."""
from dataclasses import dataclass

from accelerate import Accelerator
from transformers import AutoModelForCausalLM, BertConfig, BertModel


@dataclass
class ModelSpec:
    config: str = "configs/bert_encoder.json"


class PPOTrainer:
    def __init__(self, model):
        self.accelerator = Accelerator()
        self.model = self.accelerator.prepare(model)

    def learn(self):
        self.model.train()


encoder = BertModel(BertConfig.from_json_file(ModelSpec(config="configs/bert_encoder.json").config))
trainer = PPOTrainer(AutoModelForCausalLM.from_pretrained("gpt2"))
trainer.learn()
