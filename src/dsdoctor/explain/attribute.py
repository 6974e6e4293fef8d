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
from ..knowledge import regressions as RR
from ..knowledge.versions import parse
from . import failure as FM
from . import raiser as RS

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
    # every (module, function) of the package the best matches are in, when several functions raise the message
    where: Tuple[Tuple[str, str], ...] = ()

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
    matches = MI.lookup(line, frozenset([pkg]) if pkg else None) or MI.lookup_typo(line, frozenset([pkg]) if pkg else None)
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
    if len({p for p, _, _ in where}) != 1 or (len(where) > 1 and pkg is None and any(t in line for t in _PYTHON_TEXT)):
        return None  # in several packages, or Python's own words several functions copy (no frame): nothing certain
    # the functions' other forms of the message (a release that printed a value as literal text)
    same = [m.message.span for m in matches if (m.message.package, m.message.module, m.message.function) in where]
    text = _EXC_PREFIX.sub("", line.strip(), count=1)
    if top[0].literal < SHORT and top[0].literal < COVER * len(text):
        return None
    several = tuple(sorted((mod, fn) for _, mod, fn in where)) if len(where) > 1 else ()
    return Attribution(replace(top[0].message, span=MI.union(same)), text, fix_sentence(text), several)


def _from_index(att: Attribution) -> RS.Raiser:
    """The raiser the message index names: one function, or several of one package (their module when shared)."""
    msg = att.message
    if not att.where:
        return RS.Raiser(msg.package, msg.module, (msg.function,) if msg.function != "<module>" else (), "message",
                         msg.span.describe())
    modules = {mod for mod, _ in att.where}
    if len(modules) == 1:
        return RS.Raiser(msg.package, modules.pop(), tuple(fn for _, fn in att.where), "message", msg.span.describe())
    return RS.Raiser(msg.package, "", tuple(f"{mod}.{fn}" for mod, fn in att.where), "message", msg.span.describe())


def who_raised(line: str, frames: Sequence[Tuple[str, int, str]], versions: Optional[Dict[str, str]] = None,
               cut: bool = False, whole: bool = True) -> Tuple[Optional[RS.Raiser], Optional[Attribution]]:
    """Who raised the failure ``line`` (``frames``: its traceback's, outermost first; ``cut``: the log has the frames
    but not the exception line): the raising library frame, else the message index, else the exception's class or
    the C++ source the message quotes; and the index's attribution (for the message's text and fix), when any.
    (None, None) when nothing is certain: a raising frame in the user's own code with no library message."""
    by_frame = RS.from_frames(frames, cut, whole)
    att = None if cut else attribute(line, frames, versions)
    if by_frame is not None:
        if att is not None and not att.where and att.message.package == by_frame.package and \
                att.message.function.rsplit(".", 1)[-1] in by_frame.functions:  # the index agrees: add its releases
            by_frame = replace(by_frame, module=att.message.module, functions=(att.message.function,),
                               releases=att.message.span.describe())
        return by_frame, att
    caller = next(((p, n, f) for p, n, f in reversed(frames) if RS.library(p) is None and not RS.python_own(p)),
                  ("", 0, ""))
    found = _from_index(att) if att is not None else (None if cut else RS.from_message(line))
    return (replace(found, caller=caller) if found is not None else None), att


def unknown_groups(line: str, kind: str, frames: Sequence[Tuple[str, int, str]],
                   versions: Optional[Dict[str, str]] = None, whole: bool = True) -> Dict[str, str]:
    """What an ``unknown`` answer says of who raised ``line`` (``failure``'s ``kind``): ``who``, and when the
    message is the library's own ``said`` / ``fix``, and the ``raised_by`` fields (``rb_``-prefixed); {} when
    nothing is certain. ``whole``: the last frame's line is complete (see :func:`raiser.from_frames`)."""
    if kind not in (FM.EXCEPTION, FM.CUT):
        return {}
    rs, att = who_raised(line, frames, versions, kind == FM.CUT, whole)
    if rs is None:  # a cut launcher traceback (torchrun's main) did not raise the rank's failure: nobody is named
        return {"who": ""} if kind == FM.CUT and RS.launcher_cut(frames) else {}
    g = {"who": rs.said(), **{f"rb_{k}": v for k, v in rs.fields()}}
    bug = RR.candidate(line, {k: parse(v) for k, v in (versions or {}).items()})
    if bug is not None and (not (bug.frame or bug.code) or not any(FM.package(p) for p, _, _ in frames)):
        g["maybe_bug"] = bug.key  # a release bug prints it too; the log does not say it is that one (said conditionally)
    if att is not None:  # the message is the library's own (the index): quote it and the fix it states
        g.update(said=att.text, fix=att.fix, indexed="1")
    elif kind == FM.EXCEPTION:
        text = _EXC_PREFIX.sub("", line.strip(), count=1)
        g.update(said=text, fix=fix_sentence(text))
    return g
