from transformers import AutoModelForCausalLM

from .registry import ModelRegistry


@ModelRegistry.register
class Big:
    def load(self, path):
        # sharded over the GPUs for generation
        self.model = AutoModelForCausalLM.from_pretrained(path, device_map="auto")
        return self.model
