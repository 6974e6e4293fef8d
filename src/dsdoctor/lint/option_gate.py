"""A config option the launch's code reads only when another option names DeepSpeed as the engine.

An entry that trains with several engines reads its ``--deepspeed_config`` only on the DeepSpeed path: ``if
args.train_engine == "deepspeed": with open(args.deepspeed_config) as fin: ...``, ``deepspeed.initialize(args=args)``
there too. A launch that passes ``--train_engine torch_ddp`` hands the option a path the run never opens: a missing
file there stops nothing (lint/launch/launch_config_missing.py says nothing of it). Read with the lines of the files
the entry runs (:func:`gated_by`): every line that reads the option (``.deepspeed_config`` outside an
``add_argument``) or starts DeepSpeed (``deepspeed.initialize(``, which reads it from ``args``) must sit in the body of
an ``if`` / ``elif`` testing one option against a literal (``X.flag == "value"``), or in the ``else:`` of such an
``if`` (any other value: CosyVoice's ``if args.train_engine == "torch_ddp": ... else: open(args.deepspeed_config)``),
the same option each time; a read anywhere else (a function's top level, another ``else:``) keeps the config read.
"""

from __future__ import annotations

import re
from typing import Dict, Iterable, List, Optional, Set, Tuple

from .discover import _read
from .entry_options import given as given_values

_GATE = re.compile(r"^[ \t]*(?:el)?if[ \t]+\(?[ \t]*(?:[A-Za-z_][\w.]*\.)?([A-Za-z_]\w*)[ \t]*==[ \t]*[\"']([\w.+-]+)[\"']"
                   r"[ \t]*\)?[ \t]*:")
_STOP = re.compile(r"^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]|^[ \t]*else[ \t]*:")  # no gate above this
_ELSE = re.compile(r"^[ \t]*else[ \t]*:")
_INIT = "deepspeed.initialize("


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _gate_of(lines: List[str], i: int) -> Optional[Tuple[str, str]]:
    """The innermost ``if X.flag == "v":`` whose body holds line ``i`` ("v"), or whose ``else:`` does ("!v": any
    other value); None where a ``def`` / ``class`` / another ``else`` comes first (or the module's top level)."""
    n = _indent(lines[i])
    for j in range(i - 1, -1, -1):
        line = lines[j]
        if not line.strip() or line.lstrip().startswith("#") or _indent(line) >= n:
            continue
        m = _GATE.match(line)
        if m is not None:
            return m.group(1), m.group(2)
        if _ELSE.match(line):
            head = _head_of(lines, j)
            m = _GATE.match(head) if head is not None and head.lstrip().startswith("if") else None
            return (m.group(1), "!" + m.group(2)) if m is not None else None
        if _STOP.match(line):
            return None
        n = _indent(line)
        if n == 0:
            return None
    return None


def _head_of(lines: List[str], j: int) -> Optional[str]:
    """The ``if`` / ``elif`` line the ``else:`` at line ``j`` closes (the nearest line above at its indent)."""
    n = _indent(lines[j])
    for k in range(j - 1, -1, -1):
        line = lines[k]
        if line.strip() and not line.lstrip().startswith("#") and _indent(line) <= n:
            return line if _indent(line) == n else None
    return None


def gated_by(files: Iterable[str], option: str) -> Optional[Tuple[str, Set[str]]]:
    """(flag, values) where every line of ``files`` that reads ``--option`` or starts DeepSpeed is in the body of an
    ``if`` testing that one flag against one of the values; None where some read is not so gated, or none is seen."""
    read = re.compile(r"\.%s\b" % re.escape(option))
    flag: Optional[str] = None
    values: Set[str] = set()
    for f in sorted(files):
        text = _read(f)
        if option not in text and _INIT not in text:
            continue
        lines = text.split("\n")
        for i, line in enumerate(lines):
            if line.lstrip().startswith("#") or not (_INIT in line or read.search(line) and "add_argument" not in line):
                continue
            gate = _gate_of(lines, i)
            if gate is None or flag is not None and gate[0] != flag:
                return None
            flag = gate[0]
            values.add(gate[1])
    return (flag, values) if flag is not None else None


def unread(option: str, files: Iterable[str], flags: Set[str], defaults: Dict[str, str]) -> str:
    """Why a launch passing ``flags`` (``name=value`` among them; ``defaults``: the entry's option defaults) never reads
    ``--option`` in the ``files`` it runs (:func:`gated_by`); "" where it may."""
    gate = gated_by(files, option)
    if gate is None:
        return ""
    flag, values = gate
    given = given_values(flags, flag)
    if not given and flag not in flags and defaults.get(flag):
        given = {defaults[flag]}
    if len(given) != 1:
        return ""
    value = next(iter(given))
    if value in values or any(v.startswith("!") and v[1:] != value for v in values):
        return ""
    when = " or ".join(f"not {v[1:]}" if v.startswith("!") else v for v in sorted(values))
    return f"the code reads --{option} only where {flag} is {when}; the launch gives {value}"
