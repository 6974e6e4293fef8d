"""The verdicts of call-based reach (:mod:`.calls`) over the modules a project's ZeRO-3 launches import, kept in
the project model (:mod:`.launched`), with the option defaults the code of those launches declares
(:mod:`.defaults`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Optional, Set, Tuple

from .closure import why
from .defaults import merge
from .option_values import Values, launch_values
from .recipe import Recipe
from .registry_select import selection

if TYPE_CHECKING:
    from .discover import Found
    from .launched import _Entries

_RANK = {"dead": 0, "unused": 1, "named": 2, "called": 3}


def called(recipes: List[Recipe], entries: "_Entries", found: "Found") -> None:
    """Call-based reach (:mod:`.calls`) in the modules ZeRO-3 launches import: ``imported`` keeps, per module, the
    top-level functions a launch can run (the others' events are dead, lint/script/not_taken.py); those a launch
    only names, never calls, and the methods of classes it never uses and the functions only they use, go to
    ``named_only`` with the reason (their findings are info)."""
    best: Dict[str, Dict[str, Tuple[str, int, int, str]]] = {}
    own: Dict[str, Dict[str, Tuple[str, int, int, str]]] = {}  # the entries' verdicts on their own functions
    defaults: Dict[str, List[Dict[str, str]]] = {}
    listed: Dict[str, List[Set[str]]] = {}  # per file, the names each launch's verdicts list
    selects: Dict[str, Optional[str]] = {}
    values: Dict[str, Values] = {}
    callers: Dict[str, List[Recipe]] = {}  # per imported module, the ZeRO-3 launches that call a function of it
    for r in recipes:
        if r.stage != 3 or r.entry is None or not entries.uses(r.entry, "registers"):
            continue
        declared = entries.defaults(r.entry)
        for f in entries.reached(r.entry):
            defaults.setdefault(f, []).append(declared)
        if r.entry not in selects:  # what the entry's ZeRO-3 launches hand it, read once per entry
            selects[r.entry] = selection(recipes, r.entry, declared)
            values[r.entry] = launch_values(recipes, r.entry, declared)
        for f, fns in entries.calls(r.entry, selects[r.entry], values[r.entry]).items():
            listed.setdefault(f, []).append(set(fns))
            if f != r.entry and any(v[0] == "called" for v in fns.values()):
                callers.setdefault(f, []).append(r)
            if f == r.entry:
                _best(own.setdefault(f, {}), fns)
            elif f in found.imported:
                _best(best.setdefault(f, {}), fns)
    for merged in (best, own):  # a method one launch's verdicts leave out runs there (only those not run are listed)
        for f, fns in merged.items():
            for name, (_, first, last, _) in list(fns.items()):
                if "." in name and any(name not in names for names in listed[f]):
                    fns[name] = ("called", first, last, "")
    _callers_flags(recipes, callers, entries, found)
    found.zero3_defaults.update((f, merge(parts)) for f, parts in defaults.items())
    for f, fns in best.items():
        found.imported[f] = {name for name, (verdict, _, _, _) in fns.items() if verdict != "dead"}
        named = [(first, last, why(name, verdict, note)) for name, (verdict, first, last, note) in fns.items()
                 if verdict in ("named", "unused")]
        if named:
            found.named_only[f] = named
    for f, fns in own.items():  # "named" in an entry may be `fire.Fire(main)`: only its unused classes' methods
        unused = [(first, last, why(name, verdict, note)) for name, (verdict, first, last, note) in fns.items()
                  if verdict == "unused"]
        if unused and f not in best:  # a module another launch imports has that launch's verdicts
            found.named_only[f] = unused


def _best(have: Dict[str, Tuple[str, int, int, str]], fns: Dict[str, Tuple[str, int, int, str]]) -> None:
    """Keep, per function, the verdict that runs the most of it (called > named > unused > dead)."""
    for name, got in fns.items():
        if name not in have or _RANK[got[0]] > _RANK[have[name][0]]:
            have[name] = got


def _callers_flags(recipes: List[Recipe], callers: Dict[str, List[Recipe]], entries: "_Entries", found: "Found") -> None:
    """A module some ZeRO-3 launches call into and others only import (a package ``__init__`` importing it for
    another name): the options, and the launch the context names, are those of the launches that call it; one that
    never runs its functions gates none of its problems (``--load_in_8bit`` passed to another entry script)."""
    from .launch_reach import every_passes, launch_source, passes

    for f, calling in callers.items():
        mine = {id(r) for r in calling}
        others = {id(r) for r in recipes if r.stage == 3 and r.entry is not None and f in entries.reached(r.entry)} - mine
        if not others or not found.launches.get(f, (None, ""))[0]:
            continue
        flags: Dict[str, Set[str]] = {}
        every: Dict[str, Set[str]] = {}
        for r in calling:
            passes(flags, every, f, r.flags)
        every_passes(flags, every)
        found.zero3_flags[f] = flags[f]
        found.reach_values[f] = [frozenset(r.flags) for r in recipes if r.entry is not None and r.stage in (3, None)
                                 and id(r) not in others and f in entries.reached(r.entry)]
        found.launches[f] = (True, launch_source(calling[0], f))
