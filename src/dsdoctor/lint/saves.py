"""Where a Python file calls a model save (for the project model, lint/launched.py: does a launch save?), and
where the project consolidates ZeRO checkpoints with zero_to_fp32.py."""

from __future__ import annotations

import os
import re
from typing import Dict, List, Optional

from .discover import _PY_SAVE, _read

_DEF = re.compile(r"(?:async[ \t]+)?def[ \t]+(\w+)")
_SAVE_METHODS = {"save_model", "_save", "save_pretrained", "save_16bit_model"}


def _owner(lines: List[str], at: int) -> Optional[str]:
    """The name of the innermost ``def`` enclosing line ``at`` (None: module or class level), by indentation."""
    level = len(lines[at]) - len(lines[at].lstrip())
    for line in reversed(lines[:at]):
        body = line.lstrip()
        indent = len(line) - len(body)
        if not body or body.startswith("#") or indent >= level:
            continue
        m = _DEF.match(body)
        if m:
            return m.group(1)
        level = indent
        if level == 0:
            return None
    return None


def save_lines(text: str) -> List[int]:
    """The lines (1-based) where the file calls a model save (``_PY_SAVE``) outside an override of a save method:
    a Trainer subclass's ``save_model`` calling another save runs only when something saves, no save of its own. A
    commented-out call (``# model.save_pretrained(...)``) is none."""
    out: List[int] = []
    lines: Optional[List[str]] = None
    for m in _PY_SAVE.finditer(text):
        lines = text.splitlines() if lines is None else lines
        at = text.count("\n", 0, m.start())
        if "#" in text[text.rfind("\n", 0, m.start()) + 1:m.start()] and lines[at].lstrip().startswith("#"):
            continue
        if _owner(lines, at) not in _SAVE_METHODS:
            out.append(at + 1)
    return out


_ZERO_TO_FP32 = re.compile(r"\bzero_to_fp32\b")


def zero_to_fp32(root: str, kinds: Dict[str, str]) -> str:
    """The first README or shell script of the project (``kinds``: its files) that runs or names zero_to_fp32.py
    (``Found.zero_to_fp32``), "" when none: the project's workflow consolidates the ZeRO checkpoint a save writes
    when 16-bit gathering is off."""
    from .markdown import markdown_files

    shells = sorted(p for p, k in kinds.items() if k == "shell")
    for path in [*markdown_files(root, (os.path.dirname(p) or "." for p in kinds)), *shells]:
        if _ZERO_TO_FP32.search(_read(path)):
            return path
    return ""
