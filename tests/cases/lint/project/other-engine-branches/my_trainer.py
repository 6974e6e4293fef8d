"""A trainer copied from an older HF Trainer: its save has one branch per engine. Under DeepSpeed only the
DeepSpeed branch runs, so the plain state_dict() saves of the TPU, SageMaker and FSDP branches (and the TPU helper
only they call) are info; the save outside any engine branch stays an error."""
import os

from transformers import Trainer
from transformers.utils import is_sagemaker_mp_enabled, is_torch_tpu_available


class MyTrainer(Trainer):
    def save_model(self, output_dir=None, _internal_call=False):
        if is_torch_tpu_available():
            self._save_tpu(output_dir)
        elif is_sagemaker_mp_enabled():
            os.makedirs(output_dir, exist_ok=True)
            self._save(output_dir, state_dict=self.model_wrapped.state_dict())
        elif self.fsdp is not None:
            self._save(output_dir, state_dict=self.model.state_dict())
        elif not is_sagemaker_mp_enabled():
            self.model.save_pretrained(output_dir)  # the DeepSpeed path: an error under ZeRO-3

    def _save_tpu(self, output_dir=None):
        self.model.save_pretrained(output_dir)
