# dsdoctor-case: target=transformers==4.46.3,deepspeed==0.19.2 zero3=project
# expect: peft-checkpointing-reentrant@20 info
"""Non-reentrant checkpointing chosen after parsing, by assigning gradient_checkpointing_kwargs on the training
arguments (only in one branch: the other keeps the reentrant setting PEFT needs under ZeRO-3 here). No --tune_vision in the launch: info."""
from dataclasses import dataclass

import transformers
from peft import LoraConfig, get_peft_model


@dataclass
class Args(transformers.TrainingArguments):
    tune_vision: bool = False


def main():
    (args,) = transformers.HfArgumentParser((Args,)).parse_args_into_dataclasses()
    model = transformers.AutoModelForCausalLM.from_pretrained("m")
    if args.tune_vision:
        args.gradient_checkpointing_kwargs = {"use_reentrant": False}
    else:
        args.gradient_checkpointing_kwargs = {"use_reentrant": True}
    model = get_peft_model(model, LoraConfig(r=8))
    transformers.Trainer(model=model, args=args).train()


if __name__ == "__main__":
    main()
