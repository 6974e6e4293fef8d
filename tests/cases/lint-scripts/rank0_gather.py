# dsdoctor-case: target=transformers==4.46.3 zero3=project
# expect: zero3-save-on-rank0-only@14 error
# expect: zero3-save-on-rank0-only@22 error
"""Gathering saves behind a rank-0 test: Trainer.save_model and Accelerator.get_state_dict are collectives under
ZeRO-3. A callback's own save_model method and a save on every rank are fine."""
import torch
import transformers
from accelerate import Accelerator
from transformers import AutoModelForCausalLM, Trainer, TrainerCallback


def finish(trainer, out):
    if trainer.args.should_save and trainer.args.local_rank == 0:
        trainer.save_model(out)


def export(accelerator, model, out):
    accelerator.wait_for_everyone()
    full = accelerator.get_state_dict(model)
    torch.save(full, out)
    if accelerator.is_main_process:
        again = accelerator.get_state_dict(model)
        torch.save(again, out + ".bak")


class Snapshot(TrainerCallback):
    def save_model(self, args, state, kwargs):
        pass

    def on_save(self, args, state, control, **kwargs):
        if state.is_world_process_zero:
            self.save_model(args, state, kwargs)


if __name__ == "__main__":
    (args,) = transformers.HfArgumentParser((transformers.TrainingArguments,)).parse_args_into_dataclasses()
    t = Trainer(model=AutoModelForCausalLM.from_pretrained("m"), args=args, callbacks=[Snapshot()])
    t.train()
    finish(t, args.output_dir)
    export(Accelerator(), t.model, args.output_dir)
