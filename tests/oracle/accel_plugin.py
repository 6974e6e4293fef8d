"""Run by the oracle venv (real accelerate + DeepSpeed on PYTHONPATH): for each JSON item on stdin
({"ds": <accelerate deepspeed_config keys>, "mixed_precision": ..., "world_size": n}) build accelerate's
``DeepSpeedPlugin`` from those values, apply ``set_mixed_precision``, fill the "auto" batch values as
``Accelerator.prepare`` does, and build ``DeepSpeedConfig`` (world size patched). One JSON verdict per line."""

import contextlib
import io
import json
import logging
import sys
import warnings
from unittest import mock

warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)
with contextlib.redirect_stdout(io.StringIO()):
    from accelerate.utils import DeepSpeedPlugin
    from deepspeed.runtime import config as C

FIELDS = {"gradient_accumulation_steps", "gradient_clipping", "zero_stage", "offload_optimizer_device",
          "offload_param_device", "offload_optimizer_nvme_path", "offload_param_nvme_path", "zero3_init_flag",
          "zero3_save_16bit_model"}


def one(item):
    kw = {k: v for k, v in item["ds"].items() if k in FIELDS}
    if "deepspeed_config_file" in item["ds"]:
        kw["hf_ds_config"] = item["ds"]["deepspeed_config_file"]
    plugin = DeepSpeedPlugin(**kw)
    mp = item.get("mixed_precision")
    if mp:
        plugin.set_mixed_precision(mp)
    cfg = dict(plugin.deepspeed_config)
    cfg.pop("steps_per_print", None)
    ws = item.get("world_size") or 1
    gas = cfg.get("gradient_accumulation_steps")
    gas = 1 if gas in (None, "auto") else gas
    cfg.update(train_micro_batch_size_per_gpu=1, gradient_accumulation_steps=gas, train_batch_size=gas * ws)
    if cfg.get("gradient_clipping") == "auto":
        cfg["gradient_clipping"] = 1.0
    with mock.patch.object(C.dist, "get_rank", return_value=0), \
            mock.patch.object(C.dist, "get_world_size", return_value=ws):
        C.DeepSpeedConfig(cfg)


for line in sys.stdin:
    item = json.loads(line)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            one(item)
        print(json.dumps({"ok": True}), flush=True)
    except Exception as exc:  # noqa: BLE001 - the verdict is the exception
        print(json.dumps({"ok": False, "error": f"{type(exc).__name__}: {str(exc)[:300]}"}), flush=True)
