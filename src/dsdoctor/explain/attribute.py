"""Attribute an exception no cause names to the library function that raises it, from the message index
(:mod:`dsdoctor.knowledge.messages`): "raised by DeepSpeed's deepspeed.runtime.engine
DeepSpeedEngine._configure_zero_optimizer (deepspeed 0.9.0-0.19.8)". Only when the index is unambiguous: the best
matches are all in one package and function. The raising frame, when the log has it, says the package (and often
the function); the versions the log prints rule out releases without the message. Not a cause: an ``unknown``
answer says who raised, and the fix the message itself states."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Dict, Optional, Sequence, Tuple

from ..knowledge import messages as MI
from . import failure as FM

# a sentence of the message that says what to do
_FIX = re.compile(r"\b(?:[Pp]lease|[Ss]et|[Ii]nstall|[Uu]pgrade|[Dd]owngrade|[Uu]se|[Pp]ass|[Mm]ake sure|[Ee]nsure|"
                  r"[Tt]ry|[Cc]onsider|[Rr]emove|must be|should be|needs? to be|has to be|you (?:can|need|should|must))\b")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`'\"(])")
_EXC_PREFIX = re.compile(r"^.{0,200}?\b(?:[A-Za-z_][\w.]{0,200}\.)?[A-Z]\w{0,80}(?:Error|Exception|Warning):\s?")
MAX_MATCHES = 40  # more templates than this in one line: it shows nothing specific
# a match this short, and covering less of the message than this, may be another text that shares a few words
SHORT, COVER = 40, 0.4
# templates that copy Python's own messages: the line may be Python's, about any object (only with the raising frame)
_PYTHON_TEXT = ("object has no attribute", "got an unexpected keyword argument", "No module named", "cannot import name",
                "positional argument", "is not subscriptable", "object is not callable", "object is not iterable",
                "unsupported operand type", "not supported between instances", "must be str, not", "is not defined")


@dataclass(frozen=True)
class Attribution:
    """Who raised an exception line: the message index's template and where it lives, and the sentence of the
    line's message that states a fix ("" when none)."""

    message: MI.Message
    text: str  # the line's message (the exception class and any prefix removed)
    fix: str

    def said(self) -> str:
        """``raised by DeepSpeed's deepspeed.runtime.engine DeepSpeedEngine._configure_zero_optimizer (deepspeed
        0.9.0-0.19.8)``."""
        return f"raised by {self.message.where()}"


def _indexed(frames: Sequence[Tuple[str, int, str]]) -> Tuple[Optional[str], str]:
    """(the package of the raising frame, its function): ``(None, "")`` when the log shows no frame, ``("", func)``
    when the raising frame is not a library's."""
    if not frames:
        return None, ""
    path, _, func = frames[-1]
    return FM.package(path), func


def fix_sentence(text: str) -> str:
    """The sentence of a message that says what to do ("Please use X", "set Y", "must be ..."), or ""."""
    for sentence in _SENTENCE.split(text):
        if _FIX.search(sentence):
            return sentence.strip()[:300]
    return ""


def _possible(m: MI.Match, versions: Dict[str, str]) -> bool:
    ver = versions.get(m.message.package)
    return not ver or m.message.span.has(ver) is not False


def attribute(line: str, frames: Sequence[Tuple[str, int, str]] = (),
              versions: Optional[Dict[str, str]] = None) -> Optional[Attribution]:
    """Who raised the exception ``line`` (``frames``: its traceback's, outermost first; ``versions``: package ->
    version the log prints), or None when the index does not say unambiguously."""
    pkg, func = _indexed(frames)
    if pkg is not None and pkg and pkg not in MI.TITLES:
        return None  # raised in a library the index does not read: failure.raised_by already names it
    matches = MI.lookup(line, frozenset([pkg]) if pkg else None)
    if len(matches) > MAX_MATCHES:
        return None
    matches = [m for m in matches if _possible(m, versions or {})
               and (pkg == m.message.package or not any(t in m.message.template for t in _PYTHON_TEXT))]
    if func:  # the raising frame's function, when the index has the message there
        own = [m for m in matches if m.message.function.rsplit(".", 1)[-1] == func]
        matches = own or matches
    if not matches:
        return None
    top = [m for m in matches if (m.cut, m.literal) == (matches[0].cut, matches[0].literal)]
    where = {(m.message.package, m.message.module, m.message.function) for m in top}
    if len(where) != 1:
        return None
    # the function's other forms of the message (a release that printed a value as literal text)
    same = [m.message.span for m in matches if (m.message.package, m.message.module, m.message.function) in where]
    text = _EXC_PREFIX.sub("", line.strip(), count=1)
    if top[0].literal < SHORT and top[0].literal < COVER * len(text):
        return None
    return Attribution(replace(top[0].message, span=MI.union(same)), text, fix_sentence(text))

