from .short import build_model  # noqa: F401
