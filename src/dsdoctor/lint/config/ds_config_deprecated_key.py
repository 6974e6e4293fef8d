"""ds-config-deprecated-key: a key DeepSpeed still accepts under an old name."""

from __future__ import annotations

from typing import Iterator, Tuple

from ... import names as N
from ...knowledge import deepspeed as K
from ...model import Fix, Severity
from ..rule import Edit, Example, Hit, Rule, spec
from ..target import Target
from .fields import rename_edit, zero


def check(t: Target) -> Iterator[Hit]:
    z = t.node("zero_optimization")
    if z is not None and z.kind == "bool":
        m = t.doc.root.member("zero_optimization") if t.doc and t.doc.root else None
        yield RULE.hit(t, m.start if m else z.start, "\"zero_optimization\": true/false is the old format "
                       "(true means stage 1)", "DeepSpeed logs that this format is deprecated.",
                       (Fix('use {"stage": 1}', "safe", ('"zero_optimization": {"stage": 1}',)),))
    zo = zero(t)
    if zo is None:
        return
    for key in K.ZERO_KEYS:
        if not key.deprecated_to:
            continue
        m = zo.member(key.name)
        if m is None:
            continue
        edits: Tuple[Edit, ...] = ()
        new = key.deprecated_to
        if key.name == "stage3_gather_fp16_weights_on_model_save":
            new = "stage3_gather_16bit_weights_on_model_save"
            edits = (rename_edit(t, m, new),)
        yield RULE.hit(t, m.start, f"Config parameter {key.name} is deprecated use {key.deprecated_to} instead"
                       + ("" if key.carried else ": DeepSpeed drops its value"),
                       "DeepSpeed logs the deprecation and " + (
                           "sets the value on the new key: it still works." if key.carried else
                           "does not carry the value over (set_new_param=False): the setting is lost."),
                       fixes=(Fix(f"use {new}", "safe" if edits else "unsafe",
                                  () if edits else (f'"{new}": {{"device": "cpu"}}',)),), edits=edits,
                       severity=Severity.INFO if key.carried else Severity.WARNING)


RULE = Rule(
    spec(
        N.DS_CONFIG_DEPRECATED_KEY,
        "ds_config",
        Severity.INFO,
        summary="A deprecated config key (still accepted, renamed upstream)",
        what="cpu_offload, cpu_offload_param, cpu_offload_use_pin_memory, stage3_gather_fp16_weights_on_model_save, "
         "and the boolean zero_optimization format: info where DeepSpeed maps the value onto the new key (it still "
         "works); a warning for cpu_offload_use_pin_memory, whose value DeepSpeed drops (set_new_param=False).",
        why="DeepSpeed logs `Config parameter X is deprecated use Y instead` and maps the value (except "
        "cpu_offload_use_pin_memory's); the old names can go away.",
        fix="Rename stage3_gather_fp16_weights_on_model_save (safe --fix); rewrite cpu_offload as an offload block."),
    check=check,
    valid=(Example('{"zero_optimization": {"stage": 3, "stage3_gather_16bit_weights_on_model_save": true}}'),),
    invalid=(Example('{"zero_optimization": {"stage": 3, "stage3_gather_fp16_weights_on_model_save": true}}',
                     fixed='{"zero_optimization": {"stage": 3, "stage3_gather_16bit_weights_on_model_save": true}}'),
             Example('{"zero_optimization": {"stage": 2, "cpu_offload": true}}')),
)
