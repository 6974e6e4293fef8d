"""The recommended option as a ds_config, written atomically (the table / JSON: :mod:`dsdoctor.render.estimate`)."""

from __future__ import annotations

import json
from typing import Any, Dict

from .core import Option


def ds_config(opt: Option, micro_batch: int, nvme_path: str = "/local_nvme", pin_memory: bool = True) -> Dict[str, Any]:
    """A ds_config for ``opt``: concrete values (no "auto"), bf16, the optimizer DeepSpeed offloads to
    DeepSpeedCPUAdam, and 16-bit gathering on save under ZeRO-3. ``pin_memory`` only where the memlock
    limit allows it (an explicit false: DeepSpeed 0.19.5+ pins by default)."""
    zero: Dict[str, Any] = {"stage": opt.stage, "overlap_comm": True, "contiguous_gradients": True}
    for key, dev in (("offload_optimizer", opt.offload_optimizer), ("offload_param", opt.offload_param)):
        if dev != "none":
            block: Dict[str, Any] = {"device": dev, "pin_memory": pin_memory}
            if dev == "nvme":
                block["nvme_path"] = nvme_path
            zero[key] = block
    if opt.stage == 3:
        zero["stage3_gather_16bit_weights_on_model_save"] = True
    return {
        "train_micro_batch_size_per_gpu": micro_batch,
        "gradient_accumulation_steps": 1,
        "gradient_clipping": 1.0,
        "bf16": {"enabled": True},
        "optimizer": {"type": "AdamW", "params": {"lr": 2e-5, "betas": [0.9, 0.999], "eps": 1e-8,
                                                  "weight_decay": 0.0}},
        "zero_optimization": zero,
    }


def write_atomic(path: str, data: Dict[str, Any]) -> None:
    """Write the ds_config JSON to ``path`` atomically."""
    from ..atomic import write_text

    write_text(path, json.dumps(data, indent=2) + "\n")
