# dsdoctor-case: target=transformers==4.46.3 zero3=project
# expect: zero3-low-cpu-mem-usage-conflict@32 error
"""Written in the style of Chinese-LLaMA-Alpaca's run_clm_sft_with_peft.py (low_cpu_mem_usage=True, PEFT)."""
from dataclasses import dataclass, field
from typing import Optional

import torch
from peft import LoraConfig, PeftModel, TaskType, get_peft_model
from transformers import HfArgumentParser, LlamaForCausalLM, Trainer, TrainingArguments


@dataclass
class ModelArguments:
    model_name_or_path: Optional[str] = field(default=None)
    torch_dtype: Optional[str] = field(default="float16")
    peft_path: Optional[str] = field(default=None)


def main():
    parser = HfArgumentParser((ModelArguments, TrainingArguments))
    model_args, training_args = parser.parse_args_into_dataclasses()

    torch_dtype = (
        model_args.torch_dtype
        if model_args.torch_dtype in ["auto", None]
        else getattr(torch, model_args.torch_dtype)
    )
    model = LlamaForCausalLM.from_pretrained(
        model_args.model_name_or_path,
        from_tf=bool(".ckpt" in model_args.model_name_or_path),
        torch_dtype=torch_dtype,
        low_cpu_mem_usage=True,
    )
    if model_args.peft_path is not None:
        model = PeftModel.from_pretrained(model, model_args.peft_path, low_cpu_mem_usage=True)
    else:
        model = get_peft_model(model, LoraConfig(task_type=TaskType.CAUSAL_LM, r=8), low_cpu_mem_usage=False)
    trainer = Trainer(model=model, args=training_args)
    trainer.train()


if __name__ == "__main__":
    main()
