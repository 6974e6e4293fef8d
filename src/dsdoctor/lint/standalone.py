"""Standalone scripts that never run under ZeRO-3 (issue 18: offline conversion and merge tools).

A Python file no project file imports is the entry of whatever process runs it (``python merge_lora.py``, or any
launcher). ZeRO-3 exists in that process only if something it runs registers it: DeepSpeed itself
(``deepspeed.initialize``, ``zero.Init``), accelerate, TRL, a Trainer or its arguments, an ``HfDeepSpeedConfig``.
Where neither the script nor any project file it imports names one of those, its loads and saves are plain
single-process ones, whatever configs the project ships beside it. Only files that run code at top level (a
``__main__`` block, a bare call) count: a module a registry imports by name looks unimported and runs nothing itself.
"""

from __future__ import annotations

import re
from typing import Callable, Dict, Iterable, Set

from ..knowledge.transformers import TRL_CONFIGS
from ..literal_gate import gated

NEVER = ("a standalone script (no project file imports it) that registers DeepSpeed nowhere it reaches (no deepspeed, "
         "accelerate, TRL, Trainer, TrainingArguments or HfDeepSpeedConfig): it never runs under ZeRO-3")
# wider than lint/launched.py's _REGISTERS on purpose (any *Trainer / *TrainingArguments name, zero.Init): a file
# that may register keeps its findings
# (searched, never matched whole: `Trainer\b` finds every `\w*Trainer\b`, without trying `\w*` at each offset)
_REGISTERS = gated(r"^[ \t]*(?:from|import)[ \t]+(?:deepspeed|accelerate|trl)\b|Trainer\b|TrainingArguments\b|"
                   r"\bHfDeepSpeedConfig\b|\bzero\.Init\b|\b" + TRL_CONFIGS + r"\b", re.M)
_RUNS = re.compile(r"^if[ \t]+__name__[ \t]*==[ \t]*['\"]__main__['\"]|^[A-Za-z_][\w.]*[ \t]*\(", re.M)


def _registers(path: str, read: Callable[[str], str], memo: Dict[str, bool]) -> bool:
    if path not in memo:
        memo[path] = _REGISTERS.search(read(path)) is not None
    return memo[path]


def never_registered(graph: Dict[str, Set[str]], reached: Callable[[str], Set[str]],
                     read: Callable[[str], str], skip: Iterable[str] = ()) -> Dict[str, str]:
    """File -> why, for the scripts of the import ``graph`` that no project file imports, that run code at top level
    and that register DeepSpeed nowhere they reach (``skip``: files already decided)."""
    imported = set().union(*graph.values()) if graph else set()
    done = set(skip)
    registers: Dict[str, bool] = {}
    out: Dict[str, str] = {}
    for f in sorted(graph):
        if f in imported or f in done or not _RUNS.search(read(f)):
            continue
        if not any(_registers(g, read, registers) for g in reached(f)):
            out[f] = NEVER
    return out
