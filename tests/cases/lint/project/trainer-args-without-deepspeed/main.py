from transformers import HfArgumentParser, TrainingArguments
from workflows import reward, sft

(training_args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
if training_args.run_name == "reward":
    reward.run("reward-model")
else:
    sft.run(training_args)
