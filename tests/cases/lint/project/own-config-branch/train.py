from dataclasses import dataclass, field

import torch
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments
from transformers.integrations.deepspeed import HfDeepSpeedConfig


@dataclass
class RunArguments:
    do_train: bool = field(default=False)


def main():
    run_args, training_args = HfArgumentParser((RunArguments, TrainingArguments)).parse_args_into_dataclasses()
    if run_args.do_train:
        model = AutoModelForCausalLM.from_pretrained("gpt2", torch_dtype=torch.bfloat16)
        Trainer(model=model, args=training_args).train()
        model.save_pretrained(training_args.output_dir)  # under the launch's ZeRO-2 config: whole weights
    else:
        merged = AutoModelForCausalLM.from_pretrained("gpt2")
        merged.save_pretrained("merged")  # before the predict config below exists: whole weights
        ds_config = {"bf16": {"enabled": True}, "zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": 1}
        keep = HfDeepSpeedConfig(ds_config)  # noqa: F841 - kept alive: from_pretrained below partitions
        model = AutoModelForCausalLM.from_pretrained("merged", torch_dtype=torch.bfloat16)
        model.save_pretrained("predict-copy")  # partitioned: ZeRO-3 from the config above


if __name__ == "__main__":
    main()
