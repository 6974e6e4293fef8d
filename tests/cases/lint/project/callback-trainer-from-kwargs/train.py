import transformers
from transformers import TrainerCallback


class EpochSaver(TrainerCallback):
    """Takes the trainer from the callback's keyword arguments, which never hold one: the save never runs."""

    def on_epoch_end(self, args, state, control, **kwargs):
        if state.is_world_process_zero:
            trainer = kwargs.get("trainer")
            if trainer is None:
                return
            trainer.save_model(f"{args.output_dir}/epoch-{int(state.epoch)}")


class BestSaver(EpochSaver):
    """Given the trainer itself: its rank-0-only save runs."""

    def __init__(self, trainer=None):
        self.trainer = trainer

    def on_evaluate(self, args, state, control, metrics=None, **kwargs):
        model = kwargs.get("model")
        if model is None:
            return
        if state.is_world_process_zero:
            self.trainer.save_model(f"{args.output_dir}/best")


def main():
    parser = transformers.HfArgumentParser(transformers.TrainingArguments)
    (training_args,) = parser.parse_args_into_dataclasses()
    model = transformers.AutoModelForCausalLM.from_pretrained("my-org/base")
    saver = BestSaver()
    trainer = transformers.Trainer(model=model, args=training_args, callbacks=[EpochSaver(), saver])
    saver.trainer = trainer
    trainer.train()


if __name__ == "__main__":
    main()
