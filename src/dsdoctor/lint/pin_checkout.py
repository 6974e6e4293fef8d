"""Pins a README's install steps make by building a package from its own source at a release tag:
``git clone .../transformers.git``, ``cd transformers``, ``git checkout tags/v4.35.2``, ``pip install -e .``; or
from the copy of its repository the project ships (``cd transformers``, ``pip install -e .``, or ``pip install -e
./transformers``): the version that copy's setup.py declares."""

from __future__ import annotations

import os
import re
from typing import Dict, List, Optional, Tuple

from . import pin_files as F
from . import pin_readme as R
from .pin_conda import named_txt_pins
from .pin_files import Pin, _name
from .pin_readme import _FENCE, _VERSION

_CLONE = re.compile(r"^\s*git\s+clone\s+(?:(?:-b|--branch)\s+" + _VERSION + r"\s+)?\S*?/([\w.-]+?)(?:\.git)?/?"
                    r"(?:\s+(?:-b|--branch)\s+" + _VERSION + r")?\s*$")
_CHECKOUT = re.compile(r"^\s*git\s+checkout\s+(?:tags/)?" + _VERSION + r"\s*$")
_SELF_INSTALL = re.compile(r"^\s*(?:pip3?|python3?\s+-m\s+pip)\s+install\s+(?:-e\s+|--editable\s+)?\.(?:\[[\w,-]*\])?/?\s*$")
_DIR_INSTALL = re.compile(r"^\s*(?:pip3?|python3?\s+-m\s+pip)\s+install\s+(?:-e\s+|--editable\s+)?(?:\./)?"
                          r"([\w.-]+(?:/[\w.-]+){0,8})/?\s*$")
_SETUP_NAME = re.compile(r"""(?<![\w.])name\s*=\s*["']([\w.-]{1,80})["']""")
_SETUP_VERSION = re.compile(r"""(?<![\w.])version\s*=\s*["']([0-9][\w.+-]{0,40})["']""")


def shipped_version(base: str, directory: str) -> Optional[Tuple[str, str]]:
    """(package, version) where ``directory`` (relative to ``base``) is a copy of a package's repository the
    project ships (``transformers``, ``hf-dev-train/transformers-main``): a setup.py naming a package lint reads
    and declaring its version."""
    d = os.path.join(base, directory)
    if not os.path.isfile(os.path.join(d, "setup.py")):
        return None
    text = F.read_text(os.path.join(d, "setup.py"))
    name = next((n for n in map(_name, _SETUP_NAME.findall(text)) if n is not None), None)
    m = _SETUP_VERSION.search(text)
    return (name, m.group(1)) if name is not None and m else None


class Checkout:
    """A code block's steps that install a package from its source at a release tag: ``git clone
    .../transformers.git``, ``cd transformers``, ``git checkout tags/v4.35.2`` (or ``clone -b v4.35.2``), ``pip
    install -e .`` pin ``transformers==4.35.2`` (at the line naming the tag)."""

    def __init__(self, base: str = ".") -> None:
        self.cloned: Dict[str, Tuple[Optional[str], int]] = {}  # directory -> (tag, its line)
        self.here: Optional[str] = None
        self.base = base  # the README's directory: a ``cd`` into a shipped copy is relative to it
        self.shipped: Optional[Tuple[str, str]] = None  # the copy ``here`` is: (package, version)

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
            self.shipped = shipped_version(self.base, m.group(1)) if m.group(1) and self.here is None else None
            return []
        m = _CHECKOUT.match(line)
        local = _DIR_INSTALL.match(line)
        got = self.shipped if _SELF_INSTALL.match(line) else \
            shipped_version(self.base, local.group(1)) if local else None
        if got is not None:
            return [Pin(got[0], f"=={got[1]}", shown, n)]
        if m and self.here is not None:
            self.cloned[self.here] = (m.group(1), n)
        elif _SELF_INSTALL.match(line) and self.here is not None:
            tag, at = self.cloned[self.here]
            name = _name(self.here)
            if tag and name:
                return [Pin(name, f"=={tag}", shown, at)]
        return []


def readme(path: str, shown: str) -> List[Pin]:
    """A README's pins (:func:`.pin_readme.readme`) and those its code blocks' checkouts at a tag install, in line
    order; then those of the ``.txt`` files it names (:func:`.pin_conda.named_txt_pins`)."""
    out = R.readme(path, shown)
    fenced = False
    base = os.path.dirname(path) or "."
    steps = Checkout(base)
    for n, line in enumerate(F.read_text(path).splitlines(), 1):
        if _FENCE.match(line):
            fenced, steps = not fenced, Checkout(base)
        elif fenced:
            out += steps.step(line, shown, n)
    return sorted(out, key=lambda p: p.line) + named_txt_pins(path, shown)
