from transformers import AutoModelForCausalLM


def load_scorer(path):
    return AutoModelForCausalLM.from_pretrained(path, device_map="auto")


class Ranker:
    """The inference API: the training script imports the package, never builds one."""

    def __init__(self, path):
        self.model = load_scorer(path)

    def reload(self, path):
        self.model = AutoModelForCausalLM.from_pretrained(path, device_map="auto")
