"""A checkout of DeepSpeed itself (its package directory beside version.txt)."""
from .git_version_info import version as __version__  # noqa: F401
