class ModelRegistry:
    """Model wrappers by name: a config's `model: {name: ...}` picks one."""

    _classes = {}

    @classmethod
    def register(cls, klass):
        cls._classes[klass.__name__] = klass
        return klass

    @classmethod
    def build(cls, name):
        return cls._classes[name]()
