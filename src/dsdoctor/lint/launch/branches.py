"""The branch structure of a shell script: its ``if/elif/else/fi`` and ``case/esac`` blocks (nested), each branch
with its condition and the offsets of its body, so that a launch reader can tell which assignments and commands
run on which path (:mod:`.paths`). Heredoc bodies, quoted strings and comments are skipped; a script whose blocks
do not close is not read (None)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

_HEREDOC = re.compile(r"<<-?[ \t]*(['\"]?)([A-Za-z_][\w.-]*)\1")


@dataclass
class Branch:
    """One branch of a block: ``cond`` the condition text of an ``if`` / ``elif`` (None: ``else``, or a ``case``
    arm, whose ``patterns`` are set); its body runs from ``start`` to ``end``."""

    cond: Optional[str]
    start: int = -1
    end: int = -1
    patterns: Tuple[str, ...] = ()
    blocks: List["Block"] = field(default_factory=list)  # the blocks nested in its body


@dataclass
class Block:
    """An ``if`` chain or a ``case`` (``subject`` its word), from ``start`` to ``end``."""

    kind: str
    start: int
    end: int = -1
    subject: str = ""
    branches: List[Branch] = field(default_factory=list)

    def walk(self) -> List["Block"]:
        """This block and every block nested in it."""
        out = [self]
        for b in self.branches:
            for inner in b.blocks:
                out += inner.walk()
        return out


def segments(text: str) -> List[Tuple[int, str, str]]:
    """(offset, text, separator after it) of each simple command of ``text``: split at newlines, ``;``, ``;;`` and
    a lone ``&`` outside quotes and ``$(...)``; comments and heredoc bodies dropped, ``\\`` continuations joined."""
    out: List[Tuple[int, str, str]] = []
    n = len(text)
    i = start = 0
    quote = ""
    depth = 0
    buf: List[str] = []
    heredocs: List[str] = []

    def close(sep: str, at: int) -> None:
        seg = "".join(buf)
        lead = len(seg) - len(seg.lstrip())
        out.append((start + lead, seg.strip(), sep))
        buf.clear()

    while i < n:
        c = text[i]
        if quote:
            if c == "\\" and quote == '"' and i + 1 < n:
                buf.append(text[i:i + 2])
                i += 2
                continue
            if c == quote:
                quote = ""
            buf.append(c)
            i += 1
            continue
        if c in "'\"`":
            quote = c
        elif c == "\\" and i + 1 < n:
            buf.append("  " if text[i + 1] == "\n" else text[i:i + 2])
            i += 2
            continue
        elif c == "$" and text[i + 1:i + 2] == "(":
            depth += 1
            buf.append("$(")
            i += 2
            continue
        elif c == "(" and depth:
            depth += 1
        elif c == ")" and depth:
            depth -= 1
        elif c == "#" and (not buf or buf[-1] in " \t") and not depth:
            k = text.find("\n", i)
            i = n if k < 0 else k
            continue
        elif not depth and (c == "\n" or c == ";" or c == "&" and text[i + 1:i + 2] != "&" and (not buf or buf[-1] != "&")
                            and text[i - 1:i] not in "<>|" and text[i + 1:i + 2] != ">"):
            sep = c
            if c == ";" and text[i + 1:i + 2] in (";", "&"):
                sep = ";;"
                i += 1
            if c == "\n":
                heredocs += [m.group(2) for m in _HEREDOC.finditer("".join(buf))]
            close(sep, i)
            i += 1
            if c == "\n" and heredocs:  # skip the heredoc bodies
                for word in heredocs:
                    while i < n:
                        k = text.find("\n", i)
                        k = n if k < 0 else k
                        line = text[i:k].strip()
                        i = k + 1
                        if line == word:
                            break
                heredocs = []
            start = i
            continue
        buf.append(c)
        i += 1
    if buf:
        close("", n)
    return [s for s in out if s[1] or s[2] == ";;"]


class _Unread(Exception):
    """The blocks do not close: the script is not read as branches."""


def blocks(text: str) -> Optional[List[Block]]:
    """The top-level blocks of a shell script; None when its ``if`` / ``case`` keywords do not pair up."""
    r = _Reader()
    try:
        for off, seg, sep in segments(text):
            r.one(off, seg)
            if sep == ";;" and r.stack and r.stack[-1].kind == "case":
                r.expect = True
    except (_Unread, RecursionError):
        return None
    return None if r.stack else r.top


class _Reader:
    """The block structure, one simple command at a time."""

    def __init__(self) -> None:
        self.top: List[Block] = []
        self.stack: List[Block] = []
        self.expect = False  # a case arm's pattern comes next

    def add(self, b: Block) -> None:
        if self.stack:
            if not self.stack[-1].branches:
                raise _Unread
            self.stack[-1].branches[-1].blocks.append(b)
        else:
            self.top.append(b)
        self.stack.append(b)

    def one(self, off: int, seg: str) -> None:
        if not seg:
            return
        if self.stack and self.stack[-1].kind == "case" and self.expect:
            return self._arm(off, seg)
        word = seg.split()[0]
        rest = seg[len(word):]
        rest_off = off + len(seg) - len(rest.lstrip())
        if word == "if":
            self.add(Block("if", off, branches=[Branch(rest.strip())]))
        elif word in ("then", "else", "elif", "fi"):
            if not self.stack or self.stack[-1].kind != "if":
                raise _Unread
            b = self.stack[-1]
            if word == "then":
                if b.branches[-1].start >= 0:  # a second `then`: a keyword swallowed by a continuation line
                    raise _Unread
                b.branches[-1].start = rest_off
            elif word == "elif":
                b.branches[-1].end = off
                b.branches.append(Branch(rest.strip()))
                return None
            elif word == "else":
                b.branches[-1].end = off
                b.branches.append(Branch(None, rest_off))
            else:
                _end(self.stack.pop(), off, 2)
            self.one(rest_off, rest.strip())
        elif word == "case":
            m = re.match(r"case\s+(.+?)\s+in(?:\s|$)", seg + " ")
            if m is None:
                raise _Unread
            self.add(Block("case", off, subject=m.group(1)))
            self.expect = True
            more = seg[m.end():].strip()
            if more:
                self.one(off + seg.find(more, m.end() - 1), more)
        elif word == "esac":
            if not self.stack or self.stack[-1].kind != "case":
                raise _Unread
            _end(self.stack.pop(), off, 4)
        elif word in ("do", "!", "time"):
            self.one(rest_off, rest.strip())
        return None

    def _arm(self, off: int, seg: str) -> None:
        """A case arm's ``pattern)`` (and the command after it), or the ``esac`` closing the case."""
        if seg.split()[0] == "esac":
            _end(self.stack.pop(), off, 4)
            self.expect = False
            return self.one(off + 4, seg[4:].strip())
        at = seg.find(")")
        if at < 0:
            raise _Unread
        if self.stack[-1].branches:
            self.stack[-1].branches[-1].end = off
        pats = tuple(p.strip().strip("'\"") for p in seg[:at].lstrip("(").split("|"))
        self.stack[-1].branches.append(Branch(None, off + at + 1, patterns=pats))
        self.expect = False
        rest = seg[at + 1:]
        return self.one(off + at + 1 + len(rest) - len(rest.lstrip()), rest.strip())


def _end(b: Block, off: int, width: int) -> None:
    b.end = off + width
    if b.branches and b.branches[-1].end < 0:
        b.branches[-1].end = off
    if any(br.start < 0 for br in b.branches):
        raise _Unread
