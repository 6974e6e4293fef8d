from olmo_core.train import prepare_training_environment

from .olmo import export_hf


class OlmoActor:
    """Trains with OLMo-core's own trainer; exports to the HF format at the end."""

    def __init__(self, name):
        prepare_training_environment()
        self.name = name

    def finish(self, state_dict, out_dir):
        export_hf(state_dict, self.name, out_dir)


ACTORS = {"olmo": OlmoActor}
