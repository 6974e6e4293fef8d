import os

from transformers import Trainer
from transformers.utils import is_sagemaker_mp_enabled

from rlkit.checkpoint import full_state_dict


class FullSaveTrainer(Trainer):
    def save_model(self, output_dir=None, _internal_call=False):
        """A copy of Trainer.save_model whose DeepSpeed branch gathers the weights itself."""
        output_dir = output_dir or self.args.output_dir
        if is_sagemaker_mp_enabled():
            os.makedirs(output_dir, exist_ok=True)
            state_dict = self.model_wrapped.state_dict()
            if self.args.should_save:
                self._save(output_dir, state_dict=state_dict)
        elif self.is_fsdp_enabled:
            state_dict = self.model.state_dict()
            if self.args.should_save:
                self._save(output_dir, state_dict=state_dict)
        elif self.is_deepspeed_enabled:
            state_dict = full_state_dict(self.deepspeed)
            if self.args.should_save:
                self._save(output_dir, state_dict=state_dict)
        elif self.args.should_save:
            self._save(output_dir)
