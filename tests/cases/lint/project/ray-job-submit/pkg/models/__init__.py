from .actor import Actor

__all__ = ["Actor"]
