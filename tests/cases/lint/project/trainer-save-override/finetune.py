import os

import torch
from transformers import AutoModelForCausalLM, HfArgumentParser, PreTrainedModel, Trainer, TrainingArguments


class LoggingTrainer(Trainer):
    def _save(self, output_dir=None, state_dict=None):
        # a copy of Trainer._save with a log line: save_model hands it the gathered weights under ZeRO-3
        output_dir = output_dir or self.args.output_dir
        os.makedirs(output_dir, exist_ok=True)
        print("writing", output_dir)
        if not isinstance(self.model, PreTrainedModel):
            if state_dict is None:
                state_dict = self.model.state_dict()
            torch.save(state_dict, os.path.join(output_dir, "pytorch_model.bin"))
        else:
            self.model.save_pretrained(output_dir, state_dict=state_dict)

    def export_copy(self, output_dir):
        self.model.save_pretrained(output_dir, state_dict=self.model.state_dict())


training_args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
trainer = LoggingTrainer(model=AutoModelForCausalLM.from_pretrained("my-org/base-model"), args=training_args)
trainer.train()
trainer.save_model()
trainer.export_copy(os.path.join(training_args.output_dir, "copy"))
