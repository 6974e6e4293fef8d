class Sharder:
    """Copies a module's weights into its shard: a method of the project, no importlib lookup by name."""

    @staticmethod
    def import_module(module, rank):
        return module
