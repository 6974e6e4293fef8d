import transformers
from transformers.deepspeed import is_deepspeed_zero3_enabled


class LegacyTrainer(transformers.Trainer):
    def zero3(self):
        return is_deepspeed_zero3_enabled()
