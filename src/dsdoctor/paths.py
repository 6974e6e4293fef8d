"""Paths the user named: whether a file is inside them (what ``fix`` and ``report`` may touch or read)."""

from __future__ import annotations

import os
from typing import Sequence


def inside(path: str, roots: Sequence[str]) -> bool:
    """Fixes to Python files stay inside the paths the user named (a script found through a launch file is not)."""
    p = os.path.realpath(path)
    for r in roots:
        r = os.path.realpath(r)
        if p == r or p.startswith(r.rstrip(os.sep) + os.sep):
            return True
    return False
