"""The engine around the model."""
import deepspeed


class Agent:
    def __init__(self, model, args):
        self.model = model
        self.engine, _, _, _ = deepspeed.initialize(model=model, config=args.ds_config,
                                                    model_parameters=model.parameters())

    def train_step(self, step):
        loss = self.engine(input_ids=None).loss
        self.engine.backward(loss)
        self.engine.step()

    def save_model(self, path, step):
        self.engine.save_checkpoint(path, step)
