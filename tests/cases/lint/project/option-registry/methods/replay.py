import os


class Replay:
    """Keeps a buffer of old examples; only with --method replay."""

    def __init__(self, engine, args):
        self.engine, self.args = engine, args

    def save(self):
        if self.args.global_rank == 0:
            self.engine.module.save_pretrained(os.path.join(self.args.output_dir, "replay"))
