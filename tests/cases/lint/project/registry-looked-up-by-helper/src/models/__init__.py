from .big import Big  # noqa: F401
from .registry import ModelRegistry  # noqa: F401
from .small import Small  # noqa: F401
