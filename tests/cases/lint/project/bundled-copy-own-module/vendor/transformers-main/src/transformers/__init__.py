__version__ = "4.28.0.dev0"
