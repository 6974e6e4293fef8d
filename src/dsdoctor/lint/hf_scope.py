"""Where Transformers does not see ZeRO-3 in a process that runs under it (issue 18).

Transformers' ZeRO-3 guards (``is_deepspeed_zero3_enabled()``: the ValueError for ``low_cpu_mem_usage=True``) read a
weak reference to the live ``HfDeepSpeedConfig``. TrainingArguments, the Trainer, accelerate and TRL keep one for the
whole run; a process that trains with ``deepspeed.initialize`` alone (DeepSpeed-Chat's layout) registers ZeRO-3 with
Transformers only through the ``HfDeepSpeedConfig`` objects it makes. Where every one of them is a local of a
function (``dschf = HfDeepSpeedConfig(ds_config)``), Transformers sees ZeRO-3 only while such a function runs: in the
files it, or what it calls, reaches. A load in any other file of the process meets no guard; in a process that makes
no HfDeepSpeedConfig at all (a fork that dropped it, keeping the import), none anywhere. accelerate before 1.0
keeps one only under ``zero3_init_flag`` true: a process that ``accelerate launch`` starts with the flag off is read
as one without accelerate (:func:`record_unseen` keeps both readings; lint picks by the accelerate the project pins).

Read conservatively: a lasting registration anywhere in the process (those imports, an ``HfDeepSpeedConfig`` kept at
module level, in an attribute, returned or declared global, or a file that does not parse) leaves every file seen.
A file that defines a name a holder function calls is reached from it, and what that file calls in turn; names are
compared, not resolved.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Callable, Dict, Iterable, List, Optional, Set, Tuple

from ..knowledge import accelerate as K
from ..literal_gate import GatedPattern, gated

if TYPE_CHECKING:
    from .found import Found
    from .recipe import Recipe

# a registration that lasts the whole run: the Trainer's arguments, accelerate, TRL (lint/launched.py's _REGISTERS
# without ``import deepspeed`` and HfDeepSpeedConfig, read below)
_LASTING = gated(r"^[ \t]*(?:from|import)[ \t]+(?:accelerate|trl)\b|\bTrainer\b|\bTrainingArguments\b|"
                 r"\bHfArgumentParser\b|\bTrlParser\b", re.M)
# the same without accelerate: under `accelerate launch` with zero3_init_flag false, accelerate before 1.0 registers
# nothing (knowledge/accelerate.py ACCELERATE_REGISTERS_WITHOUT_INIT_FLAG_FROM)
_LASTING_BUT_ACCELERATE = gated(r"^[ \t]*(?:from|import)[ \t]+trl\b|\bTrainer\b|\bTrainingArguments\b|"
                                r"\bHfArgumentParser\b|\bTrlParser\b", re.M)
_DEFINED = re.compile(r"^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+(\w+)", re.M)
_HF = "HfDeepSpeedConfig"


def _called(node: ast.AST) -> Set[str]:
    """The names ``node`` calls (``f()``, ``x.f()``: f)."""
    out: Set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            if isinstance(n.func, ast.Name):
                out.add(n.func.id)
            elif isinstance(n.func, ast.Attribute):
                out.add(n.func.attr)
    return out


def _is_hf(call: ast.AST) -> bool:
    f = call.func if isinstance(call, ast.Call) else None
    return isinstance(f, ast.Name) and f.id == _HF or isinstance(f, ast.Attribute) and f.attr == _HF


def _holder_calls(text: str) -> Optional[Tuple[int, Set[str]]]:
    """How many HfDeepSpeedConfig objects the file makes, all locals of functions, and the names those functions
    call; None when one is kept beyond its function (or the file does not parse)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    calls = [n for n in ast.walk(tree) if _is_hf(n)]
    funcs = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    out: Set[str] = set()
    for call in calls:
        owner = min((f for f in funcs if any(n is call for n in ast.walk(f))),
                    key=lambda f: (f.end_lineno or f.lineno) - f.lineno, default=None)
        if owner is None:
            return None  # made at module level: kept for the run
        local = _local_name(owner, call)
        if local is None:
            return None
        out |= _called(owner)
    return len(calls), out


def _local_name(owner: ast.AST, call: ast.AST) -> Optional[str]:
    """The plain name ``call``'s object is assigned to in ``owner``, when nothing keeps it beyond the function
    (no ``global`` / ``nonlocal`` of it, not returned or yielded, not stored elsewhere); else None."""
    name = None
    for n in ast.walk(owner):
        if isinstance(n, ast.Assign) and n.value is call and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            name = n.targets[0].id
    if name is None:
        return None
    for n in ast.walk(owner):
        if isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names:
            return None
        if isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom)) and n.value is not None and \
                any(isinstance(m, ast.Name) and m.id == name for m in ast.walk(n.value)):
            return None
        if isinstance(n, ast.Assign) and any(isinstance(m, ast.Name) and m.id == name for m in ast.walk(n.value)) \
                and not all(isinstance(t, ast.Name) for t in n.targets):
            return None  # stored into an attribute or a container
    return name


def unseen(files: Iterable[str], read: Callable[[str], str], lasting: GatedPattern = _LASTING) -> Tuple[Set[str], bool]:
    """Of the files one process runs, those in which Transformers never sees ZeRO-3 (see the module's docstring),
    and whether the process makes any HfDeepSpeedConfig at all; no files when the registration may last
    (``lasting`` says what registers it for the whole run)."""
    texts: Dict[str, str] = {f: read(f) for f in sorted(files)}
    if any(lasting.search(t) for t in texts.values()):
        return set(), True
    called: Set[str] = set()
    inside: List[str] = []
    for f, text in texts.items():
        if _HF in text:
            got = _holder_calls(text)
            if got is None:
                return set(), True
            if got[0]:
                called |= got[1]
                inside.append(f)
    rest = [f for f in texts if f not in inside]
    grew = True
    while grew and inside:  # what the holders reach, and what that reaches in turn (names compared)
        grew = False
        for f in list(rest):
            if called & set(_DEFINED.findall(texts[f])):
                rest.remove(f)
                try:
                    called |= _called(ast.parse(texts[f]))
                except (SyntaxError, ValueError, RecursionError):
                    return set(), True
                grew = True
    return set(rest), bool(inside)


def unseen_by_launches(recipes: Iterable["Recipe"], reached: Callable[[str], Set[str]],
                       read: Callable[[str], str], old_accelerate: bool = False) -> Dict[str, str]:
    """File -> why, for the files in which Transformers sees ZeRO-3 under none of the stage-3 launches reaching
    them. ``old_accelerate``: as under accelerate before 1.0, whose ``accelerate launch`` with zero3_init_flag false
    registers nothing (only TrainingArguments, TRL or the script's own HfDeepSpeedConfig would)."""
    verdict: Dict[str, Optional[str]] = {}
    done: Dict[Tuple[str, bool], Tuple[Set[str], bool]] = {}  # (entry, flag off) -> unseen(): many launches, one entry
    for r in recipes:
        if r.stage != 3 or r.entry is None:
            continue
        files = reached(r.entry)
        off = old_accelerate and r.launcher == "accelerate" and r.zero_init is False
        if (r.entry, off) not in done:
            done[r.entry, off] = unseen(files, read, _LASTING_BUT_ACCELERATE if off else _LASTING)
        out, holders = done[r.entry, off]
        why = _why(r.entry, holders, off)
        for f in files:
            if f not in out:
                verdict[f] = None
            elif verdict.get(f, "") is not None:
                verdict[f] = why
    return {f: why for f, why in verdict.items() if why}


def record_unseen(found: "Found", recipes: List["Recipe"], reached: Callable[[str], Set[str]],
                  read: Callable[[str], str]) -> None:
    """The files where Transformers does not see ZeRO-3 (:func:`unseen_by_launches`), as accelerate from 1.0 and
    before 1.0 would run the launches: lint/__init__.py picks one by the accelerate the project pins."""
    found.hf_unseen.update(unseen_by_launches(recipes, reached, read))
    found.hf_unseen_old_accelerate.update(unseen_by_launches(recipes, reached, read, True))


def _why(entry: str, holders: bool, off: bool) -> str:
    if holders:
        return (f"the ZeRO-3 launch of {entry} registers ZeRO-3 with Transformers only through HfDeepSpeedConfig "
                "objects local to functions that do not reach this file")
    if off:
        return (f"the ZeRO-3 launch of {entry} runs accelerate with zero3_init_flag false, and accelerate before "
                f"{K.ACCELERATE_REGISTERS_WITHOUT_INIT_FLAG_FROM} registers ZeRO-3 with Transformers only when that "
                "flag is true; no TrainingArguments, Trainer, TRL or HfDeepSpeedConfig does either")
    return (f"the ZeRO-3 launch of {entry} never registers ZeRO-3 with Transformers: no TrainingArguments, Trainer, "
            "accelerate, TRL or HfDeepSpeedConfig")
