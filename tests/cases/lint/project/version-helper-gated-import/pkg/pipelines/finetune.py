import transformers


class Finetune:
    def __init__(self, model, args):
        self.model, self.args = model, args

    def run(self):
        transformers.Trainer(model=self.model, args=self.args).train()
