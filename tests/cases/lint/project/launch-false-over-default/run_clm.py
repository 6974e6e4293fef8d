from dataclasses import dataclass, field

from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments


@dataclass
class ModelArguments:
    model_name_or_path: str = field(default="gpt2")
    use_low_cpu_mem: bool = field(default=True, metadata={"help": "load with low_cpu_mem_usage"})


def main():
    model_args, training_args = HfArgumentParser((ModelArguments, TrainingArguments)).parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path,
                                                 low_cpu_mem_usage=model_args.use_low_cpu_mem)
    Trainer(model=model, args=training_args).train()


if __name__ == "__main__":
    main()
