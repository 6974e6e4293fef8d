"""A standalone scorer: only this file's own __main__ block builds Scorer, and nothing here sets up a
distributed engine, so its device_map load never meets ZeRO-3 (info)."""
from dataclasses import dataclass

from transformers import AutoModelForCausalLM, HfArgumentParser


@dataclass
class ScoreConfig:
    model: str = "gpt2"


class Scorer:
    def __init__(self, path: str) -> None:
        self.model = AutoModelForCausalLM.from_pretrained(path, device_map="auto")


if __name__ == "__main__":
    (args,) = HfArgumentParser(ScoreConfig).parse_args_into_dataclasses()
    scorer = Scorer(args.model)
    print(scorer.model.config)
