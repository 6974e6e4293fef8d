from transformers import AutoModelForCausalLM

from .registry import ModelRegistry


@ModelRegistry.register
class Small:
    def load(self, path):
        self.model = AutoModelForCausalLM.from_pretrained(path)
        return self.model
