"""The values the ZeRO-3 launches of an entry script give its options, and the branches those values never take.

``if finetuning_args.stage == "ppo": run_ppo(...)`` in a dispatcher: where every ZeRO-3 launch of the entry gives
``--stage`` a literal value (on its command line, in the training YAML it hands over, or by leaving it out where the
code it runs declares one default: lint/defaults.py) and none of them is "ppo", the branch never runs in those
launches. Call-based reach (:mod:`.calls`) takes the calls in such a branch as names only: what they reach (a PPO
trainer of a bundled framework an SFT launch imports) is info, not an error. An option a launch gives through a
variable (``--stage $STAGE``), a launch that passes arguments not known here (``"$@"``), or a default declared
twice, leaves every branch open."""

from __future__ import annotations

import ast
import re
from contextvars import ContextVar
from typing import TYPE_CHECKING, Dict, FrozenSet, List, Optional, Set, Tuple

from .defaults import CONFLICT
from .entry_options import given

if TYPE_CHECKING:
    from .recipe import Recipe

# the objects whose attributes are the run's options: ``args``, ``training_args``, ``opts``, ``cfg`` (a section of
# a handed config: ``config.model``; ``config`` alone is a model's); lint/script/flags.py reads them too
NAMESPACE = re.compile(r"^(\w*args|opts?|cfg)$")
SECTIONED = re.compile(r"^(config|conf)$")

Values = Tuple[Tuple[str, FrozenSet[str]], ...]  # option -> the values the launches give it (sorted: a cache key)
# while lint/calls.py reads a file for an entry: the values its ZeRO-3 launches give the options the file compares
VALUES: ContextVar[Values] = ContextVar("values", default=())


def launch_values(recipes: List["Recipe"], entry: str, defaults: Dict[str, str]) -> Values:
    """The options every ZeRO-3 launch of ``entry`` gives a known value (passed with a literal, or left out where
    ``defaults``, the code the entry runs, declares one), with the values they give; none where a launch passes
    arguments not known here."""
    launches = [r for r in recipes if r.stage == 3 and r.entry == entry]
    if not launches or any(r.opaque for r in launches):
        return ()
    names = {f.partition("=")[0] for r in launches for f in r.flags} | set(defaults)
    out: Dict[str, FrozenSet[str]] = {}
    for name in sorted(names):
        vals: List[str] = []
        for r in launches:
            got = given(r.flags, name) if name in r.flags else ({defaults[name]} if name in defaults else set())
            if not got or CONFLICT in got or any("$" in v for v in got):
                break
            vals += got
        else:
            out[name] = frozenset(vals)
    return tuple(sorted(out.items()))


def options_object(node: ast.AST) -> bool:
    """Is ``node`` (the object of ``node.attr``) a namespace of the run's options (``args``, ``self.model_args``,
    ``config.model``)?"""
    if isinstance(node, ast.Name):
        return bool(NAMESPACE.match(node.id))
    while isinstance(node, ast.Attribute):
        if isinstance(node.value, ast.Name) and node.value.id == "self":  # parsed arguments kept on the object
            return node.attr.endswith("_args")
        node = node.value
    return isinstance(node, ast.Name) and bool(NAMESPACE.match(node.id) or SECTIONED.match(node.id))


def _literal(node: ast.AST) -> Optional[List[str]]:
    """The values a comparand lists (a string or number, or a tuple / list / set of them); None: not literals."""
    items = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    if all(isinstance(i, ast.Constant) and isinstance(i.value, (str, int, float)) and not isinstance(i.value, bool)
           for i in items):
        return [str(i.value) for i in items if isinstance(i, ast.Constant)]
    return None


def never(test: ast.AST, values: Dict[str, FrozenSet[str]]) -> bool:
    """Is ``test`` false for every launch's values (``args.stage == "ppo"``, ``args.task in ("a", "b")``,
    ``args.mode != "x"`` where every launch gives "x"; ``or``: every side, ``and``: one)?"""
    if isinstance(test, ast.BoolOp):
        sides = [never(v, values) for v in test.values]
        return all(sides) if isinstance(test.op, ast.Or) else any(sides)
    if not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return False
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if isinstance(left, ast.Constant) and isinstance(op, (ast.Eq, ast.NotEq)):
        left, right = right, left
    if not (isinstance(left, ast.Attribute) and left.attr in values and options_object(left.value)):
        return False
    listed = isinstance(right, (ast.Tuple, ast.List, ast.Set))
    lits = _literal(right) if listed == isinstance(op, (ast.In, ast.NotIn)) else None
    if lits is None or not isinstance(op, (ast.Eq, ast.In, ast.NotEq, ast.NotIn)):
        return False
    gives = values[left.attr]
    return not gives & set(lits) if isinstance(op, (ast.Eq, ast.In)) else gives <= set(lits)


def not_taken(nodes: List[ast.AST]) -> Set[int]:
    """Of ``nodes`` (every node of a body), those in the body of an ``if`` that no ZeRO-3 launch takes
    (:data:`VALUES`)."""
    values = dict(VALUES.get())
    out: Set[int] = set()
    for n in nodes if values else ():
        if isinstance(n, ast.If) and id(n) not in out and never(n.test, values):
            out.update(id(x) for st in n.body for x in ast.walk(st))
    return out


def option_tests(nodes: List[ast.AST]) -> Tuple[ast.expr, ...]:
    """The tests of the ``if`` statements among ``nodes`` that compare an attribute (``args.stage == "ppo"``)."""
    return tuple(n.test for n in nodes if isinstance(n, ast.If) and isinstance(n.test, (ast.Compare, ast.BoolOp)) and any(
        isinstance(c, ast.Compare) and any(isinstance(x, ast.Attribute) for x in (c.left, *c.comparators))
        for c in ast.walk(n.test)))


def taken_values(tests: Tuple[ast.expr, ...], values: Values) -> Values:
    """Those of ``values`` that make one of a file's branch ``tests`` false (what its reading depends on)."""
    given_ = dict(values)
    off = [t for t in tests if never(t, given_)] if given_ else []
    names = {c.attr for t in off for c in ast.walk(t) if isinstance(c, ast.Attribute)}
    return tuple((o, v) for o, v in values if o in names)
