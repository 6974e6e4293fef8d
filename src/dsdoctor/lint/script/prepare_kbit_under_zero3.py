"""prepare-kbit-under-zero3: ``prepare_model_for_kbit_training`` in a ZeRO-3 run."""

from __future__ import annotations

from typing import Iterator

from ... import names as N
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from . import active, emit


def check(t: Target) -> Iterator[Hit]:
    c = active(t)
    if c is None or c.zero3 is False:
        return
    assert c.script is not None
    for e in c.script.events:
        if e.kind == "kbit" and not e.dead:
            yield from emit(RULE, t, e.call, f"prepare_model_for_kbit_training {c.under}: it upcasts the non-quantized "
                            "parameters to fp32, leaving mixed dtypes for ZeRO-3",
                            fixes=(Fix("skip it under ZeRO-3: call model.gradient_checkpointing_enable() and "
                                       "model.enable_input_require_grads() yourself", "safe"),),
                            severity=c.at_most(Severity.WARNING))


RULE = Rule(
    spec(
        N.PREPARE_KBIT_UNDER_ZERO3,
        "python",
        Severity.WARNING,
        summary="prepare_model_for_kbit_training under ZeRO-3",
        what="A call to PEFT's `prepare_model_for_kbit_training` in a ZeRO-3 project (not inside "
         "`if not is_deepspeed_zero3_enabled():`).",
        why="It upcasts every non-quantized parameter to fp32: under ZeRO-3 the partitions end up with mixed dtypes.",
        fix="Under ZeRO-3 skip it; enable gradient checkpointing and input grads directly.",
        section="Script"),
    check=check,
    valid=(Example('from peft import prepare_model_for_kbit_training\nfrom transformers import Trainer\n'
                   'if not is_deepspeed_zero3_enabled():\n    model = prepare_model_for_kbit_training(model)\n',
                   (("zero3", True),)),),
    invalid=(Example('from peft import prepare_model_for_kbit_training\nfrom transformers import Trainer\n'
                     'model = prepare_model_for_kbit_training(model)\n',
                     (("zero3", True),)),),
)
