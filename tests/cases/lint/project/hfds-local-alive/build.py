from transformers import AutoModelForCausalLM


class Net:
    def __init__(self, cfg):
        self.backbone = AutoModelForCausalLM.from_pretrained(cfg["name"])
