from dataclasses import dataclass, field

import peft
import torch.distributed as dist
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments
from transformers.integrations.deepspeed import HfDeepSpeedConfig


@dataclass
class RunArguments:
    lora_ckpt: str = field(default="none")


def main():
    run_args, training_args = HfArgumentParser((RunArguments, TrainingArguments)).parse_args_into_dataclasses()
    if training_args.do_train:
        model = AutoModelForCausalLM.from_pretrained("gpt2")
        model = peft.get_peft_model(model, peft.LoraConfig(task_type="CAUSAL_LM"))
        training_args.gradient_checkpointing_kwargs = {"use_reentrant": False}  # under the launch's ZeRO-2
        Trainer(model=model, args=training_args).train()
    else:
        if run_args.lora_ckpt != "none" and dist.get_rank() == 0:
            merged = AutoModelForCausalLM.from_pretrained("gpt2", device_map="cpu")  # before the only ZeRO-3 config
            merged.save_pretrained("merged")
        dist.barrier()
        ds_config = {"bf16": {"enabled": True}, "zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": 1}
        keep = HfDeepSpeedConfig(ds_config)  # noqa: F841 - kept alive: the load below partitions
        model = AutoModelForCausalLM.from_pretrained("merged", device_map="auto")  # under ZeRO-3: raises
        model.eval()


if __name__ == "__main__":
    main()
