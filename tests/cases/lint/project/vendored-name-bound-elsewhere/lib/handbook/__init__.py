from .model_utils import get_quantization_config

__all__ = ["get_quantization_config"]
