"""The closure of :mod:`.calls`: from the uses of the code that runs, to a fixpoint, which top-level functions
and classes of the files an entry reaches can run, and the verdict on each."""

from __future__ import annotations

import os
from typing import Dict, List, Set, Tuple

Fn = Tuple[str, int, int, Set[str], Set[str], bool, Set[str]]  # name, lines, calls, names, decorated, weak uses
# a top-level class: name, lines, (calls, names, weak uses) of its methods and bases, always live, its methods' lines
Cls = Tuple[str, int, int, Set[str], Set[str], Set[str], bool, List[Tuple[str, int, int]]]
# a use of code that may reach any class (import_module, a metaclass ...); DYNAMIC + a file (or a package's
# directory and a separator): one that reaches only the classes in that namespace (eval, globals(), getattr(module))
DYNAMIC = "<dynamic>"
# file -> function name (``Class.method`` for a method) -> (verdict, first line, last line, note); the note of an
# "unused" verdict: the classes whose methods use it (a method: its class)
Verdicts = Dict[str, Dict[str, Tuple[str, int, int, str]]]


def verdicts(fns: Dict[str, List[Fn]], classes: Dict[str, List[Cls]], live: Dict[str, Set[str]],
              uses: Tuple[Set[str], Set[str], Set[str]], all_live: Tuple[Set[str], Set[str], Set[str]]) -> Verdicts:
    """Each function's verdict (and each method's, where its class is not live)."""
    called, named, weak = uses
    out: Verdicts = {}
    for f, defs in fns.items():
        out[f] = {}
        for name, first, last, _, _, decorated, _ in defs:
            verdict = "called" if _used(f, name, called) else \
                "named" if _used(f, name, named) or _used(f, name, weak) or decorated else "dead"
            note = ""
            if verdict == "dead" and any(_used(f, name, u) for u in all_live):
                verdict = "unused"
                note = ", ".join(sorted({c[0] for g, cls in classes.items() for c in cls if c[0] not in live[g]
                                         and any(_used(f, name, u) for u in c[3:6])}))
            out[f][name] = (verdict, first, last, note)
    for f, cls in classes.items():
        for c in cls:
            if c[0] not in live[f]:
                out.setdefault(f, {}).update({f"{c[0]}.{m}": ("unused", a, b, c[0]) for m, a, b in c[7]})
    return out


def _used(f: str, name: str, uses: Set[str]) -> bool:
    return name in uses or f"{f}::{name}" in uses


def tie(fns: Dict[str, List[Fn]], classes: Dict[str, List[Cls]], *sets: Set[str]
         ) -> Tuple[Dict[str, List[Fn]], Dict[str, List[Cls]]]:
    """A use tied to a file's function that file does not define (a package re-exporting it, a file that does not
    parse, a class) matches the name anywhere: ``sets`` rewritten in place, the functions' and classes' uses in a
    copy."""
    defined = {f"{f}::{d[0]}" for f, defs in fns.items() for d in defs}

    def norm(uses: Set[str]) -> Set[str]:
        return {u if "::" not in u or u in defined else u.rsplit("::", 1)[1] for u in uses}

    for s in sets:
        s |= norm(s)
        s -= {u for u in s if "::" in u and u not in defined}
    return ({f: [(n, a, b, norm(c), norm(m), d, norm(w)) for n, a, b, c, m, d, w in defs] for f, defs in fns.items()},
            {f: [(n, a, b, norm(c), norm(m), norm(w), al, ms) for n, a, b, c, m, w, al, ms in cls]
             for f, cls in classes.items()})


def close(fns: Dict[str, List[Fn]], classes: Dict[str, List[Cls]], called: Set[str], named: Set[str],
           weak: Set[str], every: bool = False) -> Dict[str, Set[str]]:
    """To a fixpoint: the uses of what runs (:func:`_close_fns`), and of each class that it uses in any way (or
    that is always live, or all of them where code may look a class up at run time, or ``every``): its methods
    run. Returns, per file, its live classes."""
    live: Dict[str, Set[str]] = {f: set() for f in classes}
    scopes = {f: _scopes(f) for f in classes}
    while True:
        _close_fns(fns, called, named, weak)
        more = False
        for f, cls in classes.items():
            for name, _, _, c, n, w, always, _ in cls:
                if name not in live[f] and (every or always or not scopes[f].isdisjoint(called) or _used(f, name, called)
                                            or _used(f, name, named) or _used(f, name, weak)):
                    live[f].add(name)
                    called |= c
                    named |= n
                    weak |= w
                    more = True
        if not more:
            return live


def _scopes(f: str) -> Set[str]:
    """The lookups that reach the classes of file ``f``: any (``DYNAMIC``), one in ``f``'s namespace, or in a
    package's above it (lint/calls.py ``_scope``)."""
    out = {DYNAMIC, DYNAMIC + f}
    d = os.path.dirname(f)
    while d and d != os.path.dirname(d):
        out.add(DYNAMIC + d + os.sep)
        d = os.path.dirname(d)
    return out


def _close_fns(fns: Dict[str, List[Fn]], called: Set[str], named: Set[str], weak: Set[str]) -> None:
    """To a fixpoint: a called or named function's uses are its own uses (a registry's function runs); a function
    only weakly used (called on an object) passes on only weak uses."""
    done: Set[Tuple[str, str]] = set()
    changed = True
    while changed:
        changed = False
        for f, defs in fns.items():
            for name, _, _, c, n, _, w in defs:
                if (f, name) not in done and (_used(f, name, called) or _used(f, name, named)):
                    done.add((f, name))
                    called |= c
                    named |= n
                    weak |= w
                    changed = True
    seen: Set[Tuple[str, str]] = set()
    changed = True
    while changed:
        changed = False
        for f, defs in fns.items():
            for name, _, _, c, n, _, w in defs:
                if (f, name) not in done and (f, name) not in seen and _used(f, name, weak):
                    seen.add((f, name))
                    weak |= c | n | w
                    changed = True


def why(name: str, verdict: str, note: str) -> str:
    """Why a finding in function ``name`` is only info (lint/calls.py verdict ``named`` or ``unused``)."""
    if verdict == "named":
        return f"in {name}(), which the ZeRO-3 launch names but never calls directly: only if it runs there"
    if "." in name:
        return f"in {name}(), a method of {note}, a class nothing the ZeRO-3 launch runs uses: it never runs there"
    via = f"methods of {note}" if note else "methods of classes"
    return f"in {name}(), used only from {via} that nothing the ZeRO-3 launch runs uses: it never runs there"
