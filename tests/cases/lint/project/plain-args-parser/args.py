from dataclasses import dataclass, field

from transformers import TrainingArguments


@dataclass
class ModelArgs:
    model: str = field(default="gpt2")


@dataclass
class SamplingArgs(ModelArgs):
    temperature: float = 0.7


@dataclass
class RunArgs(TrainingArguments):
    note: str = ""
