"""offload-client-optimizer: ZeRO-Offload with an optimizer the script (or HF Trainer) creates itself."""

from __future__ import annotations

from typing import Iterator

from ...knowledge import deepspeed as K
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule
from ..target import Target
from ._util import offload_device


def check(t: Target) -> Iterator[Hit]:
    got = offload_device(t, "offload_optimizer")
    if not got or got[0] not in ("cpu", "nvme") or t.node("optimizer") is not None:
        return
    force = t.node("zero_force_ds_cpu_optimizer")
    if force is not None and force.value is False:
        return
    client = t.usage.client_optimizer or t.usage.loaded_by == "trainer"
    if not client:
        return
    who = "the HF Trainer creates its own torch AdamW" if t.usage.loaded_by == "trainer" else \
        "the script passes its own optimizer to deepspeed.initialize"
    yield RULE.hit(t, t.key_pos("zero_optimization", "offload_optimizer"),
                   f"offload_optimizer without an optimizer block: {who}, and DeepSpeed refuses it (ZeRORuntimeException)",
                   K.MSG_CLIENT_OPTIMIZER.format(type="AdamW"),
                   (Fix('add an "optimizer" block (DeepSpeed then uses DeepSpeedCPUAdam)', "safe",
                        ('"optimizer": {"type": "AdamW", "params": {"lr": "auto", "weight_decay": "auto"}}',)),
                    Fix('or set "zero_force_ds_cpu_optimizer": false (slow: the client optimizer steps on CPU)', "unsafe",
                        ('"zero_force_ds_cpu_optimizer": false',))))


RULE = Rule(
    name="offload-client-optimizer", kind="ds_config", severity=Severity.ERROR,
    summary="Optimizer offload with a client optimizer and no DeepSpeed optimizer block",
    what="offload_optimizer to cpu/nvme, no \"optimizer\" block, zero_force_ds_cpu_optimizer left true, and an "
         "optimizer supplied by the script (deepspeed.initialize(optimizer=...)) or by the HF Trainer.",
    why="The engine raises `You are using ZeRO-Offload with a client provided optimizer (...)` unless the optimizer is "
        "DeepSpeedCPUAdam.",
    fix='Add an "optimizer" block, or set "zero_force_ds_cpu_optimizer": false.',
    check=check,
    valid=(Example('{"optimizer": {"type": "AdamW", "params": {}}, "zero_optimization": {"stage": 3, '
                   '"offload_optimizer": {"device": "cpu"}}}', (("loaded_by", "trainer"),)),),
    invalid=(Example('{"zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}}}',
                     (("loaded_by", "trainer"),)),
             Example('{"zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}}}',
                     (("loaded_by", "deepspeed"), ("client_optimizer", True)))),
)
