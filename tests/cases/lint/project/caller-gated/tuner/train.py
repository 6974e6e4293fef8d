"""A helper that runs only when its caller's option is set (merge_adapter), beside one that always runs."""
from dataclasses import dataclass, field

from transformers import HfArgumentParser, Trainer, TrainingArguments

from tuner.loading import export_copy, load, merge_adapter


@dataclass
class Options:
    merge_after: bool = field(default=False)


opts, training_args = HfArgumentParser((Options, TrainingArguments)).parse_args_into_dataclasses()
trainer = Trainer(model=load("gpt2"), args=training_args)
trainer.train()
trainer.save_model()
if opts.merge_after and trainer.is_world_process_zero():
    merge_adapter(training_args.output_dir, "merged")
export_copy(training_args.output_dir, "copy")
