from abc import ABC

from ranker.lm import load_model


class BasePolicy(ABC):  # noqa: B024  (subclasses override nothing yet)
    name = ""

    def __init__(self, backend, model_args):
        self.lm = load_model(backend, model_args)


class ListwisePolicy(BasePolicy):
    name = "ListwisePolicy"


class PointwisePolicy(BasePolicy):
    name = "PointwisePolicy"
