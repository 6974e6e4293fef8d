"""Model classes of the project: whose from_pretrained each load reaches decides what Transformers checks."""
import torch
import torch.nn as nn
from diffusers.configuration_utils import ConfigMixin
from diffusers.models.modeling_utils import ModelMixin
from transformers import AutoModelForCausalLM, LlamaForCausalLM


class VideoNet(ModelMixin, ConfigMixin):
    """A diffusers model with a loader of its own: it reads the weights itself."""

    def __init__(self, width: int = 8) -> None:
        super().__init__()
        self.proj = nn.Linear(width, width)

    @classmethod
    def from_pretrained(cls, path, low_cpu_mem_usage=False, torch_dtype=torch.float32):
        model = cls()
        model.load_state_dict(torch.load(f"{path}/weights.pt"), strict=False)
        return model.to(torch_dtype)


class FrameDecoder(ModelMixin, ConfigMixin):
    """A diffusers model loaded by ModelMixin.from_pretrained itself (no DeepSpeed check there)."""


class TunedLM(LlamaForCausalLM):
    """A Transformers model: its from_pretrained is PreTrainedModel's."""


class WrappedLM(nn.Module):
    """A wrapper whose loader hands its keyword arguments on to Transformers' loader."""

    def __init__(self, inner) -> None:
        super().__init__()
        self.inner = inner

    @classmethod
    def from_pretrained(cls, path, **kwargs):
        return cls(AutoModelForCausalLM.from_pretrained(path, **kwargs))
