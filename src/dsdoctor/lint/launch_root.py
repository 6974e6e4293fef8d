"""The directory a launch script's relative paths may be written from besides its own (a script linted alone), and
the git submodules of a project that are not checked out (what they hold is unknown)."""

from __future__ import annotations

import os
import re
from typing import List

from .discover import is_project
from .reading import read_text


def project_root(path: str) -> str:
    """The directory the script's paths may be written from besides its own: the current directory when the
    script is under it (``lint .``, ``lint scripts/run.sh``), else the nearest directory above it that is a git
    work tree's root or has a pyproject.toml, else its own directory."""
    if not os.path.isabs(path) and not os.path.normpath(path).startswith(".."):
        return "."
    d = os.path.abspath(os.path.dirname(path) or ".")
    while not is_project(d):
        if os.path.dirname(d) == d:
            return os.path.dirname(path) or "."
        d = os.path.dirname(d)
    return d


def unfetched_submodules(root: str) -> List[str]:
    """The paths ``.gitmodules`` declares under ``root`` that are missing or empty in the work tree (a clone
    without ``--recursive``): what they hold is unknown, so a file said to be missing may be there."""
    text = read_text(os.path.join(root, ".gitmodules"), 1 << 20)
    if not text:
        return []
    out = []
    for m in re.finditer(r"^\s*path\s*=\s*(.+?)\s*$", text, re.M):
        d = os.path.join(root, m.group(1))
        if not os.path.isdir(d) or not os.listdir(d):
            out.append(m.group(1))
    return out
