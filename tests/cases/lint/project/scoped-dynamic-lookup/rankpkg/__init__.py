from .api import Ranker
from .builders import Builder

__all__ = ["Builder", "Ranker"]
