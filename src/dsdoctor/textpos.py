"""Line/column positions in a text: the offsets where its lines start, found once, searched with bisect.

Offsets, lines and columns count characters (Unicode code points: Python ``str`` indices), everywhere dsdoctor
reports a position (text, JSON, SARIF's ``columnKind: unicodeCodePoints``). Lines end at LF, as the readers and
editors count them (a CR before it is part of the line); ``universal=True`` also ends them at a lone CR, as
SARIF defines lines (§3.30.2: CR, LF and CR LF).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import List, Tuple

_LF = re.compile("\n")
_UNIVERSAL = re.compile(r"\r\n|\r|\n")


class LineIndex:
    """The line starts of one text (built on first use)."""

    def __init__(self, text: str, universal: bool = False) -> None:
        self.text = text
        self.universal = universal
        self._starts: List[int] = []

    @property
    def starts(self) -> List[int]:
        """Offset of the first character of each line (``starts[0] == 0``)."""
        if not self._starts:
            sep = _UNIVERSAL if self.universal else _LF
            self._starts = [0] + [m.end() for m in sep.finditer(self.text)]
        return self._starts

    def linecol(self, pos: int) -> Tuple[int, int]:
        """1-based line and column of offset ``pos``."""
        line = bisect_right(self.starts, pos)
        if self.universal and 0 < pos < len(self.text) and self.text[pos - 1:pos + 1] == "\r\n":
            return line + 1, 1  # between the CR and the LF of a CR LF: just past the CR's line end
        return line, pos - self.starts[line - 1] + 1

    def line_start(self, pos: int) -> int:
        """Offset of the start of the line holding ``pos``."""
        line, col = self.linecol(pos)
        return pos - col + 1

    def line_offset(self, line: int) -> int:
        """Offset of the start of 1-based ``line`` (the last line's for a line past the end)."""
        return self.starts[max(min(line, len(self.starts)), 1) - 1]


class HasLines:
    """Mixin for an object with a ``text``: its :class:`LineIndex` (built once, rebuilt if ``text`` is replaced)
    and positions through it."""

    text: str

    @property
    def index(self) -> LineIndex:
        idx = self.__dict__.get("_line_index")
        if not isinstance(idx, LineIndex) or idx.text is not self.text:
            idx = self.__dict__["_line_index"] = LineIndex(self.text)
        return idx

    def linecol(self, pos: int) -> Tuple[int, int]:
        """1-based line and column of an offset (columns count characters)."""
        return self.index.linecol(pos)

    def line_start(self, pos: int) -> int:
        """Offset of the start of the line holding ``pos``."""
        return self.index.line_start(pos)


def linecol(text: str, pos: int, universal: bool = False) -> Tuple[int, int]:
    """1-based line and column of one offset of ``text`` (a :class:`LineIndex` when there are many)."""
    return LineIndex(text, universal).linecol(pos)
