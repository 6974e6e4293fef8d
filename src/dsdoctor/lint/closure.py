"""The closure of :mod:`.calls`: from the uses of the code that runs, to a fixpoint, which top-level functions
and classes of the files an entry reaches can run, and the verdict on each."""

from __future__ import annotations

import os
from typing import AbstractSet, Dict, List, Set, Tuple

Fn = Tuple[str, int, int, Set[str], Set[str], bool, Set[str]]  # name, lines, calls, names, decorated, weak uses
Uses3 = Tuple[Set[str], Set[str], Set[str]]  # calls, names, weak uses
# a method: name, lines, the uses of its body, always run with its class (a dunder, a decorated method)
Method = Tuple[str, int, int, Set[str], Set[str], Set[str], bool]
# a top-level class: name, lines, (calls, names, weak uses) of its methods and bases, always live, its methods,
# the last names of its bases, the uses of its bases and nested classes alone
Cls = Tuple[str, int, int, Set[str], Set[str], Set[str], bool, List[Method], Tuple[str, ...], Uses3]
# getattr(obj, name) of a name known only at run time: any method of a class may run
ATTR_LOOKUP = "<getattr>"
# bases, class decorators and metaclasses that register nothing and call no method of the class
PLAIN = {"dataclass", "ABC", "ABCMeta", "object", "total_ordering", "Generic"}
# a use of code that may reach any class (import_module, a metaclass ...); DYNAMIC + a file (or a package's
# directory and a separator): one that reaches only the classes in that namespace (eval, globals(), getattr(module))
DYNAMIC = "<dynamic>"
# OFF + a use: one only in a branch that no ZeRO-3 launch takes (lint/option_values.py): it keeps nothing live, and a
# function only such branches call is "unused" (info), not dead
OFF = "<off>"
# file -> function name (``Class.method`` for a method) -> (verdict, first line, last line, note); the note of an
# "unused" verdict: the classes whose methods use it (a method: its class)
Verdicts = Dict[str, Dict[str, Tuple[str, int, int, str]]]


def verdicts(fns: Dict[str, List[Fn]], classes: Dict[str, List[Cls]], live: Dict[str, Set[str]],
              uses: Tuple[Set[str], Set[str], Set[str]], all_live: Tuple[Set[str], Set[str], Set[str]],
              unselected: AbstractSet[Tuple[str, str]] = frozenset(),
              unlooked: AbstractSet[Tuple[str, str]] = frozenset()) -> Verdicts:
    """Each function's verdict (and each method's, where its class is not live; the note of a registry's class no
    launch selects, ``unselected``, ends with "@", of one whose registry nothing running looks up, ``unlooked``,
    with "^")."""
    called, named, weak = uses
    off = {u[len(OFF):] for u in all_live[1] if u.startswith(OFF)}
    out: Verdicts = {}
    for f, defs in fns.items():
        out[f] = {}
        for name, first, last, _, _, decorated, _ in defs:
            verdict = "called" if _used(f, name, called) else \
                "named" if _used(f, name, named) or _used(f, name, weak) or decorated else "dead"
            note = ""
            if verdict == "dead" and _used(f, name, off):
                verdict, note = "unused", "~"
            elif verdict == "dead" and any(_used(f, name, u) for u in all_live):
                verdict = "unused"
                note = ", ".join(sorted({c[0] for g, cls in classes.items() for c in cls for m in c[7]
                                         if f"{c[0]}.{m[0]}" not in live[g] and any(_used(f, name, u) for u in m[3:6])}))
            out[f][name] = (verdict, first, last, note)
    for f, cls in classes.items():
        for c in cls:
            if c[0] not in live[f]:
                note = c[0] + ("@" if (f, c[0]) in unselected else "^" if (f, c[0]) in unlooked else "")
                out.setdefault(f, {}).update({f"{c[0]}.{m[0]}": ("unused", m[1], m[2], note) for m in c[7]})
            else:  # a method of a live class that nothing running calls (_close_methods)
                out.setdefault(f, {}).update({f"{c[0]}.{m[0]}": ("unused", m[1], m[2], c[0] + "#") for m in c[7]
                                              if f"{c[0]}.{m[0]}" not in live[f]})
    return out


def _used(f: str, name: str, uses: Set[str]) -> bool:
    return name in uses or f"{f}::{name}" in uses


def tie(fns: Dict[str, List[Fn]], classes: Dict[str, List[Cls]], *sets: Set[str]
         ) -> Tuple[Dict[str, List[Fn]], Dict[str, List[Cls]]]:
    """A use tied to a file's function that file does not define (a package re-exporting it, a file that does not
    parse, a class) matches the name anywhere: ``sets`` rewritten in place, the functions' and classes' uses in a
    copy."""
    defined = {f"{f}::{d[0]}" for f, defs in fns.items() for d in defs}

    def bare(u: str) -> str:  # the use without its OFF mark
        return u[len(OFF):] if u.startswith(OFF) else u

    def one(u: str) -> str:
        return u if "::" not in u or bare(u) in defined else u[:len(u) - len(bare(u))] + u.rsplit("::", 1)[1]

    def norm(uses: Set[str]) -> Set[str]:
        return {one(u) for u in uses}

    for s in sets:
        s |= norm(s)
        s -= {u for u in s if "::" in u and bare(u) not in defined}
    return ({f: [(n, a, b, norm(c), norm(m), d, norm(w)) for n, a, b, c, m, d, w in defs] for f, defs in fns.items()},
            {f: [(n, a, b, norm(c), norm(m), norm(w), al, [(mn, ma, mb, norm(x), norm(y), norm(z), mal)
                                                          for mn, ma, mb, x, y, z, mal in ms],
                  bs, (norm(own[0]), norm(own[1]), norm(own[2]))) for n, a, b, c, m, w, al, ms, bs, own in cls]
             for f, cls in classes.items()})


def close(fns: Dict[str, List[Fn]], classes: Dict[str, List[Cls]], called: Set[str], named: Set[str],
           weak: Set[str], every: bool = False, keyed: AbstractSet[Tuple[str, str]] = frozenset(),
           dynamic: bool = True) -> Dict[str, Set[str]]:
    """To a fixpoint: the uses of what runs (:func:`_close_fns`), and of each class that it uses in any way (or
    that is always live, or all of them where code may look a class up at run time, or ``every``; not a registry's
    class no launch selects, ``keyed`` (file, class), which a look-up by name builds only through its key): its methods
    run, all of them where the class derives from another library's (which may call any of them), else only those
    running code calls or names (:func:`_closed`). Returns, per file, its live classes and ``Class.method`` of
    their live methods. ``dynamic`` False: a look-up by a run-time name keeps no class live."""
    live: Dict[str, Set[str]] = {f: set() for f in classes}
    scopes = {f: _scopes(f) for f in classes}
    closed = set() if every else _closed(classes)
    while True:
        _close_fns(fns, called, named, weak)
        more = False
        for f, cls in classes.items():
            for c in cls:
                name = c[0]
                if name not in live[f] and (every or c[6] or dynamic and not scopes[f].isdisjoint(called) and (f, name) not in keyed
                                            or _used(f, name, called) or _used(f, name, named) or _used(f, name, weak)):
                    live[f].add(name)
                    whole = name not in closed
                    for mine, theirs in zip((called, named, weak), c[3:6] if whole else c[9]):
                        mine |= theirs
                    if whole:
                        live[f] |= {f"{name}.{m[0]}" for m in c[7]}
                    more = True
                if name in live[f] and name in closed:
                    more = _close_methods(live[f], c, called, named, weak) or more
        if not more:
            return live


def _close_methods(live: Set[str], c: Cls, called: Set[str], named: Set[str], weak: Set[str]) -> bool:
    """The methods of the live class ``c`` (one of :func:`_closed`) that now run: a dunder or decorated one, one
    that running code calls or names (``obj.load()``, ``self.load``, ``"load"``), any after a run-time getattr."""
    more = False
    anything = ATTR_LOOKUP in called
    for m in c[7]:
        key = f"{c[0]}.{m[0]}"
        if key not in live and (m[6] or anything or m[0] in called or m[0] in named or m[0] in weak):
            live.add(key)
            for mine, theirs in zip((called, named, weak), m[3:6]):
                mine |= theirs
            more = True
    return more


def _closed(classes: Dict[str, List[Cls]]) -> Set[str]:
    """The classes of the project whose bases are all plain (none, ``object``, ``ABC``) or such classes of the
    project, named once (no other library's class can call their methods), and that are not always live (a
    registry's decorator may)."""
    bases: Dict[str, Set[Tuple[str, ...]]] = {}
    for cls in classes.values():
        for c in cls:
            bases.setdefault(c[0], set()).add(c[8] if not c[6] else ("<always>",))

    def ok(name: str, depth: int) -> bool:
        if name in PLAIN:
            return True
        got = bases.get(name)
        return got is not None and len(got) == 1 and depth < 20 and all(ok(b, depth + 1) for b in next(iter(got)))
    return {n for n in bases if ok(n, 0)}


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
    if note == "~":
        return f"in {name}(), which the ZeRO-3 launch calls only in branches that the values it gives its options " \
            "never take: it never runs there"
    if "." in name and note.endswith("#"):
        return f"in {name}(), a method that nothing the ZeRO-3 launch runs calls: it never runs there"
    if "." in name and note.endswith("@"):
        return f"in {name}(), a method of {note[:-1]}, a class only a registry holds, under keys no ZeRO-3 launch's " \
            "configuration names: it never runs there"
    if "." in name and note.endswith("^"):
        return f"in {name}(), a method of {note[:-1]}, a class only a registry holds, and nothing the ZeRO-3 launch " \
            "runs looks that registry up: it never runs there"
    if "." in name:
        return f"in {name}(), a method of {note}, a class nothing the ZeRO-3 launch runs uses: it never runs there"
    via = f"methods of {note}" if note else "methods of classes"
    return f"in {name}(), used only from {via} that nothing the ZeRO-3 launch runs uses or calls: it never runs there"
