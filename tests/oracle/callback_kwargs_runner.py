"""Run a real HF Trainer for two steps on a tiny GPT-2 built from a config (CPU, nothing downloaded), with a
callback that records, per event, the keyword names the Trainer hands it; print them as JSON."""

import json
import sys

import torch
import transformers
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainerCallback, TrainingArguments

seen = {}


class Recorder(TrainerCallback):
    pass


def _record(event):
    def method(self, args, state, control, **kwargs):
        seen.setdefault(event, set()).update(kwargs)
    return method


for name in dir(TrainerCallback):
    if name.startswith("on_"):
        setattr(Recorder, name, _record(name))

torch.manual_seed(0)
model = GPT2LMHeadModel(GPT2Config(n_layer=1, n_head=2, n_embd=8, vocab_size=16, n_positions=8))
data = [{"input_ids": torch.tensor([1, 2, 3, 4]), "labels": torch.tensor([1, 2, 3, 4])} for _ in range(4)]
strategy = "eval_strategy" if "eval_strategy" in TrainingArguments.__dataclass_fields__ else "evaluation_strategy"
cpu = {"use_cpu": True} if "use_cpu" in TrainingArguments.__dataclass_fields__ else {"no_cuda": True}
args = TrainingArguments(output_dir=sys.argv[1], max_steps=2, per_device_train_batch_size=2, logging_steps=1,
                         save_steps=1, eval_steps=1, report_to=[], **{strategy: "steps"}, **cpu)
trainer = Trainer(model=model, args=args, train_dataset=data, eval_dataset=data[:2], callbacks=[Recorder()])
trainer.train()
trainer.evaluate()
trainer.predict(data[:2])
print(json.dumps({"version": transformers.__version__, "events": {k: sorted(v) for k, v in seen.items()}}))
