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
    seen = _seen(path, script, values)
    for st, where, _ in seen:
        if st == 3:
            return True, f"stage 3 in {where}"
    if seen:
        return False, f"stage {seen[0][0]} in {seen[0][1]}"
    return None, ""


def outside_own_zero3(path: str, script: Script, values: Values) -> None:
    """Where the script's own ZeRO-3 config is its only ZeRO-3 context: the events it cannot reach never run
    under ZeRO-3 (``dead``). A config registered in one branch (``HfDeepSpeedConfig(ds)`` / ``initialize`` in the
    ``else`` of ``if train:``) does not reach the other branch; nor, in the same function, a save or move before it.
    A load before it is ``before_own``: model-loaded-before-ds-config judges that order, while the load-time
    conflicts (device_map, low_cpu_mem_usage) cannot happen there. A default of ``--deepspeed`` or a config of
    TrainingArguments keeps the whole file."""
    seen = _seen(path, script, values)
    calls = [call for st, _, call in seen if st == 3]
    if not calls or any(call is None for call in calls):
        return
    regs = [e for e in script.events if e.kind in ("hfds", "initialize") and any(e.call is c for c in calls)]
    if len(regs) != len(calls):
        return  # a TrainingArguments / DeepSpeedPlugin config: the whole run
    for e in script.events:
        if e in regs or e.dead:
            continue
        if all(exclusive(e.conds, r.conds) or (e.scope is r.scope and e.seq < r.seq and e.kind != "load") for r in regs):
            e.dead = True
        elif e.kind == "load" and all(exclusive(e.conds, r.conds) or (e.scope is r.scope and e.seq < r.seq) for r in regs):
            e.before_own = True
    # other calls and attribute assignments (a Trainer's settings: they act when it trains, so only the branch counts)
    for node_id, conds in script.conds_of.items():
        if all(exclusive(conds, r.conds) for r in regs):
            script.dead_calls.add(node_id)


def exclusive(a: Any, b: Any) -> bool:
    """Do two places (their enclosing ``if`` tests) sit in branches of one ``if`` that exclude each other?"""
    return any(t is u and x != y for t, x in a for u, y in b)


def _seen(path: str, script: Script, values: Values) -> List[Tuple[int, str, Any]]:
    """(stage, where, the call that hands it over; None for a default of --deepspeed) of each config the script
    passes."""
    seen: List[Tuple[int, str, Any]] = []
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
                seen.append((st, where, call))
        if last == "DeepSpeedPlugin":
            for a in call.args:
                if a.keyword is not None and a.keyword.value == "zero_stage" and isinstance(a.value, cst.Integer):
                    seen.append((int(a.value.value), "DeepSpeedPlugin(zero_stage=...)", call))
    for d in script.field_defaults.get("deepspeed", []):
        if d is not None and scope is not None:
            st, where = _stage_of(path, d, script, values)
            if st is not None:
                seen.append((st, f"{where} (default of --deepspeed)", None))
    return seen


def names_no_config(call: Any) -> bool:
    """Is ``call`` (training arguments built in code) a call with no ``deepspeed=`` and no ``**kwargs`` that may hold
    one?"""
    return isinstance(call, cst.Call) and \
        not any(a.star or (a.keyword is not None and a.keyword.value == "deepspeed") for a in call.args)


def args_without_deepspeed(script: Script) -> bool:
    """Does the script build its training arguments in code (``TrainingArguments(...)``, ``SFTConfig(...)``) none of
    which names a DeepSpeed config (no ``deepspeed=``, no ``**kwargs``), parse no command line into them, and load
    no config itself (no HfDeepSpeedConfig, ``deepspeed.initialize``, ``--deepspeed`` default)? A ds_config file of
    the project then never reaches it: only an accelerate launch's DeepSpeed YAML would."""
    regs = [e for e in script.events if e.kind == "register"]
    if not regs or "deepspeed" in script.field_defaults or any(e.kind in ("hfds", "initialize") for e in script.events):
        return False
    # (not a parser, an Accelerator, a DeepSpeedPlugin: they may take a config)
    return all(e.name.split(".")[-1] in script.args_classes and names_no_config(e.call) for e in regs)


__all__ = ["script_zero3", "outside_own_zero3", "dotted", "exclusive", "args_without_deepspeed",
           "names_no_config"]
