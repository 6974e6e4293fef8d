# An 8-bit load whose switch comes straight from an option, directly or through a name assigned from it: the load is
# quantized only with --use_8bit / --eight_bit, which the ZeRO-3 launch of off.sh does not pass (info there).
from dataclasses import dataclass, field

from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments


@dataclass
class ScriptArguments:
    use_8bit: bool = field(default=False)
    eight_bit: bool = field(default=False)


def load(args):
    eight = args.use_8bit
    first = AutoModelForCausalLM.from_pretrained("gpt2", load_in_8bit=eight)
    second = AutoModelForCausalLM.from_pretrained("gpt2", load_in_8bit=args.eight_bit)
    if eight:  # the name assigned from --use_8bit gates its branch too
        first = AutoModelForCausalLM.from_pretrained("gpt2", load_in_8bit=True)
    return first, second


args, training_args = HfArgumentParser((ScriptArguments, TrainingArguments)).parse_args_into_dataclasses()
model, _ = load(args)
Trainer(model=model, args=training_args).train()
