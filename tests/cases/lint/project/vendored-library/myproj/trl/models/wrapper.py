from transformers import AutoModelForCausalLM


class WrapperBase:
    @classmethod
    def from_pretrained(cls, name, load_in_8bit=False):
        if load_in_8bit:
            # the library's quantized branch: taken only when a caller asks for it
            model = AutoModelForCausalLM.from_pretrained(name, load_in_8bit=True, device_map="auto")
        else:
            model = AutoModelForCausalLM.from_pretrained(name)
        return cls(model)

    def __init__(self, model):
        self.model = model


class WithHead(WrapperBase):
    pass
