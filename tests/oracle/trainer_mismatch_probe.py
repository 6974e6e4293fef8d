"""Run by tests/oracle/test_trainer_mismatch_oracle.py with the oracle's Transformers and DeepSpeed: what the
fixture's train.py does with its command line (HfArgumentParser over TrainingArguments, a Trainer), then the check
the Trainer runs before training (trainer_config_finalize); prints RESULT and the ValueError's message or "ok"."""
import json
import sys

import torch
import transformers

argv = sys.argv[1:]
(args,) = transformers.HfArgumentParser(transformers.TrainingArguments).parse_args_into_dataclasses(args=argv)
model = torch.nn.Linear(2, 2)
trainer = transformers.Trainer(model=model, args=args)
hf = getattr(args, "hf_deepspeed_config", None)
if hf is None:
    hf = trainer.accelerator.state.deepspeed_plugin.hf_ds_config
try:
    hf.trainer_config_finalize(args, model, 10)
    print("RESULT", json.dumps("ok"))
except ValueError as e:
    print("RESULT", json.dumps(str(e)))
