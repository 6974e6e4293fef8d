from src.models import ModelRegistry


class Engine:
    """Quantisation runs: the wrapper a config names, loaded for calibration."""

    def __init__(self, name, path):
        self.wrapper = ModelRegistry.build(name)
        self.model = self.wrapper.load(path)
