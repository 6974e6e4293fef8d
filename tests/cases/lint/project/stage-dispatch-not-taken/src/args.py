from dataclasses import dataclass, field


@dataclass
class StageArguments:
    stage: str = field(default="sft", metadata={"help": "sft, dpo or ppo"})
    model_name_or_path: str = "gpt2"
