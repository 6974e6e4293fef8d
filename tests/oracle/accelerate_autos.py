"""Run by the oracle venv (real accelerate + DeepSpeed on PYTHONPATH, one rank on the CPU), no HF Trainer:
``accelerate_autos.py CONFIG.json TOTAL_STEPS`` builds an Accelerator with the config as its DeepSpeedPlugin and
calls ``prepare(model, DummyOptim, DummyScheduler, DataLoader)`` as a training script does (the scheduler given ``total_num_steps`` unless
TOTAL_STEPS is 0), deleting each key prepare() stops on and calling it again until no "auto" is left. Prints one JSON
verdict: ``unfilled`` (the keys it stopped on, in order), ``first_error`` and ``end``."""

import contextlib
import io
import json
import logging
import re
import sys
import warnings
from types import SimpleNamespace

warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)
with contextlib.redirect_stdout(io.StringIO()):
    import torch
    from accelerate import Accelerator
    from accelerate.utils import DeepSpeedPlugin, DummyOptim, DummyScheduler

from ds_autos import autos, delete  # noqa: E402 - beside this script (its sys.path[0])

AUTO_KEY = re.compile(r"`([^`]+)` not found in kwargs")


def main():
    cfg = json.loads(open(sys.argv[1]).read())
    total = int(sys.argv[2]) or None
    out = {"unfilled": [], "first_error": "", "end": ""}
    with contextlib.redirect_stdout(io.StringIO()):
        acc = Accelerator(deepspeed_plugin=DeepSpeedPlugin(hf_ds_config=cfg))
        plugin = acc.state.deepspeed_plugin
        model = torch.nn.Linear(8, 8)
        model.config = SimpleNamespace(hidden_size=8)  # an HF model's: the bucket sizes' "auto" come from it
        data = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.zeros(8, 8)), batch_size=2)
        for _ in range(20):
            if not any(autos(plugin.deepspeed_config)):
                out["end"] = 'no "auto" left'  # the engine is not started: the verdict is in the ValueErrors
                break
            opt = DummyOptim(params=list(model.parameters()))
            try:
                acc.prepare(model, opt, DummyScheduler(opt, total_num_steps=total, warmup_num_steps=5), data)
                out["end"] = "prepared"
                break
            except ValueError as exc:
                m = AUTO_KEY.search(str(exc))
                if not m:
                    out["end"] = f"ValueError: {exc}"[:300]
                    break
                out["first_error"] = out["first_error"] or str(exc)
                out["unfilled"].append(m.group(1))
                delete(plugin.deepspeed_config, m.group(1))
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
