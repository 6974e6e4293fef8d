"""Run by the oracle venv (real transformers + accelerate + DeepSpeed on PYTHONPATH, one rank on the CPU):
``trainer_autos.py CONFIG.json [accelerate]``. Prints one JSON verdict:

- ``remaining``: the "auto" keys left after the real HfTrainerDeepSpeedConfig's trainer_config_process (real
  TrainingArguments, --bf16) and trainer_config_finalize (a model whose config has a hidden size): the config a
  Trainer that calls deepspeed.initialize itself (up to 4.29) hands to DeepSpeed;
- ``same_without``: whether the real DeepSpeedConfig built from that config equals the one built with those keys
  deleted (DeepSpeed drops them and uses the defaults), and ``bf16``: the bf16 "enabled" value DeepSpeed keeps;
- with ``accelerate``: ``unfilled``, the keys the real ``Accelerator.prepare()`` stops on as the Trainer (4.30+)
  calls it (each one deleted and prepare() called again, until no "auto" is left), and ``end``, how it ended.
"""

import contextlib
import copy
import io
import json
import logging
import os
import re
import sys
import tempfile
import warnings
from types import SimpleNamespace
from unittest import mock

warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)
with contextlib.redirect_stdout(io.StringIO()):
    import torch
    from deepspeed.runtime import config as C
    from transformers import TrainingArguments
    from transformers.integrations.deepspeed import HfTrainerDeepSpeedConfig

from ds_autos import autos, delete  # noqa: E402 - beside this script (its sys.path[0])

AUTO_KEY = re.compile(r"`([^`]+)` not found in kwargs")


def ds_config(cfg):
    with mock.patch.object(C.dist, "get_rank", return_value=0), \
            mock.patch.object(C.dist, "get_world_size", return_value=1):
        return C.DeepSpeedConfig(copy.deepcopy(cfg))


def state(c):
    out = {}
    for k, v in vars(c).items():
        if k.startswith("_") or k == "_param_dict":
            continue
        out[k] = v.model_dump() if hasattr(v, "model_dump") else v
    return out


def bf16_enabled(c):
    if hasattr(c, "bfloat16_config"):
        return c.bfloat16_config.enabled
    return c.bfloat16_enabled


def main():
    cfg = json.loads(open(sys.argv[1]).read())
    out = {}
    with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(io.StringIO()):
        args = TrainingArguments(output_dir=tmp, deepspeed=copy.deepcopy(cfg), bf16=True, use_cpu=True,
                                 report_to="none", per_device_train_batch_size=2, gradient_accumulation_steps=1)
        model = torch.nn.Linear(8, 8)
        model.config = SimpleNamespace(hidden_size=8)
        direct = HfTrainerDeepSpeedConfig(copy.deepcopy(cfg))
        direct.trainer_config_process(args)
        direct.trainer_config_finalize(args, model, 10)
        filled = direct.config
        remaining = sorted(autos(filled))
        out["remaining"] = remaining
        c = ds_config(filled)
        without = copy.deepcopy(filled)
        for k in remaining:
            delete(without, k)
        a, b = state(c), state(ds_config(without))
        base = state(ds_config(without))
        noisy = {k for k in b if k not in base or base[k] != b[k]}  # differs between two builds of one config
        out["differs"] = sorted(k for k in set(a) | set(b) if k not in noisy and a.get(k) != b.get(k))
        out["same_without"] = not out["differs"]
        out["bf16"] = bf16_enabled(c)
        if "accelerate" in sys.argv[2:]:
            from accelerate import Accelerator
            from accelerate.utils import DummyOptim, DummyScheduler

            acc = Accelerator(deepspeed_plugin=args.deepspeed_plugin)  # as Trainer.create_accelerator_and_postprocess
            plugin = acc.state.deepspeed_plugin
            plugin.hf_ds_config.trainer_config_finalize(args, model, 10)  # deepspeed_init
            unfilled = []
            end = ""
            out["first_error"] = ""
            for _ in range(20):
                if not any(autos(plugin.deepspeed_config)):
                    end = 'no "auto" left'  # not initialising the engine: the verdict is in the ValueErrors
                    break
                opt = DummyOptim(params=list(model.parameters()))
                try:
                    acc.prepare(model, opt, DummyScheduler(opt))
                    end = "prepared"
                    break
                except ValueError as exc:
                    m = AUTO_KEY.search(str(exc))
                    if not m:
                        end = f"ValueError: {exc}"[:300]
                        break
                    if not unfilled:
                        out["first_error"] = str(exc)
                    unfilled.append(m.group(1))
                    delete(plugin.deepspeed_config, m.group(1))
                    end = str(exc)
                except Exception as exc:  # noqa: BLE001 - the verdict is the exception
                    end = f"{type(exc).__name__}: {exc}"[:300]
                    break
            out["unfilled"] = unfilled
            out["end"] = end
    print(json.dumps(out, default=str), flush=True)


if __name__ == "__main__":
    os.environ.setdefault("ACCELERATE_MIXED_PRECISION", "bf16")
    main()
