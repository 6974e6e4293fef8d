from .model_utils import get_model

__all__ = ["get_model"]
