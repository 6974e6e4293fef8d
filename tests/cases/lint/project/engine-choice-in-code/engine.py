class Trainer:
    """The project's own trainer: env_type picks the engine; deepspeed_config is read only by "deepspeed"."""

    def __init__(self, env_type="pytorch", deepspeed_config=None):
        self.env_type, self.deepspeed_config = env_type, deepspeed_config

    def train(self, model):
        if self.env_type == "deepspeed":
            import deepspeed

            deepspeed.initialize(model=model, config=self.deepspeed_config)
