from dataclasses import dataclass
from typing import Literal


@dataclass
class Options:
    policy: str = "my-org/base"
    scorer: str = "my-org/scorer"
    explore: Literal[
        "off",
        "thompson",
    ] = "off"
