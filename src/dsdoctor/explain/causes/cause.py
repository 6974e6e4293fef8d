"""The shape of one cause ``dsdoctor explain`` can name (:class:`Cause`) and of the lines that show it
(:class:`Signature`). A cause is written once, in its area module, with everything about it: its name and
code (public contract), summary, What/Why/Fix docs, signatures (each a message or frame a library really
prints, with the library file and versions it comes from and sample lines), its advice builder, and which
pre-launch check predicts it. ``catalog``, ``ruledocs``, the scanner's signature table and
``explain --env``'s environment causes are derived from these (``registry``).

Every pattern is linear-time on any input: literals joined by bounded token classes, no nested or
unbounded repetition next to an overlapping class (``tests/test_explain_adversarial.py`` checks).
``needle`` is a literal every match contains (the prefilter reads only lines holding a needle).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Match, Optional, Pattern, Tuple, Union

from packaging.version import Version

from ... import names
from ...fixes import command_fix
from ...model import Applicability, Fix, Severity
from ...spec import Docs as Docs  # re-exported: the cause modules' docs
from ...spec import FindingSpec, RuleExample
from ...spec import log as log  # re-exported: the cause modules' docs examples

WIDE = ("cls", "type", "cmd", "line", "path")  # placeholders whose values may contain spaces


class LazyPattern:
    """A regex built and compiled when first used: importing the specs (every command reads the catalog's names
    and codes) compiles nothing, and a scan compiles only the patterns whose needle it met."""

    __slots__ = ("_make", "_text", "_rx")

    def __init__(self, pattern: Union[str, Callable[[], str]]) -> None:
        self._text: Optional[str] = pattern if isinstance(pattern, str) else None
        self._make = pattern if not isinstance(pattern, str) else None
        self._rx: Optional[Pattern[str]] = None

    @property
    def pattern(self) -> str:
        """The regex source."""
        if self._text is None:
            assert self._make is not None
            self._text = self._make()
        return self._text

    def compiled(self) -> Pattern[str]:
        if self._rx is None:
            self._rx = re.compile(self.pattern)
        return self._rx

    def search(self, text: str) -> Optional[Match[str]]:
        return self.compiled().search(text)

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern!r})"


@dataclass(frozen=True)
class Signature:
    """A line that shows a cause. ``name`` is filled from the cause by the registry."""

    name: str
    pattern: Union[Pattern[str], LazyPattern]
    symptom: bool = False  # a pointer to an earlier cause, never the cause itself
    needle: str = ""  # a literal every match contains (the prefilter)
    note: bool = False  # a notable warning, not a failure (listed when nothing failed)
    source: str = ""  # the library file (and versions) that prints it
    samples: Tuple[str, ...] = ()  # lines as the library prints them (tests: each matches, passes the prefilter)
    # a frame signature: the raising frame is (path suffix, function); ``pattern`` is then matched against the
    # exception line (often cut in real logs: keep it to a distinctive prefix, or empty for any exception)
    frame: Tuple[str, ...] = ()  # () or (path suffix, function)
    anywhere: bool = False  # a frame signature matching any frame of the traceback, not only the innermost
    code: Optional[Union[Pattern[str], LazyPattern]] = None  # a frame signature: the frame's source line must match too (a call into the failure)
    cause_with: str = ""  # a note that is the cause when a symptom line matching this regex is in the log
    rows: bool = False  # ``cause_with`` reads ds_report's op-table rows too (for any other note a row is context)
    below: Tuple[str, ...] = ()  # a frame signature: a deeper frame (called from the matched one) is (path suffix, function)
    template: str = ""  # a message signature's template (``msg``): tests check it against the message index
    lines: Tuple[int, ...] = ()  # a frame signature: the frame's line number is one of these (a branch the releases keep there)


@dataclass
class LogFacts:
    """What the log says about the environment (versions printed, GPU visibility, paths)."""

    ds: Optional[Version] = None
    ds_floor: Optional[str] = None  # inferred from message forms when no version is printed
    torch: Optional[str] = None
    torch_cuda: Optional[Tuple[int, int]] = None
    transformers: Optional[str] = None
    no_gpu: bool = False
    python: Optional[Tuple[int, int]] = None
    ext_root: Optional[str] = None
    platform: str = ""  # "windows" (native), "wsl", "macos", or "" (Linux or not shown): it vetoes fixes (fixes.for_platform)
    extra: Dict[str, str] = field(default_factory=dict)
    versions: Dict[str, str] = field(default_factory=dict)  # every package version the log shows, by package
    installed: Dict[str, str] = field(default_factory=dict)  # the environment's (explain --env), by package


@dataclass
class Advice:
    """What explain says about one diagnosis: a one-line summary, why, and ranked fixes.

    The Why is written once, in the cause's docs: a builder of a cause with a spec leaves ``why`` empty and the
    diagnoser says the docs Why (:meth:`Cause.why`); ``facts`` (what this log adds: versions, paths, values read
    from it) are said before it. ``why`` is the builder's own only for a case the docs Why does not cover, and then
    holds what the log shows (the matched line, a value or version read from it); a form (no spec) writes its own.
    """

    summary: str
    why: str
    fixes: List[Fix]
    facts: str = ""
    # who raised the failure, for an ``unknown`` answer (explain/raiser.py ``Raiser.fields``: the JSON's raised_by)
    attribution: Tuple[Tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Seen:
    """The first evidence line of a cause: its text and the template placeholders it filled."""

    text: str = ""
    groups: Dict[str, str] = field(default_factory=dict)


# an advice builder: (the cause's first evidence line, what the log says about the environment) -> Advice
Advise = Callable[[Seen, LogFacts], Advice]


@dataclass(frozen=True)
class Cause:
    """One cause explain can name: its finding name (a :mod:`dsdoctor.names` constant), the advice builder, the
    signatures (lines that show it), and ``spec`` when explain owns the name (its one
    :class:`~dsdoctor.spec.FindingSpec`; see :func:`cause`). A name another command owns (an environment check,
    a lint rule: :func:`form`) has no spec here; ``log_examples`` adds explain's examples to that owner's docs.

    ``predicted_by`` names the pre-launch finding that reports it before a run (a names constant: the command is
    the owner in the names table), ``estimate``, or ``""``: a form is predicted by its owner.
    """

    name: str
    advise: Advise
    signatures: Tuple[Signature, ...] = ()
    spec: Optional[FindingSpec] = None
    predicted: str = ""
    log_examples: Tuple[RuleExample, ...] = ()
    level: Optional[Severity] = None  # a form's severity in explain (default: error)
    # often a consequence of another failure in the same run (a collective timing out because another rank died):
    # reported first only when the log shows no other cause
    yields: bool = False

    @property
    def code(self) -> str:
        return names.code(self.name)

    @property
    def severity(self) -> Severity:
        return self.spec.severity if self.spec is not None else self.level or Severity.ERROR

    @property
    def summary(self) -> str:
        """The one-line summary (explain's own; a form's is its owner's, read through the catalog)."""
        return self.spec.summary if self.spec is not None else ""

    @property
    def docs(self) -> Optional[Docs]:
        return self.spec.docs if self.spec is not None else None

    def why(self, adv: Advice) -> str:
        """What explain says as the Why of ``adv`` (this cause's advice): its own ``why``, else the docs Why after
        the log's ``facts``."""
        if adv.why or self.spec is None:
            return adv.why
        return f"{adv.facts} {self.spec.docs.why}" if adv.facts else self.spec.docs.why

    @property
    def predicted_by(self) -> str:
        """``<command>:<name>`` of the finding that predicts it before launch, ``estimate``, or ``none``."""
        if ":" in self.predicted or self.predicted in ("none", "estimate", "verify"):
            return self.predicted  # another command's form of the name predicts it (check's of a lint rule)
        name = self.predicted or (self.name if self.spec is None else "")
        if not name:
            return "none"
        return f"{PREDICTING_COMMAND.get(names.owner(name), names.owner(name))}:{name}"


PREDICTING_COMMAND = {"multinode": "check --hostfile"}  # the command that reports an owner's names before launch


def cause(name: str, severity: Severity, summary: str, advise: Advise, docs: Docs,
          commands: Tuple[str, ...] = ("explain",), **kw: Any) -> Cause:
    """A cause whose name explain owns: its spec (reads ``log``) and the cause."""
    return Cause(name, advise, spec=FindingSpec(name, severity, summary, docs, commands), **kw)


def _units(text: str) -> List[str]:
    """A message template as regex units: one per literal character, one per ``{placeholder}`` (a named group
    of one bounded token, of bounded text for the ``WIDE`` ones)."""
    out: List[str] = []
    pos = 0
    for m in re.finditer(r"\{([a-z_]+)\}", text):
        out += [_unit(c, text) for c in text[pos:m.start()]]
        out.append(r"(?P<%s>%s)" % (m.group(1), r".{1,300}?" if m.group(1) in WIDE else r"\S{1,200}?"))
        pos = m.end()
    return out + [_unit(c, text) for c in text[pos:]]


def _gnu_quoted(text: str) -> bool:
    """The template quotes ``like this'`` (GNU's style: one backtick): markdown eats that backtick in a paste."""
    return text.count("`") == 1


def _unit(c: str, text: str) -> str:
    return "`?" if c == "`" and _gnu_quoted(text) else re.escape(c)


def _lit(text: str) -> str:
    return "".join(_units(text))


def lit(text: str) -> str:
    """The regex of a message template (see :func:`msg`), for a signature that changes one group."""
    return _lit(text)


CUT_MIN = 40  # a message cut after this many literal characters (placeholders between them allowed) still matches
CUT_NEEDLE = 16  # ... when the literal pieces in those first characters hold one this long (the needle)
CUT_SPAN = 150  # ... and one that goes on this far is taken as a whole


def _head(template: str) -> Tuple[int, str]:
    """How many units (see ``_units``) hold the template's first ``CUT_MIN`` literal characters (all of them when
    it is shorter), and the longest literal piece among those characters."""
    seen, units, best = 0, 0, ""
    for i, piece in enumerate(re.split(r"(\{[a-z_]+\})", template)):
        if i % 2:  # a placeholder
            units += 1
            continue
        take = piece[:CUT_MIN - seen]
        seen, units = seen + len(take), units + len(take)
        best = max([best, *(take.split("`") if _gnu_quoted(template) else [take])], key=len)
        if seen == CUT_MIN:
            return units, best
    return -1, best


def _cut(units: List[str], k: int) -> str:
    """``units[:k]``, then each next unit or the end of the line: the message, or a prefix of it that ends the
    line (a paste cut mid-message, a rich box cut at its edge, a message hard-wrapped or split over [rankN]:
    lines). Linear: each level is one unit or the end of the line."""
    tail = ""
    for u in reversed(units[k:k + CUT_SPAN]):
        tail = "(?:%s%s|\\s*$)" % (u, tail)
    return "".join(units[:k]) + tail


def _pieces(template: str) -> List[str]:
    """The literal pieces every match holds (a GNU-style opening backtick may be lost: split there too)."""
    return re.split(r"\{[a-z_]+\}|`" if _gnu_quoted(template) else r"\{[a-z_]+\}", template)


def msg(template: str, source: str, *samples: str, symptom: bool = False, note: bool = False, cut: bool = True,
        cause_with: str = "", rows: bool = False) -> Signature:
    """A signature from a message template (``{placeholder}`` = one token). When its first ``CUT_MIN`` literal
    characters hold a literal piece of ``CUT_NEEDLE`` characters (and ``cut``), a line that ends after at least
    those characters, mid-message, matches too; the needle is that piece. Otherwise the needle is the template's
    longest literal piece."""
    k, head = _head(template)
    if cut and k >= 0 and len(head) >= CUT_NEEDLE:
        return Signature("", LazyPattern(lambda: _cut(_units(template), k)), symptom, head, note, source, samples,
                         cause_with=cause_with, rows=rows, template=template)
    return Signature("", LazyPattern(lambda: _lit(template)), symptom, max(_pieces(template), key=len), note, source, samples,
                     cause_with=cause_with, rows=rows, template=template)


def rx(regex: str, needle: str, source: str, *samples: str, symptom: bool = False, note: bool = False,
       cause_with: str = "") -> Signature:
    """A signature from a regex (bounded classes only) and a literal every match contains."""
    return Signature("", LazyPattern(regex), symptom, needle, note, source, samples, cause_with=cause_with)


def frame(path: str, func: str, source: str, *samples: str, exc: str = "", anywhere: bool = False,
          code: str = "", symptom: bool = False, below: Tuple[str, ...] = (), lines: Tuple[int, ...] = ()) -> Signature:
    """A signature on the raising frame: the traceback's innermost frame (any frame with ``anywhere``) is in a
    file ending with ``path`` and function ``func`` (``"*"``: any), its source line matches the regex ``code`` (when given: the
    call the failure happened in, for a log cut below it), and the exception line matches the regex ``exc``.
    With ``below`` = (path suffix, function), a frame deeper than the matched one must be that one too (the failure
    happened inside a call the matched frame made, e.g. a quantized loader building the model under zero.Init).
    ``lines``: the frame's line is one of these (a source line cut mid-call still names its branch by its number, in
    the releases that keep it there). Samples are traceback excerpts (tests explain each and want this cause first)."""
    return Signature("", LazyPattern(exc), symptom, func, source=source, samples=samples, frame=(path, func), anywhere=anywhere,
                     code=LazyPattern(code) if code else None, below=below, lines=lines)


def code_fix(title: str, *edits: str, reason: str = "", applicability: Applicability = "safe") -> Fix:
    """A fix given as commands or edits (``ds_config: ...``, a code line)."""
    return command_fix(title, *edits, applicability=applicability, reason=reason)


def form(name: str, advise: Advise, **kw: Any) -> Cause:
    """explain's form of a name whose spec is elsewhere (an environment check, a lint rule): the name is enough,
    the docs are the owner's (``log_examples`` adds explain's examples to them)."""
    return Cause(name, advise, **kw)


COLLECT = (
    "dsdoctor verify --op cpu_adam   # rebuilds the op in a fresh dir and shows the compiler output",
    "dsdoctor check -v               # the environment the op is built in",
)


def hang_fix() -> Fix:
    """What to collect when a run hangs: every rank's stack."""
    return code_fix("Dump every rank's stack while it hangs and compare where each one waits",
                    "for p in $(pgrep -f train.py); do py-spy dump --pid $p; done   # your script's name",
                    reason="a rank that waits in a collective (broadcast, all_gather, barrier) while another is "
                           "elsewhere (a rank-conditional call, a data loader, a save) is what hangs the run; the one "
                           "that is not in the collective shows where the ranks diverged")


def cut_fix() -> Fix:
    """What to get when a traceback is cut before its exception line: the traceback's end, whole."""
    return code_fix("Get the traceback's last lines: its exception line names the failure",
                    "python train.py ... 2>&1 | tee run.log   # your command; keep every line of the output",
                    "grep -n -E '(Error|Exception)(:|$)' run.log | head -20   # the exception line and its message",
                    "deepspeed --enable_each_rank_log ./rank_logs ... train.py   # one whole file per rank",
                    reason="the paste stops inside the traceback, before the line that names the exception and its "
                           "message; the frames alone do not say what failed")


def collect_fix() -> Fix:
    """What to collect when the log does not show the cause."""
    return code_fix("Collect what shows the cause", *COLLECT,
                    reason="and keep the full build log (the lines between 'Building extension module' and the error)")
