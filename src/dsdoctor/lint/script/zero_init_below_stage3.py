"""zero-init-below-stage3: a model built under ``deepspeed.zero.Init`` in a run whose ZeRO stage is 0, 1 or 2.

``zero.Init`` partitions every parameter it sees whatever the config's stage (DeepSpeed 0.15.4 and 0.19.8: the
weight becomes shape ``(0,)``, ``ds_shape`` the real one); only the stage-3 engine gathers them again. Below
stage 3 ``deepspeed.initialize`` succeeds and the first forward fails on an empty weight: in
``deepspeed/runtime/zero/linear.py`` (``RuntimeError: mat2 must be a matrix, got 1-D tensor``; also with
``mem_efficient_linear=False`` on 0.19.8), or in torch's embedding (``'weight' must be 2-D``) when an embedding
comes first. Checked by tests/oracle/test_zero_init_oracle.py.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Iterator, List, Optional, Tuple

from ... import names as N
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from . import Ctx, active, emit

_ENABLED_AT = 7  # ``Init(module, data_parallel_group, mem_efficient_linear, remote_device, pin_memory,
# config_dict_or_path, config, enabled, ...)``: ``enabled`` is the 8th positional parameter


def _stage(t: Target) -> Optional[Tuple[int, str]]:
    """The ZeRO stage (0-2) the file is known to run at, and why: from the project's launches, else from
    ``--zero-stage``; None when unknown or 3."""
    path = os.path.normpath(t.path)
    if path in t.usage.never_zero3 or path in t.usage.no_deepspeed:
        return None
    got = t.usage.lower_stages.get(path)
    if got is None and t.usage.zero_stage in (0, 1, 2):
        assert t.usage.zero_stage is not None
        got = (t.usage.zero_stage, t.usage.zero3_source)
    return got


def _is_true(node: Any) -> bool:
    import libcst as cst

    return isinstance(node, cst.Name) and node.value == "True"


def _always_enabled(call: Any) -> bool:
    """``enabled=`` absent or literally True; no ``*args`` / ``**kwargs`` that could carry it."""
    if any(a.star for a in call.args) or sum(1 for a in call.args if a.keyword is None) > _ENABLED_AT:
        return False
    for a in call.args:
        if a.keyword is not None and a.keyword.value == "enabled" and not _is_true(a.value):
            return False
    return True


def _resolved(name: str, imported: Dict[str, str]) -> str:
    """``name``'s dotted text with its first part resolved through the file's imports ("" when not imported)."""
    first, _, rest = name.partition(".")
    full = imported.get(first)
    if full is None:
        return ""
    if full == first or full.startswith(first + "."):  # ``import deepspeed`` / ``import deepspeed.zero``
        return name
    return f"{full}.{rest}" if rest else full


def _is_zero_init(name: str, imported: Dict[str, str]) -> bool:
    full = _resolved(name, imported)
    return full.startswith("deepspeed.") and full.endswith(".Init") and ".zero." in full


def _conditional(module: Any) -> Dict[int, bool]:
    """id(Call) -> is it under an ``if`` (not the ``__main__`` guard), a conditional expression or ``and`` /
    ``or``: whether it runs may depend on the stage, which lint does not judge."""
    import libcst as cst

    out: Dict[int, bool] = {}

    class _Walk(cst.CSTVisitor):
        depth = 0

        def _cond(self, node: Any) -> int:
            if isinstance(node, cst.If) and isinstance(node.test, cst.Comparison) and \
                    isinstance(node.test.left, cst.Name) and node.test.left.value == "__name__":
                return 0
            return 1 if isinstance(node, (cst.If, cst.IfExp, cst.BooleanOperation, cst.While)) else 0

        def on_visit(self, node: Any) -> bool:
            self.depth += self._cond(node)
            if isinstance(node, cst.Call):
                out[id(node)] = self.depth > 0
            return True

        def on_leave(self, original_node: Any) -> None:
            self.depth -= self._cond(original_node)

    module.visit(_Walk())
    return out


def _uncalled(c: Ctx, call: Any) -> bool:
    """In a top-level function of a script with a ``__main__`` block that nothing in the file names."""
    s = c.script
    assert s is not None
    fn = s.call_scope.get(id(call))
    if fn is None:
        return False
    while fn.parent is not None and fn.parent is not s.module_scope:
        fn = fn.parent
    name = getattr(getattr(fn.node, "name", None), "value", None)
    return bool(s.has_main and fn.parent is s.module_scope and id(fn.node) not in s.methods and name
                and s.name_count.get(name, 0) <= 1)


def _calls(c: Ctx) -> List[Any]:
    s = c.script
    assert s is not None and c.src.module is not None
    calls = [node for node, name in s.calls_with if _is_zero_init(name, s.imported) and _always_enabled(node)]
    if not calls:
        return []
    cond = _conditional(c.src.module)
    return [n for n in calls if not cond.get(id(n), True) and not _uncalled(c, n)]


def check(t: Target) -> Iterator[Hit]:
    c = active(t)
    if c is None or c.zero3 is not False:
        return
    got = _stage(t)
    if got is None:
        return
    stage, why = got
    for call in _calls(c):
        yield from emit(RULE, t, call,
                        f"deepspeed.zero.Init always enabled under ZeRO stage {stage} ({why}): parameters partitioned "
                        "by zero.Init are never gathered below stage 3: the first forward fails (RuntimeError on an "
                        "empty weight, e.g. in deepspeed/runtime/zero/linear.py)",
                        fixes=(Fix("build the model outside zero.Init, or pass enabled= tied to stage 3 "
                                   "(enabled=(stage == 3))", "safe"),))


RULE = Rule(
    spec(
        N.ZERO_INIT_BELOW_STAGE3,
        "python",
        Severity.ERROR,
        summary="deepspeed.zero.Init in a run below ZeRO stage 3",
        what="A call to `deepspeed.zero.Init(...)` (also `with zero.Init(...):`) whose `enabled=` is absent or "
             "`True`, not under a condition, in a script every launch of the project runs at ZeRO stage 0, 1 or 2 "
             "(or `--zero-stage` 0-2). Silent where the stage is unknown or 3, or `enabled=` is an expression.",
        why="zero.Init partitions the parameters whatever the config's stage (each weight becomes an empty tensor "
            "with its real shape in `ds_shape`); only the stage-3 engine gathers them. Below stage 3 "
            "`deepspeed.initialize` succeeds and the first forward raises a RuntimeError on the empty weight: "
            "`mat2 must be a matrix, got 1-D tensor` in deepspeed/runtime/zero/linear.py, or `'weight' must be 2-D` "
            "from an embedding (DeepSpeed 0.15.4 and 0.19.8, checked by running them).",
        fix="Build the model outside zero.Init below stage 3, or pass `enabled=` tied to the stage "
            "(`deepspeed.zero.Init(config_dict_or_path=cfg, enabled=stage == 3)`).",
        section="Script"),
    check=check,
    valid=(Example('import deepspeed\nwith deepspeed.zero.Init(config_dict_or_path=cfg, enabled=stage == 3):\n'
                   '    model = build()\n', (("zero_stage", 2), ("zero3", False), ("zero3_source", "--zero-stage 2"))),
           Example('import deepspeed\nwith deepspeed.zero.Init(config_dict_or_path=cfg):\n    model = build()\n',
                   (("zero_stage", 3), ("zero3", True), ("zero3_source", "--zero-stage 3")),
                   note="stage 3: the engine gathers the partitions"),
           Example('import deepspeed\nif stage == 3:\n    with deepspeed.zero.Init(config_dict_or_path=cfg):\n'
                   '        model = build()\n', (("zero_stage", 2), ("zero3", False), ("zero3_source", "--zero-stage 2")),
                   note="under a condition lint does not judge"),),
    invalid=(Example('import deepspeed\nwith deepspeed.zero.Init(config_dict_or_path=cfg, enabled=True):\n'
                     '    model = build()\n', (("zero_stage", 2), ("zero3", False), ("zero3_source", "--zero-stage 2"))),
             Example('from deepspeed import zero\nif __name__ == "__main__":\n    with zero.Init():\n'
                     '        model = build()\n', (("zero_stage", 1), ("zero3", False), ("zero3_source", "--zero-stage 1")),
                     note="the __main__ guard is no condition on the stage"),),
)
