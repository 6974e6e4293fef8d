import fire
import transformers


class EpochSaver(transformers.TrainerCallback):
    """Written for an earlier version of the script; main() no longer registers it."""

    def __init__(self, trainer):
        self.trainer = trainer

    def on_epoch_end(self, args, state, control, **kwargs):
        if state.is_world_process_zero:
            self.trainer.save_model(f"{args.output_dir}/epoch-{int(state.epoch)}")


def main(output_dir="out"):
    parser = transformers.HfArgumentParser(transformers.TrainingArguments)
    (training_args,) = parser.parse_args_into_dataclasses()
    model = transformers.AutoModelForCausalLM.from_pretrained("my-org/base")
    trainer = transformers.Trainer(model=model, args=training_args)
    trainer.train()
    if training_args.local_rank == 0:
        trainer.save_model(output_dir)


if __name__ == "__main__":
    fire.Fire(main)
