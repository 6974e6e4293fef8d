import deepspeed


class PPOTrainer:
    def __init__(self, model, args):
        self.args = args
        self.engine, *_ = deepspeed.initialize(model=model, config=args.deepspeed)

    def train(self):
        pass

    def save_model(self, output_dir):
        if self.args.should_save:
            self.engine.save_checkpoint(output_dir)
