"""Options reach the problem through a function parameter (``qlora``) and through a callback class the script
registers only with ``--use_lora``; the ZeRO-3 launch passes neither."""
from dataclasses import dataclass, field

from transformers import AutoModelForCausalLM, BitsAndBytesConfig, HfArgumentParser, Trainer, TrainerCallback, TrainingArguments


@dataclass
class ModelArguments:
    use_lora: bool = field(default=False)
    qlora: bool = field(default=False)
    save_full: bool = field(default=False)


class SaveAdapterCallback(TrainerCallback):
    def on_save(self, args, state, control, **kwargs):
        kwargs["model"].save_pretrained(args.output_dir)  # only with --use_lora: info


def load(path: str, qlora: bool = False):
    if qlora:  # every call passes model_args.qlora: only with --qlora, info
        quant = BitsAndBytesConfig(load_in_4bit=True)
        return AutoModelForCausalLM.from_pretrained(path, quantization_config=quant)
    return AutoModelForCausalLM.from_pretrained(path)


def save_state(trainer: Trainer, out: str) -> None:
    state_dict = trainer.model.state_dict()
    trainer._save(out, state_dict=state_dict)  # the ZeRO-3 launch passes --save_full: an error


model_args, training_args = HfArgumentParser((ModelArguments, TrainingArguments)).parse_args_into_dataclasses()
model = load("gpt2", qlora=model_args.qlora)
trainer = Trainer(model=model, args=training_args)
if model_args.use_lora:
    trainer.add_callback(SaveAdapterCallback)
trainer.train()
if model_args.save_full:
    save_state(trainer, training_args.output_dir)
