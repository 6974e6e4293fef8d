"""Pins a README's install steps make by building a package from its own source at a release tag:
``git clone .../transformers.git``, ``cd transformers``, ``git checkout tags/v4.35.2``, ``pip install -e .``."""

from __future__ import annotations

import os
import re
from typing import Dict, List, Optional, Tuple

from . import pin_files as F
from .pin_files import _FENCE, _VERSION, Pin, _name

_CLONE = re.compile(r"^\s*git\s+clone\s+(?:(?:-b|--branch)\s+" + _VERSION + r"\s+)?\S*?/([\w.-]+?)(?:\.git)?/?"
                    r"(?:\s+(?:-b|--branch)\s+" + _VERSION + r")?\s*$")
_CHECKOUT = re.compile(r"^\s*git\s+checkout\s+(?:tags/)?" + _VERSION + r"\s*$")
_SELF_INSTALL = re.compile(r"^\s*(?:pip3?|python3?\s+-m\s+pip)\s+install\s+(?:-e\s+|--editable\s+)?\.(?:\[[\w,-]*\])?/?\s*$")


class Checkout:
    """A code block's steps that install a package from its source at a release tag: ``git clone
    .../transformers.git``, ``cd transformers``, ``git checkout tags/v4.35.2`` (or ``clone -b v4.35.2``), ``pip
    install -e .`` pin ``transformers==4.35.2`` (at the line naming the tag)."""

    def __init__(self) -> None:
        self.cloned: Dict[str, Tuple[Optional[str], int]] = {}  # directory -> (tag, its line)
        self.here: Optional[str] = None

    def step(self, line: str, shown: str, n: int) -> List[Pin]:
        m = _CLONE.match(line)
        if m:
            tag = m.group(1) or m.group(3)
            self.cloned[m.group(2)] = (tag, n if tag else 0)
            return []
        m = re.match(r"^\s*cd(?:\s+(\S+))?\s*$", line)
        if m:  # `cd transformers`, `cd ../peft`; `cd ..` / `cd` leave every checkout
            there = os.path.basename((m.group(1) or "").rstrip("/"))
            self.here = there if there in self.cloned else None
            return []
        m = _CHECKOUT.match(line)
        if m and self.here is not None:
            self.cloned[self.here] = (m.group(1), n)
        elif _SELF_INSTALL.match(line) and self.here is not None:
            tag, at = self.cloned[self.here]
            name = _name(self.here)
            if tag and name:
                return [Pin(name, f"=={tag}", shown, at)]
        return []


def readme(path: str, shown: str) -> List[Pin]:
    """A README's pins (:func:`.pin_files.readme`) and those its code blocks' checkouts at a tag install, in line
    order."""
    out = F.readme(path, shown)
    fenced = False
    steps = Checkout()
    for n, line in enumerate(F.read_text(path).splitlines(), 1):
        if _FENCE.match(line):
            fenced, steps = not fenced, Checkout()
        elif fenced:
            out += steps.step(line, shown, n)
    return sorted(out, key=lambda p: p.line)
