__all__ = ["load"]


def load(path, device=None):
    """The chat API: a finished model for generation."""
    from vlm.builder import load_for_serving

    return load_for_serving(path, device)
