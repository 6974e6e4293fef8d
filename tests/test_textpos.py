"""textpos.LineIndex against naive references: every offset of small texts built from a, CR and LF."""

from __future__ import annotations

import itertools
import re

from dsdoctor.textpos import LineIndex


def _naive(text: str, pos: int, universal: bool) -> "tuple[int, int]":
    """Count line ends before ``pos`` (SARIF: CR, LF, CR LF; else LF only)."""
    line, start = 1, 0
    for m in re.finditer(r"\r\n|\r|\n" if universal else "\n", text[:pos]):
        line, start = line + 1, m.end()
    return line, pos - start + 1


def test_linecol_line_start_and_offset() -> None:
    for n in range(7):
        for chars in itertools.product("a\r\n", repeat=n):
            text = "".join(chars)
            for universal in (False, True):
                index = LineIndex(text, universal)
                for pos in range(len(text) + 2):  # one past the end too (a stale edit)
                    line, col = index.linecol(pos)
                    assert (line, col) == _naive(text, pos, universal), (text, pos, universal)
                    assert index.line_start(pos) == pos - col + 1
                if not universal:
                    for pos in range(len(text) + 1):
                        assert index.line_start(pos) == text.rfind("\n", 0, pos) + 1
                        line, col = index.linecol(pos)
                        assert index.line_offset(line) + col - 1 == pos
