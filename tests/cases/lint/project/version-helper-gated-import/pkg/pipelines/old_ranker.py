from transformers.deepspeed import HfDeepSpeedConfig


class OldRanker:
    def __init__(self, model, args):
        self.model, self.dschf = model, HfDeepSpeedConfig(args.deepspeed)

    def run(self):
        return self.model
