"""Where an option test's name comes from besides ``args.x`` (lint/script/flags.py reads the gates): the fields of
the options dataclass read on ``self`` in its own methods, a function's parameters that every call passes from an
option, and a name set in an option's ``if`` body and None in its ``else``."""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Set, Tuple

import libcst as cst

from .dataflow import dotted
from .walk import walk

_ARGS_CLASS = re.compile(r"(?:Arguments|Args)$")
Own = Optional[Tuple[str, FrozenSet[str]]]  # a method's ``self`` and its options dataclass's fields


def own_field(test: Any, own: "Own") -> bool:
    """``self.x``, ``x`` a field of the options dataclass whose method this is (``own``)."""
    return own is not None and isinstance(test.value, cst.Name) and test.value.value == own[0] and \
        test.attr.value in own[1]


# a parser of dataclasses: HfArgumentParser, TRL's TrlParser, alignment-handbook's H4ArgumentParser, open-instruct's
# ArgumentParserPlus
_PARSER = re.compile(r"(?:ArgumentParser\w*|TrlParser)$")


def parsed_classes(module: Any) -> Set[str]:
    """The names of the classes ``module`` gives a parser of dataclasses (``HfArgumentParser((Args, ModelConfig))``),
    defined there or imported: their instances hold the run's options."""
    parsed: Set[str] = set()

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: Any) -> None:
            if _PARSER.search(dotted(node.func).split(".")[-1]) and node.args:
                arg = node.args[0].value
                items = [e.value for e in arg.elements] if isinstance(arg, (cst.Tuple, cst.List)) else [arg]
                parsed.update(i.value for i in items if isinstance(i, cst.Name))

    walk(module, Calls())
    return parsed


def typed_options(fn: Any, parsed: Set[str]) -> Set[str]:
    """The parameters of function ``fn`` annotated with a class of ``parsed`` (``model_config: ModelConfig``): names
    of the run's options namespaces there, whatever they are called."""
    out: Set[str] = set()
    for p in fn.params.params:
        note = p.annotation.annotation if p.annotation is not None else None
        if note is not None and dotted(note).split(".")[-1] in parsed:
            out.add(p.name.value)
    return out


def options_classes(module: Any) -> Dict[str, FrozenSet[str]]:
    """The classes of ``module`` whose instances hold the run's options, with their fields (annotated names of
    the class body, each a ``--field`` of the command line, that default to off: :func:`_off_default`): a class
    given to a parser of dataclasses in the module (:func:`parsed_classes`), or a ``@dataclass`` named
    ``*Arguments`` / ``*Args``."""
    parsed = parsed_classes(module)
    out: Dict[str, FrozenSet[str]] = {}
    for stmt in module.body:
        if not isinstance(stmt, cst.ClassDef):
            continue
        dataclass = any(dotted(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator)
                        .split(".")[-1] == "dataclass" for d in stmt.decorators)
        if stmt.name.value in parsed or dataclass and _ARGS_CLASS.search(stmt.name.value):
            out[stmt.name.value] = frozenset(
                x.target.value for line in stmt.body.body if isinstance(line, cst.SimpleStatementLine)
                for x in line.body if isinstance(x, cst.AnnAssign) and isinstance(x.target, cst.Name)
                and _off_default(x.value))
    return out


def own_methods(module: Any) -> Dict[int, Own]:
    """id of each method (a function of the class body with a first parameter, its ``self``; no static or class
    method) of the options classes of ``module`` (:func:`options_classes`) -> (that parameter's name, the class's
    fields)."""
    classes = options_classes(module)
    return {id(fn): (fn.params.params[0].name.value, classes[stmt.name.value])
            for stmt in module.body if isinstance(stmt, cst.ClassDef) and stmt.name.value in classes
            for fn in stmt.body.body if isinstance(fn, cst.FunctionDef) and fn.params.params
            and not any(dotted(d.decorator) in ("staticmethod", "classmethod") for d in fn.decorators)}


def _off_default(value: Any) -> bool:
    """A field's default that leaves its option off: ``False`` / ``None``, also as ``field(default=...)`` (a
    field without one is required, one defaulting to True or a value is on without the option: not a gate)."""
    if isinstance(value, cst.Call) and dotted(value.func).split(".")[-1] == "field":
        value = next((a.value for a in value.args if a.keyword is not None and a.keyword.value == "default"), None)
    return isinstance(value, cst.Name) and value.value in ("False", "None")


def is_none(value: Any) -> bool:
    """None, or False: the value a name holds in the ``else`` of an option's ``if`` (``load_in_8bit = False``),
    off for a truth test and for a load argument harmful only when true."""
    return isinstance(value, cst.Name) and value.value in ("None", "False")


def _within(node: Any, outer: Any, src: Any) -> bool:
    a, b = src.positions[node], src.positions[outer]
    return (b.start.line, b.start.column) <= (a.start.line, a.start.column) and \
        (a.end.line, a.end.column) <= (b.end.line, b.end.column)


def in_orelse(node: Any, src: Any, ifs: List[Tuple[Any, List[Set[str]]]]) -> bool:
    """Is the assignment in the ``else`` of the innermost ``if`` around it?"""
    return bool(ifs) and isinstance(ifs[-1][0].orelse, cst.Else) and _within(node, ifs[-1][0].orelse, src)


def set_in_gate(name: str, node: Any, src: Any, ifs: List[Tuple[Any, List[Set[str]]]]) -> Set[str]:
    """The options of an ``if`` whose body sets ``name`` to a value and whose ``else`` sets it to None or False
    (``if args.qlora: bnb = BitsAndBytesConfig(...)`` / ``else: bnb = None``): the name is off unless one is
    passed. One option test (a single alternative) only."""
    if not ifs or is_none(node.value):
        return set()
    test, alts = ifs[-1]
    if len(alts) != 1 or not _within(node, test.body, src) or not isinstance(test.orelse, cst.Else):
        return set()
    none = any(isinstance(st, cst.SimpleStatementLine) and any(
        isinstance(x, cst.Assign) and len(x.targets) == 1 and isinstance(x.targets[0].target, cst.Name)
        and x.targets[0].target.value == name and is_none(x.value) for x in st.body)
        for st in test.orelse.body.body)
    return set(alts[0]) if none else set()


def param_options(module: Any, flags_of: Callable[[Any], Set[str]]) -> Dict[Tuple[int, str], Set[str]]:
    """(id of a top-level function, parameter) -> the options its calls in the file pass for it, where every call
    of the (uniquely defined) function that passes the parameter passes an option (``qlora=args.qlora``, or the
    same positionally) and the parameter's default is off (False / None): the parameter is on only with them."""
    defs: Dict[str, Any] = {}
    twice: Set[str] = set()
    for stmt in module.body:
        if isinstance(stmt, cst.FunctionDef):
            if stmt.name.value in defs:
                twice.add(stmt.name.value)
            defs.setdefault(stmt.name.value, stmt)
    passed: Dict[Tuple[str, str], Set[str]] = {}
    other: Set[Tuple[str, str]] = set()

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: Any) -> None:
            fn = node.func.value if isinstance(node.func, cst.Name) else None
            if fn not in defs or fn in twice:
                return
            names = [p.name.value for p in defs[fn].params.params]
            for i, a in enumerate(node.args):
                if a.star:
                    return  # *args / **kwargs: what it passes is not known
                name = a.keyword.value if a.keyword is not None else (names[i] if i < len(names) else None)
                if name is None:
                    continue
                got = flags_of(a.value) if isinstance(a.value, cst.Attribute) else set()
                if got:
                    passed.setdefault((fn, name), set()).update(got)
                else:
                    other.add((fn, name))

    walk(module, Calls())
    out: Dict[Tuple[int, str], Set[str]] = {}
    for (fn, name), flags in passed.items():
        param = next((p for p in defs[fn].params.params if p.name.value == name), None)
        default = param.default if param is not None else None
        if (fn, name) not in other and isinstance(default, cst.Name) and default.value in ("False", "None"):
            out[(id(defs[fn]), name)] = flags
    return out


def param_option_names(module: Any, is_option: Callable[[Any], Optional[str]]) -> Dict[int, Dict[str, str]]:
    """id of a top-level function -> {parameter: option} where every call of the (uniquely defined) function in
    the module passes that parameter, each from the option (``bits=model_args.bits``; ``is_option`` names it) or
    from a parameter of the calling function that is itself such a one (``get_model(bits=bits)`` inside
    ``load(bits=args.bits)``): the parameter holds the option's value, and ``bits == 8`` reads ``--bits 8``."""
    defs: Dict[str, Any] = {}
    twice: Set[str] = set()
    for stmt in module.body:
        if isinstance(stmt, cst.FunctionDef):
            twice.update({stmt.name.value} & set(defs))
            defs.setdefault(stmt.name.value, stmt)
    calls: List[Tuple[str, Any, Any]] = []  # (function called, the call, the function making it)
    stack: List[Any] = []

    class Calls(cst.CSTVisitor):
        def visit_FunctionDef(self, node: Any) -> None:
            stack.append(node)

        def leave_FunctionDef(self, node: Any) -> None:
            stack.pop()

        def visit_Call(self, node: Any) -> None:
            fn = node.func.value if isinstance(node.func, cst.Name) else None
            if fn in defs and fn not in twice:
                calls.append((fn, node, stack[0] if stack else None))

    walk(module, Calls())
    out: Dict[int, Dict[str, str]] = {}
    for _ in range(3):  # a chain of up to three calls
        got: Dict[Tuple[str, str], Set[Optional[str]]] = {}
        for fn, call, caller in calls:
            names = [p.name.value for p in defs[fn].params.params]
            given: Dict[str, Any] = {}
            for i, a in enumerate(call.args):
                if a.star:
                    given = {}
                    break
                name = a.keyword.value if a.keyword is not None else (names[i] if i < len(names) else None)
                if name is not None:
                    given[name] = a.value
            for name in names:
                v = given.get(name)
                via = out.get(id(caller), {}).get(v.value) if isinstance(v, cst.Name) and caller is not None else None
                got.setdefault((fn, name), set()).add(via or (is_option(v) if v is not None else None))
        out = {}
        for (fn, name), opts in got.items():
            if len(opts) == 1 and None not in opts:
                out.setdefault(id(defs[fn]), {})[name] = next(iter(o for o in opts if o))
    return out
