from transformers import HfArgumentParser, TrainingArguments

from src.args import StageArguments
from src.ppo import run_ppo
from src.sft import run_sft


def main():
    stage_args, training_args = HfArgumentParser((StageArguments, TrainingArguments)).parse_args_into_dataclasses()
    if stage_args.stage == "sft":
        run_sft(stage_args, training_args)
    elif stage_args.stage in ("ppo", "ppo_lag"):
        run_ppo(stage_args, training_args)
    else:
        raise ValueError(stage_args.stage)


if __name__ == "__main__":
    main()
