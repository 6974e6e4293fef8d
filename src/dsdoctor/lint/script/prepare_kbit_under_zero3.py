"""prepare-kbit-under-zero3: ``prepare_model_for_kbit_training`` in a ZeRO-3 run (info: its upcast does not last)."""

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
            yield from emit(RULE, t, e.call, f"prepare_model_for_kbit_training {c.under}: its fp32 upcast does not "
                            "last: the DeepSpeed engine casts the parameters to the config's bf16 / fp16 (under "
                            "zero.Init the upcast reaches only the empty stand-ins); what stays is the frozen "
                            "parameters and, on a quantized model, gradient checkpointing. TRL's SFTTrainer skips it "
                            "for QLoRA under ZeRO-3 / FSDP",
                            fixes=(Fix("skip it under ZeRO-3: call model.gradient_checkpointing_enable() and "
                                       "model.enable_input_require_grads() yourself", "safe"),),
                            severity=Severity.INFO)


RULE = Rule(
    spec(
        N.PREPARE_KBIT_UNDER_ZERO3,
        "python",
        Severity.INFO,
        summary="prepare_model_for_kbit_training under ZeRO-3: its fp32 upcast does not last",
        what="A call to PEFT's `prepare_model_for_kbit_training` in a ZeRO-3 project (not inside "
         "`if not is_deepspeed_zero3_enabled():`). Info: nothing fails.",
        why="It freezes the parameters, upcasts the half-precision ones to fp32 and, on a quantized model, turns on "
        "gradient checkpointing. Under DeepSpeed the upcast does not last: `deepspeed.initialize` casts the module's "
        "parameters to the config's bf16 / fp16 (`module.half()` / `module.bfloat16()`, its dtype check disabled, read "
        "in 0.9.2, 0.12.0, 0.14.0 and 0.15.4; a per-parameter cast in 0.19.8), and "
        "under zero.Init the upcast reaches only the empty stand-ins while the partitions keep their dtype "
        "(tests/oracle/test_prepare_kbit_oracle.py: DeepSpeed 0.19.8, PEFT 0.13.2, both paths train). TRL's "
        "SFTTrainer does not call it for QLoRA under FSDP / DeepSpeed ZeRO-3 (read in trl 0.9.6), where FSDP, "
        "which does not cast, needs one dtype.",
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
