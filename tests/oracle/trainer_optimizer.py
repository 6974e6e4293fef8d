"""Run by the oracle venv (real transformers + DeepSpeed on PYTHONPATH, one rank on the CPU):
``trainer_optimizer.py CASES.json``, CASES a list of ``[optimizer params, zero_optimization block]``. For each case a
real Trainer trains a tiny model for one step under a config with an AdamW block of those params (and no scheduler
block), with learning_rate 1e-2, adam_beta1 0.8, adam_beta2 0.95, adam_epsilon 1e-6 and weight_decay 0.1; prints
one JSON list with, per case, the class DeepSpeed built and its first param group's lr (before the Trainer's
schedule: initial_lr), betas, eps and weight_decay."""

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

ARGS = {"learning_rate": 1e-2, "adam_beta1": 0.8, "adam_beta2": 0.95, "adam_epsilon": 1e-6, "weight_decay": 0.1}


def _basic(opt):
    """The optimizer DeepSpeed built from the block, under the Trainer's and ZeRO's wrappers."""
    for _ in range(6):
        if type(opt).__name__ in ("FusedAdam", "DeepSpeedCPUAdam", "AdamW", "Adam"):
            return opt
        opt = opt.optimizer
    raise RuntimeError("no Adam found")


class Seen(TrainerCallback):
    def __init__(self):
        self.got = None

    def on_step_end(self, args, state, control, **kw):
        opt = _basic(kw["optimizer"])
        g = opt.param_groups[0]
        self.got = {"class": type(opt).__name__, "lr": g.get("initial_lr", g["lr"]), "betas": list(g["betas"]),
                    "eps": g["eps"], "weight_decay": g["weight_decay"]}


def run(params, zero):
    cfg = {"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto",
           "optimizer": {"type": "AdamW", "params": params}, "zero_optimization": zero, "fp16": {"enabled": False}}
    seen = Seen()
    with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(io.StringIO()):
        args = TrainingArguments(output_dir=tmp, deepspeed=cfg, use_cpu=True, report_to="none", max_steps=1,
                                 per_device_train_batch_size=4, save_strategy="no", disable_tqdm=True, **ARGS)
        Trainer(model=Tiny(), args=args, train_dataset=Data(16), callbacks=[seen]).train()
    return seen.got


def main():
    cases = json.loads(open(sys.argv[1]).read())
    print(json.dumps([run(params, zero) for params, zero in cases]), flush=True)


if __name__ == "__main__":
    main()
