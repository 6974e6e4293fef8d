from dataclasses import dataclass, field

from transformers import AutoModelForCausalLM, BitsAndBytesConfig, HfArgumentParser, Trainer, TrainingArguments


@dataclass
class ModelArguments:
    model_name_or_path: str = field(default="gpt2")
    q_lora: bool = field(default=False)


def main():
    model_args, training_args = HfArgumentParser((ModelArguments, TrainingArguments)).parse_args_into_dataclasses()
    device_map = None
    if model_args.q_lora:  # the caller's `--q_lora True` override of the script's default
        device_map = "auto"
    model = AutoModelForCausalLM.from_pretrained(
        model_args.model_name_or_path,
        device_map=device_map,
        low_cpu_mem_usage=True,
        quantization_config=BitsAndBytesConfig(load_in_4bit=True) if model_args.q_lora else None,
    )
    Trainer(model=model, args=training_args).train()


if __name__ == "__main__":
    main()
