"""The lint rule registry: every rule as data, in one tuple (docs order). Rule modules define ``RULE`` and
import only :mod:`dsdoctor.lint.rule`; nothing registers itself at import, so the rule modules and this list
form no import cycle. A new rule module is added here (``tests/test_lint_rules.py`` checks none is missing)."""

from __future__ import annotations

from typing import Dict, Iterator, Mapping, Tuple

from . import suppress
from .config.rules import RULES as CONFIG_RULES
from .launch import (
    accelerate_unknown_key,
    env_file_invalid,
    env_not_forwarded,
    export_flag,
    hostfile_invalid,
    launcher_args_conflict,
    omp_threads,
)
from .rule import Kind, Rule
from .script import (
    device_map_low_mem,
    hfds_not_kept,
    inline_config,
    loaded_before_config,
    moved_before_initialize,
    parse_error,
    peft_reentrant,
    prepare_kbit,
    quant_storage,
    removed_import,
    skip_cuda_check,
    unsafe_save,
    unsupported_quant,
    zero3_device_map,
    zero3_low_cpu_mem,
)

LAUNCH_RULES: Tuple[Rule, ...] = (
    accelerate_unknown_key.RULE,
    env_file_invalid.RULE,
    env_not_forwarded.RULE,
    export_flag.RULE,
    hostfile_invalid.RULE,
    launcher_args_conflict.RULE,
    omp_threads.RULE,
)
SCRIPT_RULES: Tuple[Rule, ...] = (
    device_map_low_mem.RULE,
    hfds_not_kept.RULE,
    loaded_before_config.RULE,
    moved_before_initialize.RULE,
    parse_error.RULE,
    peft_reentrant.RULE,
    prepare_kbit.RULE,
    quant_storage.RULE,
    removed_import.RULE,
    skip_cuda_check.RULE,
    unsafe_save.RULE,
    unsupported_quant.RULE,
    zero3_device_map.RULE,
    zero3_low_cpu_mem.RULE,
)
# ``unused-suppression`` applies to every kind (lint_target reports it after the other rules ran on the file).
RULES: Tuple[Rule, ...] = (suppress.RULE, *CONFIG_RULES, *LAUNCH_RULES, *SCRIPT_RULES)

# Another kind's form of a listed name (one name, one code): e.g. a config rule applied to a ds_config dict
# written inside a Python script. Documented and tested with the listed rule.
VARIANTS: Tuple[Rule, ...] = inline_config.VARIANTS


def _by_name(rules: Tuple[Rule, ...], variants: Tuple[Rule, ...]) -> Mapping[str, Rule]:
    out: Dict[str, Rule] = {}
    for r in rules:
        if r.name in out:
            raise ValueError(f"duplicate lint rule {r.name}")
        out[r.name] = r
    for v in variants:
        if v.name not in out:
            raise ValueError(f"variant of an unlisted lint rule {v.name}")
    return out


REGISTRY: Mapping[str, Rule] = _by_name(RULES, VARIANTS)


def rules_for(kind: Kind) -> Iterator[Rule]:
    """The rules (and variants) that check a file of ``kind``."""
    return (r for r in (*RULES, *VARIANTS) if r.kind == kind)
