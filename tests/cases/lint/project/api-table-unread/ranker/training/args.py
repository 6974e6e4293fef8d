from dataclasses import dataclass, field


@dataclass
class ModelArguments:
    model_name_or_path: str = field(default="Qwen/Qwen2.5-0.5B")
