"""--fix / --diff: apply rule edits to files, keeping everything else byte-for-byte; atomic writes."""

from __future__ import annotations

import difflib
from typing import Dict, List, Sequence, Tuple

from .edits import apply, by_file, replacements, selected
from .rule import Edit


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            return fh.read()
    except FileNotFoundError:
        return ""


def _parses(text: str) -> bool:
    from .script.source import parses

    return parses(text)


def plan(edits: Sequence[Edit], unsafe: bool = False) -> Dict[str, Tuple[str, str]]:
    """(old, new) text of each file the edits change (:mod:`dsdoctor.lint.edits` decides which apply and how);
    a Python file whose new text would not parse is left out."""
    out: Dict[str, Tuple[str, str]] = {}
    for path, es in by_file(selected(edits, unsafe)).items():
        old = _read(path)
        new = apply(old, replacements(old, es))
        if new != old and not (path.endswith(".py") and not _parses(new)):  # never write a broken script
            out[path] = (old, new)
    return out


def diff(changes: Dict[str, Tuple[str, str]]) -> str:
    parts: List[str] = []
    for path, (old, new) in sorted(changes.items()):
        parts.extend(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                          f"a/{path}", f"b/{path}"))
    return "".join(p if p.endswith("\n") else p + "\n" for p in parts)


def write(changes: Dict[str, Tuple[str, str]]) -> List[str]:
    """Atomic replace of each changed file (temp file in the same directory, then os.replace)."""
    from ..atomic import write_text

    done = []
    for path, (_, new) in changes.items():
        write_text(path, new)
        done.append(path)
    return done
