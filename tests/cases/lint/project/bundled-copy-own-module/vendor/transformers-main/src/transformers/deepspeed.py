from .integrations import HfDeepSpeedConfig  # noqa: F401
