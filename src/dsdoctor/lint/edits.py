"""Applying lint's text edits to a file's text: the one place that decides which edits apply and how, for
``--fix``, ``--diff`` (:mod:`dsdoctor.lint.fix`) and SARIF fixes (:mod:`dsdoctor.render.sarif`).

- Only safe edits unless unsafe ones are asked for; the same edit from several findings applies once.
- In-place edits are taken back to front; one that overlaps an edit after it, or ends past the end of the text
  (the file changed since it was linted), is dropped: the later edit wins.
- Appends (``start < 0``: a ``NAME=value`` line for ``.deepspeed_env``) go at the end, after a newline if the
  text lacks one, unless the text already sets that name.
"""

from __future__ import annotations

from typing import Dict, Iterable, List, Sequence, Tuple

from .rule import Edit

Replacement = Tuple[int, int, str]  # [start, end) of the original text -> new text


def selected(edits: Iterable[Edit], unsafe: bool) -> List[Edit]:
    """The edits ``--fix`` applies: the safe ones, or all with ``unsafe`` (``--unsafe-fixes``)."""
    return [e for e in edits if unsafe or e.applicability != "unsafe"]


def by_file(edits: Iterable[Edit]) -> Dict[str, List[Edit]]:
    """The edits per file, each distinct edit once, in their order."""
    out: Dict[str, List[Edit]] = {}
    for e in dict.fromkeys(edits):
        out.setdefault(e.path, []).append(e)
    return out


def replacements(text: str, edits: Sequence[Edit]) -> List[Replacement]:
    """What ``edits`` (of one file) change in ``text``: non-overlapping replacements in text order."""
    kept: List[Replacement] = []  # back to front
    last = len(text)
    for e in sorted((e for e in edits if e.start >= 0), key=lambda e: -e.start):
        if e.end > last:  # overlaps the edit after it, or stale
            continue
        kept.append((e.start, e.end, e.new))
        last = e.start
    out = kept[::-1]
    tail = apply(text, out)
    for e in edits:
        if e.start >= 0 or e.new.split("=", 1)[0] + "=" in tail:
            continue
        new = ("\n" if tail and not tail.endswith("\n") else "") + e.new
        out.append((len(text), len(text), new))
        tail += new
    return out


def apply(text: str, reps: Sequence[Replacement]) -> str:
    """``text`` with non-overlapping ``reps`` (in text order) applied."""
    parts: List[str] = []
    pos = 0
    for start, end, new in reps:
        parts += [text[pos:start], new]
        pos = end
    parts.append(text[pos:])
    return "".join(parts)
