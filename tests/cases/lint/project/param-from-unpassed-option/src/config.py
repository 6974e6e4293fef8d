from dataclasses import dataclass, field
from typing import Optional


@dataclass
class ModelArguments:
    model_name_or_path: str = field(default="gpt2")
    quantization: Optional[int] = field(default=None, metadata={"help": "4 or 8 bit bitsandbytes, or None"})
    quantization_inference: Optional[int] = field(default=None)
