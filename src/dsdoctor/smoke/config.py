"""The DeepSpeed config a smoke run trains with: the default (ZeRO-3, both offloads to the CPU) or the user's,
with the values the HF Trainer would fill ("auto") filled."""

from __future__ import annotations

import json
from typing import Any, Dict


def default_config(micro_batch: int = 4) -> Dict[str, Any]:
    """ZeRO-3 with both offloads to the CPU, fp32 (the CPU accelerator refuses fp16), DeepSpeed's AdamW
    (so DeepSpeedCPUAdam is used), 16-bit gather on save."""
    return {"train_micro_batch_size_per_gpu": micro_batch, "gradient_accumulation_steps": 1,
            "gradient_clipping": 1.0,
            "optimizer": {"type": "AdamW", "params": {"lr": 1e-2, "weight_decay": 0.0}},
            "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"},
                                  "offload_param": {"device": "cpu"},
                                  "stage3_gather_16bit_weights_on_model_save": True}}


AUTO_FILL = {"train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 1, "gradient_clipping": 1.0}


def fill_auto(cfg: Dict[str, Any], nproc: int) -> Dict[str, Any]:
    """Replace the "auto" values the HF Trainer would fill, so the user's config runs outside the Trainer."""
    out: Dict[str, Any] = json.loads(json.dumps(cfg))
    for k, v in AUTO_FILL.items():
        if out.get(k) == "auto":
            out[k] = v
    if out.get("train_batch_size") == "auto":
        out["train_batch_size"] = out.get("train_micro_batch_size_per_gpu", 4) * out.get(
            "gradient_accumulation_steps", 1) * nproc
    for block in ("optimizer", "scheduler"):
        params = out.get(block, {}).get("params", {}) if isinstance(out.get(block), dict) else {}
        for k, v in list(params.items()):
            if v == "auto":
                params[k] = {"lr": 1e-2, "warmup_max_lr": 1e-2, "warmup_min_lr": 0.0, "warmup_num_steps": 0,
                             "total_num_steps": 100, "betas": [0.9, 0.999], "eps": 1e-8, "weight_decay": 0.0}.get(k, v)
    for block in ("bf16", "fp16"):
        if isinstance(out.get(block), dict) and out[block].get("enabled") == "auto":
            out[block]["enabled"] = False
    zero = out.get("zero_optimization")
    if isinstance(zero, dict):
        for k, v in list(zero.items()):
            if v == "auto":
                del zero[k]  # DeepSpeed's own default (the Trainer derives these from the model)
    return out
