"""A function that runs only when its callers' option is set: every call sits under an option gate.

A finding in a top-level function (or class) of a module that a ZeRO-3 launch imports by name runs only when the
function is called. Where every use of its name, in every project file a ZeRO-3 launch reaches (the module itself
included), sits in the body of an ``if`` on an option that none of the ZeRO-3 launches reaching that file passes
(``if cfg.do_merge_lora and ...: merge_lora(cfg)``, :mod:`.flags`), or is the entry of a registry the launches index
with an option and whose key none passes (``METHODS = {"replay": Replay}``, ``METHODS[args.method]``,
:mod:`.registry`), the finding is info: "only with --X".

Conservative: a name bound under another name (``import merge_lora as m``), named in a string (``getattr``, a
registry; a docstring or ``__all__`` is none), used outside such a gate, a caller file that does not parse, or a
module imported whole (any of its names may be used) keeps the severity.

Standalone tools whose class only their own ``__main__`` block uses: :mod:`.main_only`.
"""

from __future__ import annotations

import ast
import os
import re
from typing import Any, Dict, List, Optional, Set, Tuple

import libcst as cst

from ..discover import _read
from ..target import Target
from .flags import is_open, options_namespace
from .flags_gating import gates_once, shown
from .name_uses import name_uses
from .registry import entries, open_for, option
from .source import Source, parse


def caller_flag(t: Target, module: Any, src: Any, line: int, cache: Dict[str, Any]) -> Optional[str]:
    """Why the top-level function or class holding ``line`` of ``t`` does not run in the ZeRO-3 launches as they
    are (module doc): "--X: every use of f() is behind it ..." or "f() is used only in a ``__main__`` block ...";
    None when it may run."""
    path = os.path.normpath(t.path)
    taken = t.usage.imported.get(path)
    if taken is None:
        return None  # not imported by a ZeRO-3 launch, or imported whole (any name may be used)
    tops = [s for s in module.body if isinstance(s, (cst.FunctionDef, cst.ClassDef))]
    hold = next((s for s in tops if src.positions[s].start.line <= line <= src.positions[s].end.line), None)
    # ``taken``: the functions the launches may call (lint/called.py); a class they use is not among them
    if hold is None or (hold.name.value not in taken and not isinstance(hold, cst.ClassDef)) or \
            sum(s.name.value == hold.name.value for s in tops) != 1:
        return None
    name = hold.name.value
    key = "callers:" + name
    if key not in cache:
        cache[key] = _callers(t, path, src, hold, name, cache)
    return cache[key]  # type: ignore[no-any-return]


def parsed(f: str, cache: Dict[str, Any]) -> Any:
    """The parsed project file ``f`` (its module None where it does not parse), parsed once per linted file."""
    key = "src:" + f
    if key not in cache:
        cache[key] = parse(Source(f, _read(f), "utf-8"))
    return cache[key]


def _callers(t: Target, path: str, own: Any, hold: Any, name: str, cache: Dict[str, Any]) -> Optional[str]:
    word = re.compile(r"\b" + re.escape(name) + r"\b")
    files = sorted({f for f, (zero3, _) in t.usage.launches.items() if zero3} | {path})
    gates: List[str] = []
    mains: List[str] = []
    for f in files:
        if f == path:
            src = own
        else:
            if not word.search(_read(f)):
                continue
            src = parsed(f, cache)
            if src.module is None:
                return None
        passed = t.usage.zero3_flags.get(f)
        if passed is None:
            return None
        listed = entries(src.module, src.positions, name)
        got = _uses(src, name, passed, id(hold.name) if f == path else None, f not in t.usage.entries,
                    {pos for pos, _, _ in listed}, cache)
        if got is None or any(g is None for g in got[0]):
            return None
        gates += [g for g in got[0] if g is not None]
        for _, registry, key in listed:
            gate = _registry_gate(t, files, registry, key, cache)
            if gate is None:
                return None
            gates.append(gate)
        mains += [f] if got[1] else []
    if gates:
        return f"only with --{gates[0]}: every use of {name}() in the files its ZeRO-3 launches run is behind it, and none " \
               "passes it"
    if mains:
        return f"{name}() is used only in the __main__ block of {mains[0]}, which no DeepSpeed launch starts"
    return None


def _registry_gate(t: Target, files: List[str], registry: str, key: str, cache: Dict[str, Any]) -> Optional[str]:
    """``X K`` where the files of the ZeRO-3 launches index ``registry`` only with ``--X`` and none selects ``key``
    (:mod:`.registry`); None where one may. The option is read once per registry."""
    if "registry:" + registry not in cache:
        word = re.compile(r"\b" + re.escape(registry) + r"\b")
        srcs = [parsed(f, cache) for f in files if word.search(_read(f))]
        cache["registry:" + registry] = None if any(s.module is None for s in srcs) else option(srcs, registry)
    got = cache["registry:" + registry]
    if got is None or not got[1]:
        return None
    flag, where = got
    for f in where:
        passed = t.usage.zero3_flags.get(os.path.normpath(f))
        if passed is None or open_for(flag, key, passed, t.usage.zero3_defaults.get(os.path.normpath(f))):
            return None
    return f"{flag} {key}"


def _uses(src: Any, name: str, passed: Any, skip: Optional[int], main_dead: bool, listed: Set[Tuple[int, int]],
          cache: Dict[str, Any]) -> Optional[Tuple[List[Optional[str]], bool]]:
    """The option gating each use of ``name`` in ``src`` (None for a use no such gate holds), and whether a use in
    the module's ``__main__`` block was left out (``main_dead``: the file is no launch's entry, so that block never
    runs); ``listed``: the positions of registry entries (:mod:`.registry`), left to the caller; None when the
    name is imported under another name or a string names it (not ``__all__``'s, a comparison's or a dict key):
    :class:`.name_uses.NameUses`."""
    got = name_uses(src, main_dead, cache).uses(name, skip, listed)
    if got is None:
        return None
    uses, main = got
    spans = gates_once(src, cache)
    out: List[Optional[str]] = []
    for pos in uses:
        hit = [" or --".join(shown(x) for x in sorted(f)) for start, end, f in spans
               if start <= pos < end and not any(is_open(x, passed) for x in f)]
        out.append(hit[0] if hit else None)
    return out, main


def _tested(test: Any) -> Optional[Tuple[str, Tuple[str, ...]]]:
    """(name, the literal values that make the test false) of ``if p:`` (False, None), ``if not p:`` (True) and ``if p
    is not None:``."""
    if isinstance(test, cst.Name):
        return test.value, ("False", "None")
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not) and isinstance(test.expression, cst.Name):
        return test.expression.value, ("True",)  # ``if not train:``: skipped where every call passes train=True
    if isinstance(test, cst.Comparison) and isinstance(test.left, cst.Name) and len(test.comparisons) == 1 and \
            isinstance(test.comparisons[0].operator, cst.IsNot) and \
            isinstance(test.comparisons[0].comparator, cst.Name) and test.comparisons[0].comparator.value == "None":
        return test.left.value, ("None",)
    if isinstance(test, cst.Comparison) and isinstance(test.left, cst.Name) and len(test.comparisons) == 1 and \
            isinstance(test.comparisons[0].operator, cst.NotEqual) and \
            isinstance(test.comparisons[0].comparator, (cst.SimpleString, cst.Integer)):  # ``if device != "cuda":``
        return test.left.value, (_literal(cst.Module([]).code_for_node(test.comparisons[0].comparator)),)
    return None


def _conjuncts(test: Any) -> List[Any]:
    """The operands of a chain of ``and`` (the test itself otherwise): the body runs only if each is true."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return _conjuncts(test.left) + _conjuncts(test.right)
    return [test]


def _literal(text: str) -> str:
    """A literal's text in one spelling ('cuda' and "cuda" alike); other code as written."""
    try:
        return repr(ast.literal_eval(text))
    except (ValueError, SyntaxError, RecursionError):
        return text


def _param_ifs(fn: Any, src: Any, line: int) -> List[Tuple[str, int, Tuple[str, ...]]]:
    """(parameter, position, the values that skip it) of each ``if param:`` / ``if param is not None:`` of the
    function ``fn`` whose body (not its ``else``) holds ``line``, ``param`` a plain parameter of ``fn`` (not rebound
    in it): its value is the callers'."""
    params = [p.name.value for p in list(fn.params.posonly_params) + list(fn.params.params)]
    rebound: Set[str] = set()
    ifs: List[Tuple[str, Tuple[str, ...]]] = []
    typed: List[Optional[str]] = []  # per enclosing ``if``: the name an ``isinstance(p, str)`` test narrows

    class Visit(cst.CSTVisitor):
        def visit_AssignTarget(self, node: Any) -> None:
            # ``if isinstance(q, str): q = int(q)`` converts a string only: a None or False q stays as it is
            if isinstance(node.target, cst.Name) and node.target.value not in typed:
                rebound.add(node.target.value)

        def leave_If(self, node: Any) -> None:
            typed.pop()

        def visit_AugAssign(self, node: Any) -> None:
            if isinstance(node.target, cst.Name):
                rebound.add(node.target.value)

        def visit_If(self, node: Any) -> None:
            typed.append(_narrowed(node.test))
            r = src.positions[node.body]
            if r.start.line <= line <= r.end.line:  # ``if q is not None and not inference:``: each side gates
                ifs.extend(got for got in map(_tested, _conjuncts(node.test)) if got is not None)

    fn.body.visit(Visit())
    return [(name, params.index(name), offs) for name, offs in ifs if name in params and name not in rebound]


_NOT_NONE_OR_BOOL = ("str", "float", "list", "dict", "tuple", "bytes")  # no None, False or True is one of these


def _narrowed(test: Any) -> Optional[str]:
    """``q`` of ``isinstance(q, str)`` (or a tuple of such types): inside, q is neither None nor a bool."""
    if not (isinstance(test, cst.Call) and isinstance(test.func, cst.Name) and test.func.value == "isinstance"
            and len(test.args) == 2 and isinstance(test.args[0].value, cst.Name)):
        return None
    kinds = test.args[1].value
    names = [e.value for e in kinds.elements] if isinstance(kinds, cst.Tuple) else [kinds]
    ok = all(isinstance(n, cst.Name) and n.value in _NOT_NONE_OR_BOOL for n in names)
    return test.args[0].value.value if ok else None


def _passes_off(call: Any, param: str, index: int, default: Optional[str], method: bool, offs: Tuple[str, ...],
                options: Optional[Tuple[Set[str], Dict[str, str]]] = None, used: Optional[Set[str]] = None) -> bool:
    """Does ``call`` pass ``param`` one of the literals ``offs`` (by keyword or at its position ``index``), or omit
    it where its default is one? A ``*args`` / ``**kwargs`` may pass anything. With ``options`` (what the ZeRO-3
    launches of the caller's file pass, and the defaults its code declares): an option no launch passes whose
    declared default is one of ``offs`` counts too (``quantization=model_args.quantization``, default None)."""
    if any(a.star for a in call.args):
        return False
    got = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == param), None)
    plain = [a for a in call.args if a.keyword is None]
    pos = index - (1 if method else 0)
    if got is None and 0 <= pos < len(plain):
        got = plain[pos].value
    if options is not None and isinstance(got, cst.Attribute) and options_namespace(got.value):
        name, (passed, declared) = got.attr.value, options
        if used is not None:
            used.add(name)
        return name not in passed and declared.get(name) in offs
    text = default if got is None else cst.Module([]).code_for_node(got)
    return text in offs or text is not None and _literal(text) in offs


def param_off(t: Target, module: Any, src: Any, line: int, cache: Dict[str, Any]) -> Optional[str]:
    """Why ``line`` of a top-level function ``f`` of ``t`` does not run in the ZeRO-3 launches: it is in the body
    of an ``if p:`` / ``if p is not None`` (or one side of an ``and``) on a parameter ``p`` of ``f`` that every call
    in the files the launches run passes False / None, or an option their ZeRO-3 launches do not pass that defaults
    to it (``quantization=model_args.quantization``), or leaves at such a default (``if not p:``: True), calls in
    functions no launch runs left out: "f() is called with p=False ...". None when it may run.
    Conservative as :func:`caller_flag`: ``f`` must be imported by name by a ZeRO-3 launch's module; a use of
    its name that is no call, a call with ``*args`` / ``**kwargs``, an alias or a string naming it keeps it."""
    path = os.path.normpath(t.path)
    taken = t.usage.imported.get(path)
    if not taken:
        return None
    tops = [s for s in module.body if isinstance(s, cst.FunctionDef)]
    fn = next((s for s in tops if src.positions[s].start.line <= line <= src.positions[s].end.line), None)
    if fn is None or fn.name.value not in taken or sum(s.name.value == fn.name.value for s in module.body
                                                      if isinstance(s, (cst.FunctionDef, cst.ClassDef))) != 1:
        return None
    for param, index, offs in _param_ifs(fn, src, line):
        key = f"param:{fn.name.value}:{param}:{offs}"
        if key not in cache:
            cache[key] = _all_false(t, path, src, fn, param, index, offs, cache)
        opts = cache[key]
        if opts is not None:
            test = param if "False" in offs else f"{param} is not None" if offs == ("None",) else f"{param} != {offs[0]}"
            given = f"{param}={'/'.join(offs)}" if not opts else \
                f"{param} from {' / '.join('--' + o for o in sorted(opts))} (default {'/'.join(offs)}), which no " \
                "ZeRO-3 launch passes,"
            return f"{fn.name.value}() is called with {given} wherever the files its ZeRO-3 launches run call it, " \
                   f"and this runs only if {test}"
    return None


def _all_false(t: Target, path: str, own: Any, fn: Any, param: str, index: int, offs: Tuple[str, ...],
               cache: Dict[str, Any]) -> Optional[Set[str]]:
    """The options the calls pass ``param`` from (empty: literals only) where every call passes it off; None where
    one may pass it on."""
    name = fn.name.value
    p = next(p for p in list(fn.params.posonly_params) + list(fn.params.params) if p.name.value == param)
    default = cst.Module([]).code_for_node(p.default) if p.default is not None else None
    word = re.compile(r"\b" + re.escape(name) + r"\b")
    alias = re.compile(r"\bimport\b[^\n]*\b" + re.escape(name) + r"\s+as\b")
    calls = 0
    used: Set[str] = set()
    for f in sorted({f for f, (zero3, _) in t.usage.launches.items() if zero3} | {path}):
        text = own.text if f == path else _read(f)
        if f != path and not word.search(text):
            continue
        if alias.search(text):
            return None
        src = own if f == path else parsed(f, cache)
        if src.module is None:
            return None
        got = _calls(src, name, id(fn.name) if f == path else None)
        taken_there = t.usage.imported.get(f)
        if got is not None and taken_there:
            got = _live(src, got, taken_there)
        flags_f = t.usage.zero3_flags.get(f)  # what the caller's ZeRO-3 launches pass, what its code declares
        known = (flags_f, t.usage.zero3_defaults.get(f) or {}) if flags_f is not None and "True" not in offs else None
        if got is None or not all(_passes_off(c, param, index, default, False, offs, known, used) for c in got):
            return None
        calls += len(got)
    return used if calls > 0 else None


def _live(src: Any, calls: List[Any], taken: Set[str]) -> List[Any]:
    """The ``calls`` not inside a top-level function of the module that no ZeRO-3 launch runs (``taken``: those it
    can run, lint/called.py): an inference helper's ``f(train=False)`` beside the trainer's ``f(train=True)``."""
    dead = [src.positions[s] for s in src.module.body if isinstance(s, cst.FunctionDef) and s.name.value not in taken]
    return [c for c in calls if not any(r.start.line <= src.positions[c].start.line <= r.end.line for r in dead)]


def _calls(src: Any, name: str, skip: Optional[int]) -> Optional[List[Any]]:
    """The calls of ``name`` in ``src``; None where the name is used otherwise (passed on, stored, in a string)."""
    calls: List[Any] = []
    funcs: Set[int] = set()
    names: List[Any] = []
    bad = False

    class Visit(cst.CSTVisitor):
        def visit_ImportAlias(self, node: Any) -> bool:
            return False

        def visit_Call(self, node: Any) -> None:
            if isinstance(node.func, cst.Name) and node.func.value == name:
                calls.append(node)
                funcs.add(id(node.func))

        def visit_Arg(self, node: Any) -> None:
            if node.keyword is not None:
                funcs.add(id(node.keyword))

        def visit_Attribute(self, node: Any) -> None:
            funcs.add(id(node.attr))

        def visit_SimpleString(self, node: Any) -> None:
            nonlocal bad
            bad = bad or bool(re.search(r"\b" + re.escape(name) + r"\b", node.value))

        def visit_Name(self, node: Any) -> None:
            if node.value == name and id(node) != skip:
                names.append(node)

    src.module.visit(Visit())
    if bad or any(id(n) not in funcs for n in names):
        return None
    return calls
