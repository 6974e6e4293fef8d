"""The values an expression of a training script may hold when it runs under ZeRO-3, and the two passes that
analyse a script with them.

Kept whole: the evaluators (``of`` / ``truth`` / ``_compare`` / ``_name`` / ``_field``) are one mutually recursive
set over one evaluation state (``Eval``: one depth and step budget, one set of names being evaluated).
"""

from __future__ import annotations

from typing import Any, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

import libcst as cst

from ...knowledge import callback_kwargs as CB
from ...knowledge import trl as TRL
from ..entry_options import given
from .dataflow import Arg, Scope, Script, Val, dotted, is_guard, kw_key
from .flags import options_namespace
from .values import FALSE, NONE, TRUE, UNKNOWN
from .walk import walk

# Attributes that are truthy whenever the run is a DeepSpeed run: the ``--deepspeed`` argument
# (TrainingArguments.deepspeed, argparse ``--deepspeed`` from ``deepspeed.add_config_arguments``) and the
# Trainer / Accelerator's engine (``trainer.deepspeed``, ``trainer.is_deepspeed_enabled``).
DS_RUN_TRUTHY = ("deepspeed", "is_deepspeed_enabled")
STAGE_NAMES = ("zero_stage", "stage")


MAX_DEPTH = 12  # how deep one evaluation follows names, calls and tests
MAX_STEPS = 20000  # and how many expressions it looks at in all
MAX_VALUES = 256  # distinct values one expression keeps (a 6,000-line trainer module's names reached millions)


def _distinct(vals: List[Val]) -> List[Val]:
    """``vals`` without repeats (the same kind from the same expression); past :data:`MAX_VALUES`, the first ones
    and an unknown value (what the rest may be), so a decision over them stays undecided rather than wrong."""
    seen: Set[Tuple[str, int]] = set()
    out: List[Val] = []
    for v in vals:
        key = (v.kind, id(v.node))
        if key not in seen:
            seen.add(key)
            out.append(v)
            if len(out) >= MAX_VALUES:
                out.append(Val(UNKNOWN, None))
                break
    return out


class Eval:
    """The state of one evaluation (one :meth:`Values.of` or :meth:`Values.truth` call from outside), threaded
    through every recursive evaluator: the names and helpers being evaluated (a cycle such as
    ``x = x if x is not None else 1`` ends there), what each already gave (evaluated once), and one step budget."""

    __slots__ = ("active", "done", "steps")

    def __init__(self) -> None:
        self.active: Set[Tuple[int, str]] = set()
        self.done: Dict[Tuple[int, str], List[Val]] = {}
        self.steps = 0

    def spent(self, depth: int) -> bool:
        """Count one step; True when this evaluation may go no further (too deep, or out of steps)."""
        self.steps += 1
        return depth > MAX_DEPTH or self.steps > MAX_STEPS


class Values:
    """Possible values of an expression when the script runs under ZeRO-3."""

    def __init__(self, script: Script) -> None:
        self.s = script
        self.launches: List[FrozenSet[str]] = []  # the options of each launch that may run it under ZeRO-3

    def of(self, expr: Any, scope: Scope) -> List[Val]:
        """The values ``expr`` may hold in ``scope`` (one evaluation: see :class:`Eval`)."""
        return self._of(expr, scope, 0, Eval())

    def _of(self, expr: Any, scope: Scope, depth: int, ev: Eval) -> List[Val]:
        if expr is None or ev.spent(depth):
            return [Val(UNKNOWN, expr)]
        if isinstance(expr, cst.Name):
            if expr.value == "None":
                return [Val(NONE, expr)]
            if expr.value in ("True", "False"):
                return [Val(TRUE if expr.value == "True" else FALSE, expr)]
            return self._name(expr.value, scope, depth, ev, expr)
        guard = False if is_meta_test(expr) else is_guard(expr)
        if guard is not None:
            return [Val(TRUE if guard else FALSE, expr)]
        if isinstance(expr, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
            return [Val(FALSE if isinstance(expr, cst.SimpleString) and expr.evaluated_value == "" else TRUE, expr)]
        if isinstance(expr, (cst.Integer, cst.Float)):
            return [Val(FALSE if expr.value in ("0", "0.0") else TRUE, expr)]
        if isinstance(expr, (cst.Dict, cst.List, cst.Tuple, cst.Set)):
            return [Val(TRUE if expr.elements else FALSE, expr)]
        if isinstance(expr, cst.IfExp):
            g = self._truth(expr.test, scope, depth + 1, ev)
            if g is True:
                return self._of(expr.body, scope, depth + 1, ev)
            if g is False:
                return self._of(expr.orelse, scope, depth + 1, ev)
            return _distinct(self._of(expr.body, scope, depth + 1, ev) + self._of(expr.orelse, scope, depth + 1, ev))
        if isinstance(expr, cst.Call):
            callee = dotted(expr.func)
            if callee in ("torch.device", "dict") or callee.split(".")[-1] == TRL.KBIT_DEVICE_MAP:
                return [Val(TRUE, expr)]
            if callee == "getattr" and len(expr.args) >= 2 and dotted(expr.args[0].value) == "torch":
                return self._of(expr.args[1].value, scope, depth + 1, ev)  # getattr(torch, "bfloat16"): the name
            if self._unpassed(expr, scope):
                return [Val(NONE, expr)]
            fn = self.s.functions.get(callee)
            if fn is not None and fn.returns and fn is not scope and (id(fn), callee) not in ev.active:
                return self._returns(fn, callee, depth, ev, expr)
            return [Val(UNKNOWN, expr)]
        if isinstance(expr, cst.Attribute):
            if dotted(expr.value).split(".")[0] in ("torch", "transformers"):
                return [Val(TRUE, expr)]
            if expr.attr.value in DS_RUN_TRUTHY:
                return [Val(TRUE, expr)]
            return self._field(expr.attr.value, depth, ev, expr)
        if isinstance(expr, cst.BooleanOperation):
            return _distinct(self._of(expr.left, scope, depth + 1, ev) + self._of(expr.right, scope, depth + 1, ev))
        return [Val(UNKNOWN, expr)]

    def _unpassed(self, call: cst.Call, scope: Scope) -> bool:
        """``kwargs.get("trainer")`` in a TrainerCallback's ``on_*`` method: a key no Transformers release read
        passes to callbacks (knowledge/callback_kwargs), so None."""
        f = call.func
        name = self.s.callback_kwargs.get(id(scope.node))
        if name is None or not isinstance(f, cst.Attribute) or f.attr.value not in ("get", "pop") or \
                dotted(f.value) != name or name in scope.assigns or not call.args or len(call.args) > 2:
            return False
        key = kw_key(call.args[0].value)
        no_default = len(call.args) == 1 or dotted(call.args[1].value) == "None"
        return key is not None and no_default and CB.never_passed(key) is not None

    def _returns(self, fn: Scope, callee: str, depth: int, ev: Eval, node: Any) -> List[Val]:
        """What a helper function of the file returns (evaluated once per evaluation)."""
        key = (id(fn), callee)
        if key not in ev.done:
            ev.active.add(key)
            out: List[Val] = []
            for r in sorted(fn.returns):
                out += self._name(r, fn, depth + 1, ev, node)
            ev.active.discard(key)
            ev.done[key] = _distinct(out)
        return ev.done[key] or [Val(UNKNOWN, node)]

    def _name(self, name: str, scope: Scope, depth: int, ev: Eval, node: Any) -> List[Val]:
        sc: Optional[Scope] = scope
        while sc is not None:
            key = (id(sc), name)
            if name in sc.assigns or name in sc.params:
                if key in ev.active:  # a cycle: the value being evaluated is what it was before
                    return []
                if key not in ev.done:
                    ev.active.add(key)
                    ev.done[key] = self._bound(name, sc, depth, ev, node)
                    ev.active.discard(key)
                return ev.done[key]
            sc = sc.parent
        return [Val(UNKNOWN, node)]

    def _bound(self, name: str, sc: Scope, depth: int, ev: Eval, node: Any) -> List[Val]:
        """Every value bound to ``name`` in ``sc``: its assignments, its default and what calls pass (a parameter)."""
        out: List[Val] = []
        for v in sc.assigns.get(name, []):
            out += self._of(v, sc, depth + 1, ev) if v is not None else [Val(UNKNOWN, node)]
        if name in sc.params:
            d = sc.params[name]
            out += self._of(d, sc.parent or sc, depth + 1, ev) if d is not None else [Val(UNKNOWN, node)]
            for expr, at in self.passed(sc, name):  # what the file's calls of the function pass
                out += self._of(expr, at, depth + 1, ev)
        return _distinct(out)

    def passed(self, fn: Scope, param: str) -> List[Tuple[Any, Scope]]:
        """(argument, caller scope) for ``param`` at every call of the function ``fn`` in the file (by keyword or
        position; a call with ``*args`` / ``**kwargs`` passes something unknown; a call no run reaches passes
        nothing: an imported module's ``__main__`` block). A call of the class passes ``__init__``'s parameters."""
        node = fn.node
        if not isinstance(node, cst.FunctionDef):
            return []
        order = [p.name.value for p in list(node.params.posonly_params) + list(node.params.params)]
        if order[:1] in (["self"], ["cls"]):
            order = order[1:]
        callee = {node.name.value}
        if node.name.value == "__init__" and id(node) in self.s.method_class:
            callee.add(self.s.method_class[id(node)])  # and `super().__init__(...)` in a subclass, as before
        out: List[Tuple[Any, Scope]] = []
        for call, name in self.s.calls_with:
            if name.split(".")[-1] not in callee or id(call) in self.s.unrun_calls:
                continue
            at = self.s.scope_at(call)
            pos = [a for a in call.args if a.keyword is None and not a.star]
            kw = next((a for a in call.args if a.keyword is not None and a.keyword.value == param), None)
            if kw is not None:
                out.append((kw.value, at))
            elif param in order and order.index(param) < len(pos):
                out.append((pos[order.index(param)].value, at))
            elif any(a.star for a in call.args):
                out.append((None, at))
        return out

    def _field(self, attr: str, depth: int, ev: Eval, node: Any) -> List[Val]:
        defaults = self.s.field_defaults.get(attr)
        if not defaults:
            return [Val(UNKNOWN, node)]
        passed = self._passed_bool(attr)
        if passed is not None:  # every launch running the file gives the option: its default never holds
            return [Val(TRUE if passed else FALSE, node)]
        out: List[Val] = [Val(UNKNOWN, node)]  # the default, or what the command line passes
        for d in defaults:
            if d is None:
                out.append(Val(UNKNOWN, node))
            else:
                out += self._of(d, self.s.module_scope, depth + 1, ev)  # type: ignore[arg-type]
        return out

    def _passed_bool(self, attr: str) -> Optional[bool]:
        """The one boolean every launch running the file passes for ``--attr`` (``--use_low_cpu_mem False``); None
        where one does not pass it, passes another value, or they differ."""
        got: Set[bool] = set()
        for flags in self.launches:
            values = {v.lower() for v in given(flags, attr)}
            if len(values) != 1 or not values <= {"true", "false"}:
                return None
            got.add(values == {"true"})
        return got.pop() if len(got) == 1 else None

    def truth(self, test: Any, scope: Scope) -> Optional[bool]:
        """Is ``test`` true (False: false) whenever the script runs under ZeRO-3? None: it depends.

        Knows the ZeRO-3 test (every alias), the run's DeepSpeed argument (``args.deepspeed``, truthy in a
        DeepSpeed run), the ZeRO stage compared with a number (``args.zero_stage == 3``,
        ``ds_config["zero_optimization"]["stage"] >= 2``) and values the data flow knows (a parameter whose
        default is False and that nothing in the file changes). One evaluation: see :class:`Eval`."""
        return self._truth(test, scope, 0, Eval())

    def _truth(self, test: Any, scope: Scope, depth: int, ev: Eval) -> Optional[bool]:
        if ev.spent(depth):
            return None
        g = False if is_meta_test(test) else is_guard(test)
        if g is not None:
            return g
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            t = self._truth(test.expression, scope, depth + 1, ev)
            return None if t is None else not t
        if isinstance(test, cst.BooleanOperation):
            left, right = self._truth(test.left, scope, depth + 1, ev), self._truth(test.right, scope, depth + 1, ev)
            if isinstance(test.operator, cst.And) and _checks_stage_source(test.left, test.right, left, right):
                return right  # `cfg is not None and cfg["zero_optimization"]["stage"] == 3`: the run's config is given
            if isinstance(test.operator, cst.And):
                return False if False in (left, right) else (True if left is right is True else None)
            return True if True in (left, right) else (False if left is right is False else None)
        if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
            return self._compare(test, scope, depth + 1, ev)
        if isinstance(test, cst.Name) and self._optional_param(test.value, scope):
            return None  # ``def f(..., cfg=None)``: an input its callers (maybe in other files) pass
        if isinstance(test, (cst.Name, cst.Attribute)) and not (isinstance(test, cst.Name) and test.value in
                                                                 ("True", "False", "None")):
            kinds = {v.kind for v in self._of(test, scope, depth + 1, ev)}
            if kinds and kinds <= {FALSE, NONE}:
                return False
            if kinds == {TRUE}:
                return True
        if isinstance(test, cst.Name) and test.value in ("True", "False"):
            return test.value == "True"
        return None

    @staticmethod
    def _optional_param(name: str, scope: Scope) -> bool:
        sc: Optional[Scope] = scope
        while sc is not None and name not in sc.assigns and name not in sc.params:
            sc = sc.parent
        return sc is not None and name in sc.params and name not in sc.assigns and dotted(sc.params[name]) == "None"

    def _compare(self, test: cst.Comparison, scope: Scope, depth: int, ev: Eval) -> Optional[bool]:
        op, right = test.comparisons[0].operator, test.comparisons[0].comparator
        if isinstance(op, (cst.Is, cst.IsNot)) and dotted(right) == "None":
            t = self._truth(test.left, scope, depth, ev)
            if t is True:  # a truthy value is not None
                return isinstance(op, cst.IsNot)
            kinds = {v.kind for v in self._of(test.left, scope, depth, ev)}
            if kinds == {NONE}:
                return isinstance(op, cst.Is)
            return None
        if isinstance(op, (cst.Equal, cst.NotEqual)) and dotted(test.left).endswith(".distributed_type") and \
                (kw_key(right) == "DEEPSPEED" or dotted(right).endswith("DistributedType.DEEPSPEED")):
            return isinstance(op, cst.Equal)  # accelerate's distributed type: a ZeRO-3 run is a DeepSpeed run
        if isinstance(op, (cst.In, cst.NotIn)) and isinstance(test.left, cst.SimpleString):
            return self._in_option(test.left.evaluated_value, right, isinstance(op, cst.In))
        if not self._is_stage(test.left, scope):
            return None
        nums = [int(e.value.value) for e in right.elements if isinstance(e.value, cst.Integer)] \
            if isinstance(right, (cst.List, cst.Tuple, cst.Set)) else []
        if isinstance(op, (cst.In, cst.NotIn)):
            return (3 in nums) == isinstance(op, cst.In) if nums else None
        if not isinstance(right, cst.Integer):
            return None
        n = int(right.value)
        table: Dict[type, bool] = {cst.Equal: 3 == n, cst.NotEqual: 3 != n, cst.GreaterThan: 3 > n,
                                   cst.GreaterThanEqual: 3 >= n, cst.LessThan: 3 < n, cst.LessThanEqual: 3 <= n}
        return table.get(type(op))

    def _in_option(self, text: Any, option: Any, positive: bool) -> Optional[bool]:
        """``"stage3" in args.deepspeed``: the answer every launch of the script gives (each passes the option with
        a value the shell model knows: ``deepspeed=cfgs/zero-stage3.conf``); None when one does not, or they differ."""
        if not isinstance(text, str) or not isinstance(option, cst.Attribute) or not self.launches or \
                not options_namespace(option.value):
            return None
        got: Set[bool] = set()
        for flags in self.launches:
            values = given(flags, option.attr.value)
            if len(values) != 1:
                return None  # not passed (a default, or set elsewhere), or more than one value
            got.add((text in next(iter(values))) == positive)
        return got.pop() if len(got) == 1 else None

    def _is_stage(self, expr: Any, scope: Scope, depth: int = 0) -> bool:
        """Does ``expr`` hold the run's ZeRO stage (``args.zero_stage``, a config's ``zero_optimization.stage``)?"""
        if depth > 6:
            return False
        if isinstance(expr, cst.Attribute):
            return expr.attr.value in STAGE_NAMES
        if isinstance(expr, cst.Subscript) and len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index):
            return kw_key(expr.slice[0].slice.value) == "stage"
        if isinstance(expr, cst.Call) and dotted(expr.func).endswith(".get") and expr.args:
            return kw_key(expr.args[0].value) == "stage"
        if isinstance(expr, cst.Name):
            if expr.value in STAGE_NAMES and expr.value in self.s.field_defaults:
                return True
            sc: Optional[Scope] = scope
            while sc is not None and expr.value not in sc.assigns:
                sc = sc.parent
            if sc is None:
                return False
            vals = sc.assigns[expr.value]
            return bool(vals) and all(v is not None and self._is_stage(v, sc, depth + 1) for v in vals)
        return False

    def argument(self, call: cst.Call, key: str, scope: Scope) -> Optional[Arg]:
        """The value(s) of keyword ``key`` of a call: written out, or through ``**name`` dicts of the scope."""
        for a in call.args:
            if a.keyword is not None and a.keyword.value == key:
                return Arg(key, a.value, a, self.of(a.value, scope))
        for a in call.args:
            if a.star == "**" and isinstance(a.value, cst.Name) and key not in self.s.dropped.get(id(call), ()):
                sc: Optional[Scope] = scope
                while sc is not None and a.value.value not in sc.dicts:
                    sc = sc.parent
                entries = sc.dicts[a.value.value].get(key, []) if sc is not None else []
                if entries:
                    vals: List[Val] = []
                    for value, _ in entries:
                        vals += self.of(value, sc)  # type: ignore[arg-type]
                    return Arg(key, entries[-1][0], entries[-1][1], vals, list(entries))
            if a.star == "**" and isinstance(a.value, cst.Dict):
                for el in a.value.elements:
                    if isinstance(el, cst.DictElement) and kw_key(el.key) == key:
                        return Arg(key, el.value, el, self.of(el.value, scope))
        return None


def analyse(module: cst.Module, launches: Sequence[FrozenSet[str]] = ()) -> Script:
    """Two passes: the first collects assignments and defaults, the second evaluates ``if`` tests with them (and with
    the option values of ``launches``, those that run the file, as entry or through its imports: ``if "zero3" not
    in training_args.deepspeed:``)."""
    first = Script()
    walk(module, first)
    values = Values(first)
    values.launches = list(launches)
    if all(values.truth(test, sc) == g for test, sc, g in first.if_tests):
        return first  # no test the data flow decides otherwise: the second pass would find the same
    s = Script(values)
    walk(module, s)
    return s


def is_meta_test(expr: Any) -> bool:
    """``t.is_meta``, ``getattr(t, "is_meta", False)``, ``t.device.type == "meta"``: false under ZeRO-3, whose
    ``zero.Init`` gives every parameter a real (partitioned) tensor where ``init_empty_weights`` would give a meta
    one (a model file's test for "loaded by from_pretrained with low_cpu_mem_usage")."""
    if isinstance(expr, cst.Attribute):
        return expr.attr.value == "is_meta"
    if isinstance(expr, cst.Call) and dotted(expr.func) == "getattr" and len(expr.args) >= 2:
        key = expr.args[1].value
        return isinstance(key, cst.SimpleString) and key.evaluated_value == "is_meta"
    if isinstance(expr, cst.Comparison) and len(expr.comparisons) == 1 and \
            isinstance(expr.comparisons[0].operator, cst.Equal):
        sides = (expr.left, expr.comparisons[0].comparator)
        return any(isinstance(s, cst.SimpleString) and s.evaluated_value == "meta" for s in sides) and \
            any(isinstance(s, cst.Attribute) and s.attr.value in ("type", "device") for s in sides)
    return False


def _root(expr: Any) -> Optional[str]:
    """The name a subscript / attribute chain starts from (``cfg["zero_optimization"]["stage"]`` -> ``cfg``)."""
    while isinstance(expr, (cst.Subscript, cst.Attribute)):
        expr = expr.value
    return expr.value if isinstance(expr, cst.Name) else None


def _checks_stage_source(left: Any, right: Any, lt: Optional[bool], rt: Optional[bool]) -> bool:
    """``X is not None and <the stage read from X> <op> n`` (or ``X and ...``): the left side only makes sure the
    config the right side reads the stage from is given, which it is in a run whose stage is known (even where
    ``X`` is a parameter defaulting to None that the file never sets: its callers pass it)."""
    if lt is True or rt is None or not isinstance(right, cst.Comparison) or len(right.comparisons) != 1:
        return False
    src = _root(right.left)
    if src is None or not isinstance(right.left, cst.Subscript):
        return False
    if isinstance(left, cst.Name):
        return left.value == src
    return isinstance(left, cst.Comparison) and len(left.comparisons) == 1 and \
        isinstance(left.comparisons[0].operator, cst.IsNot) and dotted(left.comparisons[0].comparator) == "None" \
        and isinstance(left.left, cst.Name) and left.left.value == src
