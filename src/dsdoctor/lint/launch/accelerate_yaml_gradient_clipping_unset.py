"""accelerate-yaml-gradient-clipping-unset: an accelerate YAML (no deepspeed_config_file) without
gradient_clipping, launching HF Trainer scripts, on an accelerate that leaves the key out of the config it builds."""

from __future__ import annotations

from typing import Iterator

from packaging.version import InvalidVersion, Version

from ... import names as N
from ...knowledge import deepspeed as K
from ...knowledge import transformers as TF
from ...model import Fix, Severity
from ..grad_norms import unset_clipping
from ..rule import Example, Hit, Rule, spec
from ..target import Target


def _old_accelerate(version: str) -> bool:
    try:
        return Version(version) < Version(TF.ACCELERATE_CLIPPING_AUTO_FROM)
    except InvalidVersion:
        return False


def check(t: Target) -> Iterator[Hit]:
    from ..accelerate import parse

    y = parse(t.text)
    u = t.usage
    if y is None or not u.trainer_saves or not u.accelerate or not _old_accelerate(u.accelerate):
        return  # launches that do not all train with an HF Trainer, or an accelerate that writes "auto"
    if str(y.top.get("distributed_type", ("",))[0]).upper() != "DEEPSPEED" or "gradient_clipping" in y.ds:
        return
    cfg_file = y.ds.get("deepspeed_config_file")
    if cfg_file is not None and cfg_file[0] not in (None, "none"):
        return  # the JSON file is linted as a config the Trainer loads (gradient-clipping-unset-under-trainer)
    default, on = u.ds_range(K.gradient_clipping_default)
    verdict = unset_clipping(default, u.max_grad_norms, u.some_grad_norms)
    if verdict is None:
        return
    now, sev = verdict
    line, col = y.ds_pos
    pos = sum(len(x) for x in t.text.splitlines(keepends=True)[:line - 1]) + col - 1
    yield RULE.hit(t, pos, f"no gradient_clipping in deepspeed_config, and accelerate {u.accelerate} "
                   f"({u.accelerate_source}) builds the DeepSpeed config without it: the HF Trainer's max_grad_norm "
                   f"is ignored, {now} ({on})",
                   fixes=(Fix("add `gradient_clipping: auto` under deepspeed_config (needs accelerate 0.30+), or the "
                              "number you train with (e.g. `gradient_clipping: 1.0`)", "unsafe"),),
                   severity=sev)


RULE = Rule(
    spec(
        N.ACCELERATE_YAML_GRADIENT_CLIPPING_UNSET,
        "accelerate",
        Severity.WARNING,
        summary="An accelerate DeepSpeed YAML without gradient_clipping, on accelerate < 0.30: the Trainer's "
                "max_grad_norm is ignored",
        what="An accelerate config YAML with distributed_type DEEPSPEED, no deepspeed_config_file and no "
         "deepspeed_config.gradient_clipping, where every launch using it trains with an HF Trainer and the project "
         "pins accelerate below 0.30.0. The launches' --max_grad_norm decides as for "
         "gradient-clipping-unset-under-trainer: a warning where one asks for a clipping DeepSpeed will not do (its "
         "default is no clipping up to 0.19.2, 1.0 from 0.19.3), info where none sets it.",
        why="`accelerate launch` passes gradient_clipping to the ranks only when the YAML gives it, and up to "
        "0.29.3 DeepSpeedPlugin then leaves the key out of the config it builds (0.30.0 writes \"auto\"). The "
        "Trainer fills only \"auto\" values, and under DeepSpeed its own clipping call does nothing: DeepSpeed "
        "clips at its default, whatever max_grad_norm says.",
        fix="Add `gradient_clipping: 1.0` (the value you train with) under deepspeed_config, or upgrade accelerate "
        "to 0.30+ (then the Trainer fills it from max_grad_norm).",
        section="Launch"),
    check=check,
    valid=(Example("distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 3\n  gradient_clipping: 1.0\n",
                   (("trainer_saves", True), ("accelerate", "0.27.2"), ("ds", "0.12.2"))),
           Example("distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 3\n",
                   (("trainer_saves", True), ("accelerate", "0.30.0"), ("ds", "0.12.2")),
                   note="accelerate 0.30+ writes gradient_clipping \"auto\": the Trainer fills it")),
    invalid=(Example("distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 3\n",
                     (("trainer_saves", True), ("accelerate", "0.27.2"), ("ds", "0.12.2"))),),
)
