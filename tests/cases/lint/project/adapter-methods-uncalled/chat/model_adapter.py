"""Model adapters of a chat serving stack: the training script only asks one for its prompt template."""
from transformers import AutoModelForCausalLM


class BaseModelAdapter:
    def match(self, model_path):
        return True

    def load_model(self, model_path, kwargs):
        return AutoModelForCausalLM.from_pretrained(model_path, low_cpu_mem_usage=True, **kwargs)

    def get_default_conv_template(self, model_path):
        return "{system}\n{user}"


class VicunaAdapter(BaseModelAdapter):
    def match(self, model_path):
        return "vicuna" in model_path

    def load_model(self, model_path, kwargs):
        return AutoModelForCausalLM.from_pretrained(model_path, device_map="auto", **kwargs)


class RewardLoader:
    """A plain class whose method the training script does call."""

    def load(self, path):
        return AutoModelForCausalLM.from_pretrained(path, device_map="auto")


ADAPTERS = []


def register_model_adapter(cls):
    ADAPTERS.append(cls())


def get_model_adapter(model_path):
    return next(a for a in ADAPTERS if a.match(model_path))


def load_model(model_path, **kwargs):
    """The serving stack's loader: the training script never calls it."""
    return get_model_adapter(model_path).load_model(model_path, kwargs)


def get_conversation_template(model_path):
    return get_model_adapter(model_path).get_default_conv_template(model_path)


register_model_adapter(VicunaAdapter)
register_model_adapter(BaseModelAdapter)
