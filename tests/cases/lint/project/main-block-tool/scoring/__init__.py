from .scorer import Scorer

__all__ = ["Scorer"]
