from transformers import Trainer
from transformers.deepspeed import is_deepspeed_zero3_enabled


class RerankTrainer(Trainer):
    def save_model(self, output_dir=None, _internal_call=False):
        if is_deepspeed_zero3_enabled():
            super().save_model(output_dir, _internal_call)
        else:
            self.model.save_pretrained(output_dir)
