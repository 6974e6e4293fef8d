"""ds_config dicts written in a script and handed to raw ``deepspeed.initialize(config=...)`` (or a manual
``HfDeepSpeedConfig``): the config rules ``ds-config-auto-without-trainer`` and ``offload-client-optimizer`` run
on them as on a file (the dict is read with ``ast.literal_eval``), findings point into the script."""

from __future__ import annotations

import ast
import json
import re
from dataclasses import replace
from typing import Any, Iterator, Tuple

from ...model import Severity
from ..config import ds_config_auto_without_trainer, offload_client_optimizer
from ..rule import Example, Hit, Rule
from ..target import Target, Usage
from . import active


def _configs(t: Target) -> Iterator[Tuple[Any, Any, bool]]:
    """(dict node, the call, client optimizer passed) for each literal config given to raw DeepSpeed."""
    import libcst as cst

    c = active(t)
    if c is None or c.script is None or c.values is None:
        return
    if any(e.kind in ("register", "trainer") for e in c.script.events):
        return  # the HF Trainer / accelerate fill "auto" and own the optimizer
    for e in c.script.events:
        if e.kind not in ("initialize", "hfds") or e.dead:
            continue  # (a dead branch: ``ds_zero_3 = False  # manual switch`` then ``if ds_zero_3:``)
        exprs = [a.value for a in e.call.args if a.keyword is not None and a.keyword.value in ("config", "config_params")]
        if e.kind == "hfds" and e.call.args and e.call.args[0].keyword is None:
            exprs.append(e.call.args[0].value)
        client = e.kind == "initialize" and any(a.keyword is not None and a.keyword.value == "optimizer"
                                                and not (isinstance(a.value, cst.Name) and a.value.value == "None")
                                                for a in e.call.args)
        for x in exprs:
            for v in c.values.of(x, e.scope):
                if isinstance(v.node, cst.Dict):
                    yield v.node, e.call, client


def _run(rule: Rule, t: Target) -> Iterator[Hit]:
    from ...hjsondoc import parse

    c = active(t)
    if c is None:
        return
    import libcst as cst

    code = cst.Module([]).code_for_node  # the dict's own text: no positions (a codegen of the file) unless it hits
    seen = set()
    for node, _call, client in _configs(t):
        if id(node) in seen:
            continue
        seen.add(id(node))
        src = code(node)
        try:
            obj = ast.literal_eval(src)
            text = json.dumps(obj, indent=1)
        except (ValueError, SyntaxError, TypeError, RecursionError):
            continue
        usage = Usage(**{**t.usage.__dict__})
        usage.loaded_by, usage.client_optimizer = "deepspeed", client
        doc = parse(text, t.path)
        sub = Target(t.path, "ds_config", text, usage, doc)
        lines = text.splitlines()
        for h in rule.check(sub):
            f = h.finding
            start = c.src.span(node)[0]
            pos = start
            key = re.search(r'"([^"]+)"\s*:', lines[(f.line or 1) - 1]) if f.line and f.line <= len(lines) else None
            if key:
                m = re.search("[\"']" + re.escape(key.group(1)) + "[\"']" + r"\s*:", src)
                pos = start + m.start() if m else start
            line, col = c.src.linecol(pos)
            yield Hit(replace(f, path=t.path, line=line, col=col, title=f.title + " (config dict in the script)"))


def _variant(base: Rule, valid: str, invalid: str) -> Rule:
    spec = replace(base.spec, docs=replace(base.spec.docs, reads="python"), section="Script")
    return Rule(spec, check=lambda t: _run(base, t), valid=(Example(valid),), invalid=(Example(invalid),))


VARIANTS: Tuple[Rule, ...] = (
    _variant(ds_config_auto_without_trainer.RULE,
             'import deepspeed\nengine, *_ = deepspeed.initialize(model=m, config={"train_batch_size": 8})\n',
             'import deepspeed\nengine, *_ = deepspeed.initialize(model=m, config={"train_batch_size": "auto"})\n'),
    _variant(offload_client_optimizer.RULE,
             'import deepspeed\ncfg = {"zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}}, '
             '"optimizer": {"type": "AdamW", "params": {"lr": 1e-5}}}\n'
             'engine, *_ = deepspeed.initialize(model=m, config=cfg)\n',
             'import deepspeed\ncfg = {"zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}}}\n'
             'engine, *_ = deepspeed.initialize(model=m, optimizer=opt, config=cfg)\n'),
)
__all__ = ["VARIANTS", "Severity"]
