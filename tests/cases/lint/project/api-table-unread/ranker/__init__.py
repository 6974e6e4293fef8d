from dataclasses import dataclass
from typing import Type

from ranker.policy import *  # noqa: F403


@dataclass(frozen=True)
class Approach:
    """How one reranking approach is built: its policy class and the strategy's defaults."""

    policy_cls: Type[BasePolicy]  # noqa: F405
    window: int = 20


APPROACHES = {
    "listwise": Approach(policy_cls=ListwisePolicy, window=20),  # noqa: F405
    "pointwise": Approach(policy_cls=PointwisePolicy, window=1),  # noqa: F405
}


class Reranker:
    """The user-facing reranker: a policy over an LM backend, for inference."""

    def __init__(self, approach="listwise", model_args=None):
        self.policy = APPROACHES[approach].policy_cls("hf", model_args or {})
