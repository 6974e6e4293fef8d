from .model_utils import get_model
from .rewards import score

__all__ = ["get_model", "score"]
