"""The script's own directory, as a shell script computes it: ``DIR=$(cd "$(dirname "$0")"; pwd)``,
``DIR=$(dirname "${BASH_SOURCE[0]}")``, ``DIR=$(dirname $(realpath $0))/..``; and its own path,
``SELF=$(realpath $BASH_SOURCE)`` (a later ``$(dirname $SELF)`` is evaluated where the value is expanded:
:func:`.shell.expand`); and the working directory, ``$(pwd)/config/z3.json`` (`` `pwd` ``, ``$PWD``): a path below
it resolves as a relative path does.

Launch scripts name their entry and config from that directory so that they run from any working directory; the
value is the script's directory (a parent for each further ``dirname``), with the path written after the
substitution (``/..``) applied. Any other command substitution is not evaluated.
"""

from __future__ import annotations

import os
import re
from typing import Optional

_ASSIGN = re.compile(r"[ \t]*(?:export[ \t]+|local[ \t]+|readonly[ \t]+|declare[ \t]+)?[A-Za-z_]\w*=")
_WORD = re.compile(r"\$\{?BASH_SOURCE(?:\[0\])?\}?|\$\{?0\}?|\$\{?\w+\}?|[A-Za-z_][\w-]*|--?[A-Za-z]*")
_SELF = re.compile(r"\$\{?BASH_SOURCE(?:\[0\])?\}?|\$\{?0\}?")
# the words a script-directory idiom is made of (``readlink -f``, ``cd -P ... && pwd``)
_PWD = re.compile(r"(?:\$\([ \t]*pwd[ \t]*\)|`[ \t]*pwd[ \t]*`|\$\{?PWD\}?)(/[^\s$\"'`;]*)?")  # `pwd`/x, $PWD/x
_IDIOM = frozenset({"cd", "pwd", "dirname", "realpath", "readlink", "-f", "-P", "-e", "-m", "--"})


def script_dir(text: str, offset: int, script: str) -> Optional[str]:
    """The directory the assignment at ``offset`` of ``text`` (a ``NAME=`` line of the shell script ``script``)
    computes, when its value is a script-directory idiom; None otherwise."""
    m = _ASSIGN.match(text, offset)
    if m is None:
        return None
    end = text.find("\n", m.end())
    value = text[m.end():end if end >= 0 else len(text)]
    value = re.sub(r"[ \t]+#.*$", "", value).strip()
    if value[:1] == '"' and value[-1:] == '"':
        value = value[1:-1]
    here = _PWD.fullmatch(value)
    if here is not None:  # the working directory: a path below it resolves as a relative one does
        return os.path.normpath("." + (here.group(1) or ""))
    if not value.startswith("$("):
        return None
    close = _closing(value, 1)
    if close is None:
        return None
    inner, tail = value[2:close], value[close + 1:].strip("\"'")
    bare = re.sub(r"[\"';&|()]|\$\(", " ", inner)
    ups = bare.count("/..")  # `$(cd "$(dirname "$0")/.." && pwd)`: the parent
    words = _WORD.findall(bare.replace("/..", " "))
    if _WORD.sub("", bare.replace("/..", " ")).strip():
        return None  # a path or a command word the idiom has not
    refs = [w for w in words if w.startswith("$")]  # the script's own path only: `$0`, `${BASH_SOURCE[0]}`
    if not refs or any(not _SELF.fullmatch(w) for w in refs):
        return None
    if "dirname" not in words and not {"realpath", "readlink"} & set(words):
        return None  # the script's own path needs realpath / readlink; its directory, dirname
    if any(w not in _IDIOM for w in words if not w.startswith("$")):
        return None
    if tail and (not tail.startswith("/") or "$" in tail or " " in tail):
        return None
    d = os.path.normpath(script)
    for _ in range(words.count("dirname") + ups):
        d = os.path.dirname(os.path.normpath(d)) or "."
    return os.path.normpath(d + tail)


def _closing(s: str, at: int) -> Optional[int]:
    """The index of the parenthesis closing the one at ``at``."""
    depth = 0
    for i in range(at, len(s)):
        if s[i] == "(":
            depth += 1
        elif s[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return None
