# dsdoctor-case: target=transformers==4.46.3 zero3=project
# expect: zero3-unsafe-save@16 error
# expect: zero3-unsafe-save@25 error
"""Saves that write the local ZeRO-3 partitions: a helper that copies model.state_dict() to the CPU and hands it
to the Trainer's _save, and a TrainerCallback saving kwargs["model"]. A helper nothing calls any more is dead code."""
import os

import transformers
from transformers import AutoModelForCausalLM, Trainer, TrainerCallback


def dump(trainer, out):
    weights = trainer.model.state_dict()
    if trainer.args.should_save:
        on_cpu = {k: v.cpu() for k, v in weights.items()}
        trainer._save(out, state_dict=on_cpu)


def unused_dump(trainer, out):
    trainer._save(out, state_dict=trainer.model.state_dict())


class Adapters(TrainerCallback):
    def on_save(self, args, state, control, **kwargs):
        kwargs["model"].save_pretrained(os.path.join(args.output_dir, "adapter"))
        return control


if __name__ == "__main__":
    (args,) = transformers.HfArgumentParser((transformers.TrainingArguments,)).parse_args_into_dataclasses()
    t = Trainer(model=AutoModelForCausalLM.from_pretrained("m"), args=args, callbacks=[Adapters()])
    t.train()
    dump(t, args.output_dir)
