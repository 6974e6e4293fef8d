"""Branches a DeepSpeed run never enters: their test names another engine.

A vendored copy of the HF Trainer saves through ``if is_sagemaker_mp_enabled():``, ``if is_torch_tpu_available():``
(``is_torch_xla_available()``), ``if self.fsdp is not None`` / ``self.is_fsdp_enabled`` or ``ShardedDDPOption...``
branches next to its DeepSpeed one. A DeepSpeed (ZeRO-3) run takes the DeepSpeed branch, so a ZeRO-3 problem in
such a body (a plain ``state_dict()`` save) never happens there. So for a method of the file that only such bodies
call (``self._save_tpu(...)``). A negated test (``if not is_sagemaker_mp_enabled():``) is the usual path: no gate.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

import libcst as cst

from .walk import walk

# a test that holds only when another engine (SageMaker model parallel, TPU / XLA, FSDP, fairscale sharded DDP) runs
_ENGINE = re.compile(r"\b(?:is_sagemaker_mp_enabled|is_torch_tpu_available|is_torch_xla_available|is_fsdp_enabled|"
                     r"ShardedDDPOption|fsdp|sharded_ddp|is_tpu|xla)\b")
Ranges = List[Tuple[int, int, str]]


def _engine(test: Any, module: Any) -> Optional[str]:
    """The other engine a test requires (``a or b``: both do; ``a and b``: either does; ``not``: none)."""
    if isinstance(test, cst.BooleanOperation):
        left, right = _engine(test.left, module), _engine(test.right, module)
        if isinstance(test.operator, cst.Or):
            return left if left and right else None
        return left or right
    if isinstance(test, cst.UnaryOperation) or isinstance(test, cst.Comparison) and any(
            isinstance(c.operator, (cst.NotEqual, cst.NotIn)) or isinstance(c.comparator, cst.Name) and
            c.comparator.value == "None" and isinstance(c.operator, cst.Is) for c in test.comparisons):
        return None  # `not x`, `x != ...`, `x is None`: the path without that engine
    m = _ENGINE.search(module.code_for_node(test))
    return m.group(0) if m else None


def engine_ranges(src: Any) -> Ranges:
    """(first line, last line, what) of every ``if`` body whose test requires another engine, and of the
    functions of the file called only from such bodies (by ``name(`` or ``self.name(``)."""
    out: Ranges = []
    defs: Dict[str, Tuple[int, int]] = {}
    calls: Dict[str, List[int]] = {}

    class Visit(cst.CSTVisitor):
        def visit_If(self, node: Any) -> None:
            what = _engine(node.test, src.module)
            if what is not None:
                body = src.positions[node.body]
                out.append((body.start.line, body.end.line, what))

        def visit_FunctionDef(self, node: Any) -> None:
            r = src.positions[node]
            defs[node.name.value] = (-1, -1) if node.name.value in defs else (r.start.line, r.end.line)

        def visit_Call(self, node: Any) -> None:
            f = node.func
            name = f.value if isinstance(f, cst.Name) else f.attr.value if isinstance(f, cst.Attribute) and \
                isinstance(f.value, cst.Name) and f.value.value == "self" else None
            if name is not None:
                calls.setdefault(name, []).append(src.positions[node].start.line)

    walk(src.module, Visit())  # the same hooks as src.module.visit, without copying the tree
    branches = list(out)
    for name, (first, last) in defs.items():
        where = calls.get(name, [])
        if first > 0 and where and all(any(a <= ln <= b for a, b, _ in branches) for ln in where):
            what = next(w for a, b, w in branches if a <= where[0] <= b)
            out.append((first, last, what))
    return out


def other_engine_branch(src: Any, line: int, cache: Dict[str, Any]) -> Optional[str]:
    """The other engine whose branch (or helper called only there) holds ``line``; None when none does."""
    if "ranges" not in cache:
        cache["ranges"] = engine_ranges(src) if src.module is not None else []
    return next((w for a, b, w in cache["ranges"] if a <= line <= b), None)
