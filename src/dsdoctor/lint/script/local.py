"""ZeRO-3 evidence inside the script: the config handed to TrainingArguments / HfDeepSpeedConfig /
deepspeed.initialize / accelerate's DeepSpeedPlugin (a dict literal, a variable holding one, or a json path,
also as an argparse / dataclass default of ``deepspeed``)."""

from __future__ import annotations

import os
from typing import Any, List, Optional, Tuple

import libcst as cst

from .context import config_stage
from .dataflow import Script, dotted, kw_key
from .evaluation import Values

_CFG_KW = ("deepspeed", "config", "config_params", "hf_ds_config", "config_file_or_dict", "hf_ds_config")


def _dict_stage(d: cst.Dict) -> Optional[int]:
    for el in d.elements:
        if isinstance(el, cst.DictElement) and kw_key(el.key) == "zero_optimization" and isinstance(el.value, cst.Dict):
            for sub in el.value.elements:
                if isinstance(sub, cst.DictElement) and kw_key(sub.key) == "stage" and isinstance(sub.value, cst.Integer):
                    return int(sub.value.value)
    return None


def _stage_of(path: str, expr: Any, script: Script, values: Values, scope: Any = None) -> Tuple[Optional[int], str]:
    scope = scope or script.module_scope
    assert scope is not None
    for v in values.of(expr, scope):
        node = v.node
        if isinstance(node, cst.Dict):
            st = _dict_stage(node)
            if st is not None:
                return st, "a config dict in the script"
        elif isinstance(node, cst.SimpleString) and isinstance(node.evaluated_value, str):
            ref = node.evaluated_value
            for cand in (os.path.join(os.path.dirname(path), ref), ref):
                st = config_stage(cand)
                if st is not None:
                    return st, cand
    return None, ""


def script_zero3(path: str, script: Script, values: Values) -> Tuple[Optional[bool], str]:
    """(True, where) if a config this script passes is ZeRO-3; (False, where) if only lower stages are seen."""
    seen: List[Tuple[int, str]] = []
    scope = script.module_scope
    for call, name in script.calls_with:
        last = name.split(".")[-1]
        if last not in script.args_classes and last not in ("HfDeepSpeedConfig", "initialize", "DeepSpeedPlugin"):
            continue
        exprs = [a.value for a in call.args if a.keyword is not None and a.keyword.value in _CFG_KW]
        if last == "HfDeepSpeedConfig" and call.args and call.args[0].keyword is None:
            exprs.append(call.args[0].value)
        for e in exprs:
            st, where = _stage_of(path, e, script, values, script.call_scope.get(id(call)))
            if st is not None:
                seen.append((st, where))
        if last == "DeepSpeedPlugin":
            for a in call.args:
                if a.keyword is not None and a.keyword.value == "zero_stage" and isinstance(a.value, cst.Integer):
                    seen.append((int(a.value.value), "DeepSpeedPlugin(zero_stage=...)"))
    for d in script.field_defaults.get("deepspeed", []):
        if d is not None and scope is not None:
            st, where = _stage_of(path, d, script, values)
            if st is not None:
                seen.append((st, f"{where} (default of --deepspeed)"))
    for st, where in seen:
        if st == 3:
            return True, f"stage 3 in {where}"
    if seen:
        return False, f"stage {seen[0][0]} in {seen[0][1]}"
    return None, ""


__all__ = ["script_zero3", "dotted"]
