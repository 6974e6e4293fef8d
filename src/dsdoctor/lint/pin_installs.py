"""The directories a set-up script installs, and the pins it installs them with.

A research repository often ships a library of its own or a vendored one (``opendelta/``, ``peft/``) with a loose
requirements file of its own, and a set-up script that builds the environment it runs in::

    pip install transformers==4.28.0
    cd opendelta
    pip install -e .

The installed directory's code runs with the releases that script installs, so the script's exact pins pin that
directory too (:class:`.pins.Near` reads them with the directory's own pin files). A relative path resolves from
the script's directory or a directory above it up to the project root (a set-up script kept in ``examples/t5/`` is
often run from the project directory above it).
"""

from __future__ import annotations

import os
from typing import Dict, Iterable, List, Optional

from .launch.shell import parse as parse_shell
from .launch.shell import unwrap
from .pin_files import Pin, read_text, shell_script
from .recipe import resolve

_EDITABLE = ("-e", "--editable")


def _directory(here: str, to: str, root: str) -> Optional[str]:
    """The directory ``to`` names from ``here`` or a directory above it up to ``root`` (:func:`.recipe.resolve`)."""
    return resolve(to, os.path.join(here, "-"), root, os.path.isdir) if not to.startswith("~") else None


def _targets(argv: List[str]) -> List[str]:
    """The local paths a ``pip install`` command installs: ``-e DIR``, ``--editable=DIR``, ``.``, ``./pkg``."""
    i = next((k for k, a in enumerate(argv) if a == "install"), None)
    if i is None or not any(a.rsplit("/", 1)[-1].startswith(("pip", "python", "uv")) for a in argv[:i]):
        return []
    out: List[str] = []
    rest = argv[i + 1:]
    for k, a in enumerate(rest):
        if a in _EDITABLE and k + 1 < len(rest):
            out.append(rest[k + 1])
        elif a.startswith("--editable="):
            out.append(a.split("=", 1)[1])
        elif a in (".", "..") or a.startswith(("./", "../")):
            out.append(a.split("[", 1)[0])  # ".[dev]": the directory
    return out


def installs(scripts: Iterable[str], root: str) -> Dict[str, List[Pin]]:
    """Absolute directory -> the exact pins of the scripts among ``scripts`` that install it with pip (``-e DIR``
    or ``pip install .`` after ``cd DIR``) and pin a package with ``==`` in the same script."""
    root = os.path.abspath(root)
    out: Dict[str, List[Pin]] = {}
    for path in scripts:
        try:
            text = read_text(path)
        except OSError:
            continue
        if "install" not in text:
            continue
        pins = [p for p in shell_script(path, os.path.relpath(path)) if p.spec.startswith("==")]
        if not pins:
            continue
        here = os.path.dirname(os.path.abspath(path))
        for cmd in parse_shell(text).commands:
            for one in unwrap(cmd):
                if one.argv[:1] == ["cd"]:
                    here = _directory(here, one.argv[1] if len(one.argv) > 1 else "", root) or here
                    continue
                for t in _targets(one.argv):
                    d = _directory(here, t, root)
                    if d is not None and d != root:  # the project itself: its own pins already judge it
                        out.setdefault(d, []).extend(p for p in pins if p not in out.get(d, []))
    return out
