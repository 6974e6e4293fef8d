"""ds-config-duplicate-key: a key given twice in one object."""

from __future__ import annotations

from typing import Dict, Iterator

from ... import names as N
from ...hjsondoc import Node
from ...knowledge import deepspeed as K
from ...model import Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target


def _walk(n: Node) -> Iterator[Node]:
    yield n
    for m in n.members:
        yield from _walk(m.value)
    for i in n.items:
        yield from _walk(i)


def check(t: Target) -> Iterator[Hit]:
    if t.doc is None or t.doc.root is None:
        return
    hf = t.usage.loaded_by in ("trainer", "accelerate")
    for node in _walk(t.doc.root):
        seen: Dict[str, int] = {}
        for m in node.members:
            if m.key in seen:
                first = seen[m.key]
                line, _ = t.linecol(first)
                if hf:
                    yield RULE.hit(t, m.start, f"{m.key!r} is given twice (first on line {line}): json.load keeps "
                                   "only this one, silently", severity=Severity.WARNING)
                else:
                    yield RULE.hit(t, m.start, f"{m.key!r} is given twice (first on line {line}): "
                                   + K.MSG_DUPLICATE_KEYS.format(keys=[m.key]))
            else:
                seen[m.key] = m.start


RULE = Rule(
    spec(
        N.DS_CONFIG_DUPLICATE_KEY,
        "ds_config",
        Severity.ERROR,
        summary="A key appears twice in the same object",
        what="The same key twice in one object, at any depth.",
        why="DeepSpeed loads configs with a hook that raises `ValueError: Duplicate keys in DeepSpeed config: [...]`; "
        "through HF Trainer/accelerate (json.load) the last one silently wins.",
        fix="Keep one of them (dsdoctor does not guess which)."),
    check=check,
    valid=(Example('{"zero_optimization": {"stage": 3}, "bf16": {"enabled": true}}'),),
    invalid=(Example('{"zero_optimization": {"stage": 3,\n  "stage": 2}}'),),
)
