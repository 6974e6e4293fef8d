from dataclasses import dataclass


@dataclass
class ModelConfig:
    model_name_or_path: str = "gpt2"
    use_peft: bool = False
