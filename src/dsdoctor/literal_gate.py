"""Regular expressions gated by the literal text every match must hold.

Python's ``re`` finds a pattern that opens with a literal (``import[ \\t]+\\*``) at C speed, but one that opens
with ``\\b``, a lookbehind, ``^`` under MULTILINE or an alternation tries the whole engine at every offset: over a
1 MB source file that is 35 times slower. Whole-repository lint searches every file's text with dozens of such
patterns, and most files hold none of their words. :func:`gated` reads the pattern's parse tree once and derives
sets of strings every match holds one of (``{"deepspeed", "Trainer"}`` for ``\\bdeepspeed\\b|\\w*Trainer\\b``; a
sequence gives several sets, each required); a text missing a set is answered without running the engine. The
answers are the pattern's own: the gate only skips searches that cannot match, and a pattern it cannot read
(case-insensitive literals, literals shorter than 3 characters or Python keywords) is searched as it is.
"""

from __future__ import annotations

import keyword
import re
import sys
from typing import Any, FrozenSet, Iterator, List, Optional, Sequence, Tuple

try:  # Python 3.11+; sre_parse before (the same parser, under its old name)
    import re._parser as _sre  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - Python 3.9 / 3.10
    import sre_parse as _sre  # type: ignore[no-redef,unused-ignore]

# a leading \b before a literal or a group of alternatives opening with one: without it, re skips to the candidates
_LEAD = re.compile(r"\\b(?:\w|\(\?:\w)")
_GLOBAL_FLAGS = re.compile(r"\(\?[aiLmsux]+\)")
_MIN_NEEDLE = 3  # a shorter literal (``if``) is in nearly every file: no gate
_REPEATS = ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")


def _score(req: FrozenSet[str]) -> Tuple[int, int]:
    """How selective a requirement is: its shortest string's length (a Python keyword, in nearly every file, counts
    0), then the fewer strings the better."""
    return min(0 if s.strip() in keyword.kwlist else len(s) for s in req), -len(req)


def _required(items: Sequence[Any]) -> List[FrozenSet[str]]:
    """Sets of strings such that every match of the parsed sequence ``items`` holds one string of each set."""
    out: List[FrozenSet[str]] = []
    run: List[str] = []
    for op, av in items:
        name = str(op)
        if name == "LITERAL":
            run.append(chr(av))
            continue
        if run:
            out.append(frozenset(["".join(run)]))
            run = []
        if name == "SUBPATTERN" and not av[1] & re.IGNORECASE:
            out.extend(_required(av[-1]))
        elif name == "ATOMIC_GROUP":
            out.extend(_required(av))
        elif name in _REPEATS and av[0] >= 1:
            out.extend(_required(av[2]))
        elif name == "BRANCH":
            alts = [_required(alt) for alt in av[1]]
            if all(alts):
                out.append(frozenset().union(*(max(a, key=_score) for a in alts)))
    if run:
        out.append(frozenset(["".join(run)]))
    return out


def needles(pattern: str, flags: int = 0) -> List[FrozenSet[str]]:
    """Sets of strings (each at least 3 characters) such that every match of ``pattern`` holds one string of each
    set, most selective first; empty when the pattern names none (then nothing can be skipped)."""
    if flags & re.IGNORECASE:
        return []
    try:
        parsed = _sre.parse(pattern, flags)
    except Exception:  # noqa: BLE001 - re.compile raises the real error for the caller
        return []
    if parsed.state.flags & re.IGNORECASE:  # a global (?i)
        return []
    got = [r for r in _required(list(parsed)) if _score(r)[0] >= _MIN_NEEDLE]
    return sorted(set(got), key=lambda r: (_score(r), sorted(r)), reverse=True)


def _alternatives(pattern: str) -> List[str]:
    """The top-level alternatives of ``pattern`` (``a|b(c|d)`` -> ``a``, ``b(c|d)``); one where it has none."""
    out, depth, start, i, klass = [], 0, 0, 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if klass:
            klass = c != "]"
        elif c == "[":
            klass = True
            i += 1 if pattern[i + 1:i + 2] != "^" else 2  # a `]` first in a class is literal
            if pattern[i + 1:i + 2] == "]":
                i += 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
        i += 1
    return out + [pattern[start:]]


class GatedPattern:
    """A compiled pattern whose search-like methods return at once on a text holding none of its needles.

    ``search`` is also faster where a match is possible: a pattern with no groups that is an alternation searches
    each alternative, gated by its own needles, and takes the leftmost match (the first alternative at one
    position, as ``re`` does); one that opens with ``\\b`` before a literal finds the candidates without it, where
    ``re`` skips to the literal at C speed, and tries the whole pattern at each (a leading zero-width test only
    narrows where a match starts: ten times faster over a large repository). ``finditer`` and
    ``findall`` run the pattern as it is. The alternatives and the candidate pattern are built on the first search
    (a module's patterns are compiled at import, on check's start-up path; many are never searched)."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.regex = re.compile(pattern, flags)
        self.needles = needles(pattern, flags)
        self._flags = flags
        self._split: "Optional[Tuple[List[GatedPattern], Optional[re.Pattern[str]]]]" = None

    def _built(self) -> "Tuple[List[GatedPattern], Optional[re.Pattern[str]]]":
        """(the alternatives, each gated; the pattern without its leading ``\\b``), made once."""
        if self._split is None:
            pattern, flags = self.regex.pattern, self._flags
            whole = self.regex.groups == 0 and not _GLOBAL_FLAGS.match(pattern)  # `(?m)` at the start is every part's
            alts = _alternatives(pattern) if whole else [pattern]
            parts = [GatedPattern(p, flags) for p in alts] if len(alts) > 1 else []
            self._split = parts, re.compile(pattern[2:], flags) if not parts and _LEAD.match(pattern) else None
        return self._split

    @property
    def _parts(self) -> "List[GatedPattern]":
        return self._built()[0]

    @property
    def _fast(self) -> "Optional[re.Pattern[str]]":
        return self._built()[1]

    @property
    def pattern(self) -> str:
        return self.regex.pattern

    def _may(self, text: str) -> bool:
        return all(any(n in text for n in req) for req in self.needles)

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> "Optional[re.Match[str]]":
        if not self._may(text):
            return None
        parts, fast = self._built()
        if parts:
            best: "Optional[re.Match[str]]" = None
            for part in parts:
                m = part.search(text, pos, endpos)
                if m is not None and (best is None or m.start() < best.start()):
                    best = m
            return best
        if fast is None:
            return self.regex.search(text, pos, endpos)
        at = pos
        while True:
            cand = fast.search(text, at, endpos)
            if cand is None:
                return None
            m = self.regex.match(text, cand.start(), endpos)
            if m is not None:
                return m
            at = cand.start() + 1

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> "Iterator[re.Match[str]]":
        return self.regex.finditer(text, pos, endpos) if self._may(text) else iter(())

    def findall(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> List[Any]:
        return self.regex.findall(text, pos, endpos) if self._may(text) else []


def gated(pattern: str, flags: int = 0) -> GatedPattern:
    """``re.compile(pattern, flags)``, gated by its needles (:func:`needles`)."""
    return GatedPattern(pattern, flags)
