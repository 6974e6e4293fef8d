"""What the launches that reach each Python file say of it: its ZeRO-3 context (:func:`contexts`), the options
(per file, any launch or the ZeRO-3 ones, with ``EVERY`` marks for those every launch passes) and whether every
ZeRO-3 launch turns accelerate's zero.Init off. Read by :mod:`.launched` into the project model."""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Optional, Set, Tuple

from .entry_options import EVERY
from .recipe import Recipe

if TYPE_CHECKING:
    from .launched import _Entries


VIA = ", whose imports reach this file"


def launch_source(r: Recipe, f: str) -> str:
    """What says ``f`` runs under ``r``'s ZeRO stage: the stage's source and the launch (through its imports)."""
    return f"{r.stage_source}, the launch of {r.entry}{'' if f == r.entry else VIA}"


def zero_init_off(recipes: List[Recipe], entries: "_Entries") -> Set[str]:
    """The files that every ZeRO-3 launch reaching them runs with accelerate's zero3_init_flag false."""
    on: Set[str] = set()
    off: Set[str] = set()
    for r in recipes:
        if r.stage == 3 and r.entry is not None:
            (off if r.zero_init is False else on).update(entries.reached(r.entry))
    return off - on


def passes(flags: Dict[str, Set[str]], every: Dict[str, Set[str]], f: str, passed: Set[str]) -> None:
    flags.setdefault(f, set()).update(passed)
    every[f] = every[f] & passed if f in every else set(passed)


def every_passes(flags: Dict[str, Set[str]], every: Dict[str, Set[str]]) -> None:
    for f, names in every.items():  # an `else` of `if args.x:` never runs where every launch passes --x (flags.py)
        flags[f].update(EVERY + x for x in names if "=" not in x)


def off_contexts(recipes: List[Recipe], entries: "_Entries") -> Dict[str, Tuple[Optional[bool], str]]:
    """The files that launches naming DeepSpeed settings they never use (``Recipe.off``: ``accelerate launch
    --multi_gpu`` with a DeepSpeed YAML, a Python config with ``deepspeed = False``) start: off ZeRO-3, with why
    (the project model keeps a DeepSpeed launch's context where one reaches them too)."""
    out: Dict[str, Tuple[Optional[bool], str]] = {}
    for r in recipes:
        if r.off and r.entry is not None and r.entry in entries.graph:
            for f in entries.reached(r.entry):
                out.setdefault(f, (False, r.off))
    return out


def launch_flags(recipes: List[Recipe], entries: "_Entries") -> Dict[str, Set[str]]:
    """Per Python file, the options that the launches reaching it pass, DeepSpeed or not and whatever their stage:
    what gates a problem that needs no ZeRO-3 (lint/script/flags.py)."""
    flags: Dict[str, Set[str]] = {}
    every: Dict[str, Set[str]] = {}
    for r in recipes:
        assert r.entry is not None
        for f in entries.reached(r.entry):
            passes(flags, every, f, set(r.flags))
    every_passes(flags, every)
    return flags


def contexts(recipes: List[Recipe], entries: "_Entries", imported: Dict[str, Optional[Set[str]]],
              flags: Dict[str, Set[str]], stages: Dict[str, Tuple[int, str]]) -> Dict[str, Tuple[Optional[bool], str]]:
    """Each Python file -> (True, why) if a ZeRO-3 recipe reaches it, (False, why) if no recipe of unknown stage
    reaches it either; files a recipe of unknown stage reaches are left to the project-wide context. The modules
    of a ZeRO-3 launch whose files register DeepSpeed (Trainer, accelerate, deepspeed ...) go to ``imported``:
    they run in a ZeRO-3 process even when they do not train themselves, with the names the launch takes from
    them (the functions it can call; None: any). ``flags``: per file, the options its ZeRO-3 launches pass.
    ``stages``: per file every recipe reaching it runs at a known stage 0-2, (the first one's stage, why)."""
    zero3: Dict[str, str] = {}
    unknown: Set[str] = set()
    lower: Dict[str, str] = {}
    seen: Dict[str, List[Tuple[int, str]]] = {}  # file -> (stage, why) of each recipe of known stage reaching it
    every: Dict[str, Set[str]] = {}  # file -> the options every ZeRO-3 launch reaching it passes
    for r in recipes:
        assert r.entry is not None
        registers = entries.uses(r.entry, "registers")
        for f in entries.reached(r.entry):
            via = "" if f == r.entry else VIA
            if r.stage is not None:
                seen.setdefault(f, []).append((r.stage, f"{r.stage_source}{via}"))
            if r.stage == 3 and (registers or f == r.entry):
                zero3.setdefault(f, launch_source(r, f))
                passes(flags, every, f, r.flags)
                if f != r.entry:
                    took = entries.taken(r.entry, f)
                    old = imported.get(f, set())
                    imported[f] = None if took is None or old is None else old | took
            elif r.stage is None:
                unknown.add(f)
            elif r.stage == 3:
                lower.setdefault(f, f"{r.entry}, the ZeRO-3 launch that imports it, never registers DeepSpeed")
            else:
                lower.setdefault(f, f"ZeRO stage {r.stage} ({r.stage_source}){via}")
    every_passes(flags, every)
    out: Dict[str, Tuple[Optional[bool], str]] = {}
    for f in entries.graph:
        if f in zero3:
            out[f] = (True, zero3[f])
        elif f in unknown:
            continue
        else:
            out[f] = (False, lower.get(f, "no DeepSpeed launch of the project reaches it"))
            if f in seen and all(s in (0, 1, 2) for s, _ in seen[f]):
                stages[f] = seen[f][0]
    return out
