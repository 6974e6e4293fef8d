from transformers import AutoModelForCausalLM


class HFLM:
    """A local model for scoring passages, spread over the GPUs for inference."""

    def __init__(self, model="Qwen/Qwen2.5-0.5B", device_map="auto"):
        self.model = AutoModelForCausalLM.from_pretrained(model, device_map=device_map)
