"""Run by the oracle venv (real transformers + DeepSpeed on PYTHONPATH, one rank on the CPU):
``trainer_schedule.py CASES.json``, CASES a list of ``[scheduler_type or null, lr_scheduler_type]``. For each case a
real Trainer trains a tiny model for 16 steps (learning_rate 1e-2, 2 warm-up steps) under a ZeRO-3 config with an
AdamW block and, unless the type is null, a "scheduler" block of that type with "auto" params, with TrainingArguments'
lr_scheduler_type set; prints one JSON list of the learning rates after each step, per case."""

import contextlib
import io
import json
import logging
import sys
import tempfile
import warnings

warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)
with contextlib.redirect_stdout(io.StringIO()):
    from tiny_trainer import Data, Tiny
    from transformers import Trainer, TrainerCallback, TrainingArguments

PARAMS = {"WarmupLR": ("warmup_min_lr", "warmup_max_lr", "warmup_num_steps"),
          "WarmupDecayLR": ("warmup_min_lr", "warmup_max_lr", "warmup_num_steps", "total_num_steps"),
          "WarmupCosineLR": ("warmup_num_steps", "total_num_steps")}


class Rates(TrainerCallback):
    def __init__(self):
        self.seen = []

    def on_step_end(self, args, state, control, **kw):
        self.seen.append(round(kw["lr_scheduler"].get_last_lr()[0], 7))


def run(kind, lr_type):
    cfg = {"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto",
           "optimizer": {"type": "AdamW", "params": {"lr": "auto"}}, "zero_optimization": {"stage": 3},
           "fp16": {"enabled": False}}  # 4.46.3 builds zero.Init in fp16 unless told
    if kind:
        cfg["scheduler"] = {"type": kind, "params": {p: "auto" for p in PARAMS[kind]}}
    rates = Rates()
    with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(io.StringIO()):
        args = TrainingArguments(output_dir=tmp, deepspeed=cfg, use_cpu=True, report_to="none", max_steps=16,
                                 per_device_train_batch_size=4, learning_rate=1e-2, warmup_steps=2,
                                 lr_scheduler_type=lr_type, save_strategy="no", disable_tqdm=True)
        Trainer(model=Tiny(), args=args, train_dataset=Data(), callbacks=[rates]).train()
    return rates.seen


def main():
    cases = json.loads(open(sys.argv[1]).read())
    print(json.dumps([run(kind, lr_type) for kind, lr_type in cases]), flush=True)


if __name__ == "__main__":
    main()
