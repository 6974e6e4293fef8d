"""The Python of a notebook exported as a ``.py`` file: Databricks' notebook source (``# MAGIC`` cells between
``# COMMAND ----------`` lines) and IPython shell escapes (``!deepspeed ...``, ``%pip``) left in its cells, which
no Python parser reads. A leaf module: the walk (:mod:`.discover`), the script reader and the notebook launches
(:mod:`.notebook`) read it."""

from __future__ import annotations

import re
from typing import List

DATABRICKS = "# Databricks notebook source"
MAGIC = "# MAGIC"
_ESCAPE = re.compile(r"^[ \t]*[!%]")
_BANG = re.compile(r"![A-Za-z]")  # a shell escape's start, found fast; its line's indentation tested apart


def comment_escapes(text: str) -> str:
    """``text`` with its IPython shell escapes and magics (``!deepspeed ...`` with its ``\\`` continuation lines,
    ``%pip ...``) made comments, every line's length kept: the Python of a notebook exported as a ``.py`` file."""
    out: List[str] = []
    going = False
    for line in text.split("\n"):
        if going or _ESCAPE.match(line):
            going = line.rstrip().endswith("\\")
            at = len(line) - len(line.lstrip())
            line = line[:at] + "#" + line[at + 1:] if line.strip() else line
        out.append(line)
    return "\n".join(out)


def _has_escape(text: str) -> bool:
    """Does a line of ``text`` open (after blanks) with a shell escape, ``!cmd``?"""
    return any(not text[text.rfind("\n", 0, m.start()) + 1:m.start()].strip(" \t") for m in _BANG.finditer(text))


def python_text(text: str) -> str:
    """The Python of a ``.py`` notebook export: its ``# MAGIC`` lines and shell escapes blank (lines kept); any
    other file as it is."""
    if not text.startswith(DATABRICKS) and not _has_escape(text):
        return text
    lines = comment_escapes(text).split("\n")
    raw = text.split("\n")
    return "\n".join("" if a != b or b.startswith(MAGIC) else b for a, b in zip(lines, raw))
