import importlib


def optional(name):
    """An optional dependency, or None where it is not installed."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None
