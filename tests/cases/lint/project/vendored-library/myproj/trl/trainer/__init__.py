from transformers import Trainer

from ..models.wrapper import WrapperBase  # noqa: F401


class PairTrainer(Trainer):
    def __init__(self, model=None, ref_model=None, args=None):
        super().__init__(model=model, args=args)
        self.ref_model = ref_model
