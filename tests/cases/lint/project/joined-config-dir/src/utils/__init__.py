from src.utils.paths import RESOURCE_DIR  # noqa: F401
