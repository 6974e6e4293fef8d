from . import dist  # noqa: F401 - the link file, imported
