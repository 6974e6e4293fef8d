"""Shell commands of Jupyter notebooks: the launches a project gives only in a notebook's code cells.

A notebook runs a launch as a shell escape: ``!deepspeed --num_gpus=8 scripts/run.py --deepspeed configs/z3.json``
(with ``\\`` continuation lines), a ``%%bash`` / ``%%sh`` / ``%%script bash`` cell, or after ``%cd dir``. Its
working directory is the notebook's own. :func:`shell_cells` gives each code cell's shell text (its other lines
blanked, so line numbers hold) with the line of the ``.ipynb`` file where the cell's source starts, for
:func:`.recipes.shell_recipes` to read as a script's. Bounded: the notebooks of the directories lint reads (and
those between them and the root), at most :data:`MAX_NOTEBOOKS`, each at most :data:`MAX_BYTES`, and only one
that names a launcher is parsed.
"""

from __future__ import annotations

import json
import os
import re
from typing import Iterable, List, Tuple

from .discover import _read
from .markdown import LAUNCH_WORD, files_between
from .notebook_text import DATABRICKS, MAGIC

MAX_NOTEBOOKS = 40
MAX_BYTES = 2 * 2**20
_CELL_MAGIC = re.compile(r"^%%?(?:bash|sh|script[ \t]+(?:ba)?sh)\b")  # Databricks: %sh
_SOURCE_KEY = re.compile(r'^[ \t]*"source"[ \t]*:[ \t]*\[?', re.M)
_LAUNCHES = re.compile(r"\b(?:deepspeed|torchrun|accelerate[ \t]+launch|torch\.distributed\.(?:run|launch))\b")


def notebook_files(root: str, dirs: Iterable[str]) -> List[str]:
    """The ``.ipynb`` files of ``root``, of the directories ``dirs`` and of those between them and ``root``;
    sorted, at most :data:`MAX_NOTEBOOKS`."""
    return files_between(root, dirs, ".ipynb")[:MAX_NOTEBOOKS]


def _shell(lines: List[str]) -> List[str]:
    """One cell's lines as shell: a ``%%bash`` cell whole; else its ``!`` lines (and their continuation lines)
    and ``%cd`` lines, the rest blank."""
    if lines and _CELL_MAGIC.match(lines[0]):
        return [""] + lines[1:]
    out: List[str] = []
    going = False
    for line in lines:
        s = line.lstrip()
        if s.startswith("!") or going:
            out.append(s[1:] if s.startswith("!") else line)
            going = line.rstrip().endswith("\\")
        elif s.startswith("%cd "):
            out.append(s[1:])
        else:
            out.append("")
    return out


def shell_cells(path: str) -> List[Tuple[int, str]]:
    """(first line in the file, shell text) of each code cell of the notebook ``path`` that launches something;
    [] for a notebook too large, not JSON, or naming no launcher."""
    try:
        if os.path.getsize(path) > MAX_BYTES:
            return []
    except OSError:
        return []
    raw = _read(path, MAX_BYTES)
    if not _LAUNCHES.search(raw):
        return []
    try:
        cells = json.loads(raw).get("cells", [])
    except (ValueError, AttributeError, RecursionError):
        return []
    # the line of each cell's first source line: the one after `"source": [`, one source line a line
    starts = [raw.count("\n", 0, m.end()) + 1 + m.group(0).endswith("[") for m in _SOURCE_KEY.finditer(raw)]
    if len(starts) != len(cells):  # a notebook not written one source line a line: cell lines unknown
        starts = [1] * len(cells)
    out: List[Tuple[int, str]] = []
    for cell, start in zip(cells, starts):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        src = cell.get("source", "")
        text = "".join(src) if isinstance(src, list) else str(src)
        if not LAUNCH_WORD.search(text):
            continue
        shell = "\n".join(_shell(text.split("\n")))
        if shell.strip() and _LAUNCHES.search(shell):
            out.append((start, shell))
    return out


# ---------------------------------------------------------------------------------------------------
# notebooks exported as .py files (Databricks' "notebook source"): cells between `# COMMAND ----------` lines,
# magic cells as `# MAGIC` comment lines (`# MAGIC %sh`, `# MAGIC !deepspeed ...`), and IPython shell escapes
# (`!deepspeed ...`) left in the Python cells, which no Python parser reads (lint/notebook_text.py)
# ---------------------------------------------------------------------------------------------------

_DB_CELL = re.compile(r"^# COMMAND -+[ \t]*$")


def py_notebook_cells(path: str) -> List[Tuple[int, str]]:
    """(first line, shell text) of each cell of a Databricks notebook exported as ``path`` that launches something:
    a ``%sh`` magic cell, the ``!`` lines of a Python cell or of a ``# MAGIC`` cell; [] for any other file."""
    raw = _read(path, MAX_BYTES)
    if not raw.startswith(DATABRICKS) or not _LAUNCHES.search(raw):
        return []
    raw_lines = raw.split("\n")
    lines = [ln[len(MAGIC):].lstrip(" ") if ln.startswith(MAGIC) else ln for ln in raw_lines]
    ends = [i for i, ln in enumerate(raw_lines) if _DB_CELL.match(ln)] + [len(lines)]
    out: List[Tuple[int, str]] = []
    start = 0
    for end in ends:
        shell = "\n".join(_shell(lines[start:end]))
        if shell.strip() and _LAUNCHES.search(shell):
            out.append((start + 1, shell))
        start = end + 1
    return out
