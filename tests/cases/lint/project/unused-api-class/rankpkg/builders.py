from transformers import AutoModelForCausalLM


class Builder:
    def build(self, path):
        return AutoModelForCausalLM.from_pretrained(path, device_map="auto")
