from pkg.pipelines.legacy_trainer import LegacyTrainer


class LegacyAligner:
    def __init__(self, model, args):
        self.trainer = LegacyTrainer(model=model, args=args)

    def run(self):
        self.trainer.train()
