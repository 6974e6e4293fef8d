"""Classes a registry holds, and whether a launch selects them.

A class decorated by a registry (``@MODELS.register``, ``@registry.register_model("blip2_opt")``,
``@register_module()``) is held under a key (its name, or the decorator's string) and built by a factory that looks the
key up in the configuration a launch hands the entry script (``model: {name: Qwen}`` in the YAML of ``run.py -c
x.yaml``). Call-based reach (:mod:`.calls`) keeps such a class live, since nothing names it; where every ZeRO-3 launch
of an entry hands it its configuration (a training YAML, a Python config, an arguments JSON) and none of those files,
options or option defaults names the class or its key, no ZeRO-3 launch builds it: its methods' findings are info.
A key that is not a literal, another decorator that is no registry's, a metaclass registry, or a launch that passes
arguments not known here (``"$@"``) keep the class live."""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Dict, FrozenSet, Iterable, List, NamedTuple, Optional, Set, Tuple

from .binds import root_name
from .closure import Fn, close
from .discover import _read

if TYPE_CHECKING:
    from .closure import Cls
    from .recipe import Recipe

_REGISTRY = re.compile(r"regist", re.I)  # register, register_module, registry.register_model, REGISTRY.add ...
_HANDED_BYTES = 256 * 1024


class Held(NamedTuple):
    """How a registry holds a class."""

    keys: FrozenSet[str]  # its name and the decorator's literal strings
    # the name the decorator starts from (``Factory`` of ``@Factory.register``): looking the class up goes through
    # it; None where the decorator is a bare function (``@register_model("x")``: its look-up may be another's)
    registry: Optional[str]


Keys = Dict[str, Held]  # class name -> how its registry holds it


def registry_keys(node: ast.ClassDef, plain: Iterable[str]) -> Optional[Held]:
    """How a registry decorator holds the class; None where it has none, a key is not a literal, or another
    decorator (not in ``plain``) may use it otherwise."""
    keys = {node.name}
    found = False
    roots: Set[Optional[str]] = set()
    for d in node.decorator_list:
        call = d if isinstance(d, ast.Call) else None
        target = call.func if call is not None else d
        last = target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else None
        if last is None or last in plain:
            continue
        if not _REGISTRY.search(last if isinstance(target, ast.Name) else ast.unparse(target)):
            return None
        found = True
        roots.add(root_name(target) if isinstance(target, ast.Attribute) else None)
        for a in (*call.args, *(k.value for k in call.keywords)) if call is not None else ():
            if not (isinstance(a, ast.Constant) and isinstance(a.value, (str, bool, type(None)))):
                return None
            if isinstance(a.value, str):
                keys.add(a.value)
    registry = next(iter(roots)) if len(roots) == 1 else None
    return Held(frozenset(keys), registry) if found else None


def _named(key: str, text: str) -> bool:
    return re.search(r"(?<![\w.-])" + re.escape(key) + r"(?![\w.-])", text, re.I) is not None


def unselected(classes: Dict[str, List["Cls"]], keys: Dict[str, Keys], text: str
               ) -> Tuple[Dict[str, List["Cls"]], Set[Tuple[str, str]]]:
    """``classes`` with the registry classes whose keys ``text`` never names no longer always live, and those
    (file, class) pairs."""
    out: Dict[str, List["Cls"]] = {}
    gone: Set[Tuple[str, str]] = set()
    for f, cls in classes.items():
        held = keys.get(f, {})
        out[f] = []
        for c in cls:
            if c[6] and c[0] in held and not any(_named(k, text) for k in held[c[0]].keys):
                gone.add((f, c[0]))
                c = _held_only(c)
            out[f].append(c)
    return out, gone


def _held_only(c: "Cls") -> "Cls":
    """``c`` no longer always live: only a use of it (or a look-up by its key) makes it live."""
    return c[0], c[1], c[2], c[3], c[4], c[5], False, c[7], c[8], c[9]


def unlooked(fns: Dict[str, List[Fn]], classes: Dict[str, List["Cls"]], keys: Dict[str, Keys],
             uses: Tuple[Set[str], Set[str], Set[str]], gone: Set[Tuple[str, str]]
             ) -> Tuple[Dict[str, List["Cls"]], Set[Tuple[str, str]]]:
    """``classes`` with the registry classes whose registry (a class of the project: ``@Factory.register``) nothing
    that runs looks up no longer always live, and those (file, class) pairs: the decorator that fills a registry
    builds nothing, and an entry that never names the registry (``Factory.create(name)``), also through the classes
    and functions it runs, never builds its classes (a class only a look-up by a run-time name may build is not
    taken to look the registry up)."""
    project = {c[0] for cls in classes.values() for c in cls}
    todo = {(f, c[0]): keys[f][c[0]].registry for f, cls in classes.items() for c in cls
            if c[6] and (f, c[0]) not in gone and c[0] in keys.get(f, {}) and keys[f][c[0]].registry in project}
    while todo:
        trial = {f: [_held_only(c) if (f, c[0]) in todo else c for c in cls] for f, cls in classes.items()}
        called, named, weak = (set(u) for u in uses)
        close(fns, trial, called, named, weak, dynamic=False)
        used = {u.rsplit("::", 1)[-1] for u in called | named | weak}
        if not used.intersection(todo.values()):
            return trial, set(todo)
        todo = {k: r for k, r in todo.items() if r not in used}
    return classes, set()


def selection(recipes: List["Recipe"], entry: str, defaults: Dict[str, str]) -> Optional[str]:
    """What the ZeRO-3 launches of ``entry`` hand it to select a registry's class by: the options they pass with
    their values, the files they hand it and the option defaults its code declares; None where one of them hands
    no configuration file or passes arguments not known here (its selection is unknown)."""
    parts: List[str] = [f"{k}={v}" for k, v in sorted(defaults.items())]
    for r in recipes:
        if r.stage != 3 or r.entry != entry:
            continue
        if r.opaque or not r.handed:
            return None
        parts += sorted(r.flags)
        parts += [_read(p, _HANDED_BYTES) for p in r.handed]
    return "\n".join(parts)
