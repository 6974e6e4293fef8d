"""The Python release a project pins for itself: ``requires-python`` (pyproject.toml ``[project]``), Poetry's
``python`` dependency, ``python_requires`` (setup.py / setup.cfg), a conda ``python=3.x`` (environment.yml, a
README's or script's ``conda create ... python=3.x``). Read from the file's directory up to its git work tree's root
(lint/pins.py's candidates), the nearest first."""

from __future__ import annotations

import glob
import os
import re
from typing import List, Optional, Tuple

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from ..pin_files import read_text
from ..pins import _candidates

Pin = Tuple[str, str]  # (PEP 440 specifier set, where: path:line)

_REQUIRES = re.compile(r"""^\s*requires-python\s*=\s*["']([^"']+)["']""", re.M)
_POETRY = re.compile(r"""^\s*python\s*=\s*["']([^"']+)["']""", re.M)
_SETUP = re.compile(r"""\bpython_requires\s*=\s*(?:["']([^"']+)["']|([^\s#"']+))""")
_CONDA = re.compile(r"""(?:^\s*-\s*|\bconda\s+create\b[^\n]*?\s)python\s*(==?|>=|<=|<|>|\s)\s*(3(?:\.\d+)*)\b""", re.M)
_FILES = ("pyproject.toml", "setup.py", "setup.cfg", "environment.yml", "environment.yaml", "README*")


def python_pin(path: str) -> Optional[Pin]:
    """The nearest pin of the Python release for ``path`` (a file), None where no file says."""
    for d in _candidates(path):
        for pat in _FILES:
            for f in sorted(glob.glob(os.path.join(glob.escape(d), pat))):
                got = _read_pin(f) if os.path.isfile(f) else None
                if got is not None:
                    return got
    return None


def _read_pin(path: str) -> Optional[Pin]:
    text = read_text(path)
    base = os.path.basename(path)
    pats: List["re.Pattern[str]"] = [_REQUIRES, _POETRY] if base == "pyproject.toml" else \
        [_SETUP] if base.startswith("setup.") else [_CONDA]
    for pat in pats:
        m = pat.search(text)
        if m is None:
            continue
        spec = _conda(m.group(1), m.group(2)) if pat is _CONDA else _poetry(next(g for g in m.groups() if g))
        if spec is not None:
            return spec, f"{os.path.relpath(path)}:{text.count(chr(10), 0, m.start(1)) + 1}"
    return None


def _conda(op: str, version: str) -> str:
    """conda's ``python=3.10`` (that minor: ``==3.10.*``), ``python==3.10.4``, ``python>=3.9``."""
    op = op.strip() or "="
    if op == "=" or (op == "==" and version.count(".") < 2):
        return f"=={version}.*" if version.count(".") < 2 else f"=={version}"
    return f"{op}{version}"


def _poetry(spec: str) -> Optional[str]:
    """Poetry's ``^3.10`` (>=3.10,<4) and ``~3.10`` (>=3.10,<3.11); a PEP 440 set as it is."""
    spec = spec.strip()
    m = re.fullmatch(r"([\^~])\s*(\d+)\.(\d+)(?:\.\d+)?", spec)
    if m:
        major, minor = int(m.group(2)), int(m.group(3))
        return f">={major}.{minor},<{major + 1}" if m.group(1) == "^" else f">={major}.{minor},<{major}.{minor + 1}"
    return spec


def allows(spec: str, release: Tuple[int, int]) -> Optional[bool]:
    """Does ``spec`` allow Python ``release`` or a later one (3.x up to 3.14 tried)? None when it does not read."""
    try:
        s = SpecifierSet(spec)
    except InvalidSpecifier:
        return None
    major, minor = release
    return any(s.contains(f"{major}.{m}.0") or s.contains(f"{major}.{m}") for m in range(minor, 15))
