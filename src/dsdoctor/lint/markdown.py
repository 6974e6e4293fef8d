"""README-like Markdown of a project: the files (:func:`markdown_files`) and the fenced shell code blocks that may
launch something (:func:`code_blocks`), read as launch recipes by :mod:`.recipes`."""

from __future__ import annotations

import os
import re
from typing import Iterator, List, Tuple

_FENCE = re.compile(r"^[ \t]*(```|~~~)[ \t]*([\w+-]*)[^\n]*$", re.M)
_SHELL_LANGS = ("", "bash", "sh", "shell", "console", "zsh", "shell-session")
LAUNCH_WORD = re.compile(r"deepspeed|torchrun|accelerate|python|torch\.distributed")


def _inside(path: str, root: str) -> bool:
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
    return rel == "." or not rel.startswith("..")


def code_blocks(text: str) -> List[Tuple[int, str]]:
    """(first line, text) of each shell (or unlabelled) fenced code block of a Markdown file that may launch
    something; ``$ `` prompts removed."""
    out: List[Tuple[int, str]] = []
    fences = list(_FENCE.finditer(text))
    i = 0
    while i + 1 < len(fences):
        opening, closing = fences[i], fences[i + 1]
        if closing.group(1) != opening.group(1) or closing.group(2):  # not a closing fence: skip the opening
            i += 1
            continue
        i += 2
        block = text[opening.end() + 1:closing.start()]
        if opening.group(2).lower() in _SHELL_LANGS and LAUNCH_WORD.search(block):
            block = re.sub(r"(?m)^([ \t]*)\$ ", r"\1", block)
            out.append((text.count("\n", 0, opening.end()) + 2, block))
    return out


def markdown_files(root: str, dirs: "Iterator[str]") -> List[str]:
    """README-like Markdown files in ``root``, the given directories (where the project's files are) and the
    directories between them and ``root`` (a sub-project's README above its ``src/``)."""
    out = []
    root = os.path.normpath(root)
    wanted = {root}
    for d in set(dirs):
        d = os.path.normpath(d)
        while d not in wanted and _inside(d, root):
            wanted.add(d)
            d = os.path.dirname(d) or "."
    for d in sorted(wanted):
        try:
            names = sorted(os.listdir(d))
        except OSError:
            continue
        out += [os.path.normpath(os.path.join(d, n)) for n in names if n.lower().endswith(".md")]
    return out
