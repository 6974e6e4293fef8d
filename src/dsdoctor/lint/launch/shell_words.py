"""The words of one shell command as POSIX ``shlex`` splits them, read with regular expressions: shlex reads the
text character by character, which was the most of a launch file's reading (``tests/test_lint_shell_commands.py``
checks the two agree on generated commands)."""

from __future__ import annotations

import re
from typing import List, Optional

_SHELL_SPACE = re.compile(r"[ \t\r\n]+")  # shlex's whitespace
# one word as POSIX shlex reads it: unquoted characters, a backslash and the character it escapes, a '...' or a
# "..." string (where a backslash escapes the next character); then the word's pieces, unquoted
_WORD = re.compile(r"""(?:[^ \t\r\n'"\\]|\\[\s\S]|'[^']*'|"(?:[^"\\]|\\[\s\S])*")+""")
_PIECE = re.compile(r"""\\([\s\S])|'([^']*)'|"((?:[^"\\]|\\[\s\S])*)"|([^'"\\]+)""")
_IN_DOUBLE = re.compile(r"""\\([\s\S])""")


def words(part: str) -> Optional[List[str]]:
    """The words of one command as POSIX shlex splits them (quotes removed; a backslash escapes any character
    outside quotes, only ``"`` and itself inside double quotes; a ``#`` inside a word is the word's: ``_commands``
    cut the comment); None where a quote or an escape is left open (shlex's ValueError). Read with regular
    expressions: shlex reads the text character by character, the most of a launch file's reading."""
    out: List[str] = []
    at = 0
    for m in _WORD.finditer(part):
        if _SHELL_SPACE.fullmatch(part, at, m.start()) is None and m.start() > at:
            return None  # something no word can hold: an open quote or a trailing backslash
        out.append("".join(_unquote(p) for p in _PIECE.finditer(m.group())))
        at = m.end()
    rest = part[at:]
    return out if not rest or _SHELL_SPACE.fullmatch(rest) else None


def _unquote(piece: "re.Match[str]") -> str:
    escaped, single, double, plain = piece.groups()
    if escaped is not None:
        return escaped
    if single is not None:
        return single
    if double is not None:
        return _IN_DOUBLE.sub(lambda e: e.group(1) if e.group(1) in '"\\' else e.group(), double)
    return plain
