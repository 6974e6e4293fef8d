"""--fix / --diff: apply rule edits to files, keeping everything else byte-for-byte; atomic writes."""

from __future__ import annotations

import difflib
from typing import Dict, List, Sequence, Tuple

from .rule import Edit


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            return fh.read()
    except FileNotFoundError:
        return ""


def _parses(text: str) -> bool:
    from .script._source import parses

    return parses(text)


def plan(edits: Sequence[Edit], unsafe: bool = False) -> Dict[str, Tuple[str, str]]:
    by_file: Dict[str, List[Edit]] = {}
    for e in edits:
        if e.applicability == "unsafe" and not unsafe:
            continue
        by_file.setdefault(e.path, []).append(e)
    out: Dict[str, Tuple[str, str]] = {}
    for path, es in by_file.items():
        es = list(dict.fromkeys(es))  # the same edit from several findings (e.g. one import) applies once
        old = _read(path)
        new = old
        appends = [e for e in es if e.start < 0]
        last = len(new) + 1
        for e in sorted((e for e in es if e.start >= 0), key=lambda e: -e.start):
            if e.end > last:  # overlapping edits: keep the later one only
                continue
            new = new[:e.start] + e.new + new[e.end:]
            last = e.start
        for e in appends:
            line = e.new
            if line.split("=", 1)[0] + "=" in new:
                continue
            if new and not new.endswith("\n"):
                new += "\n"
            new += line
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
