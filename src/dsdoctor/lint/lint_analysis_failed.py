"""lint-analysis-failed: analysing one file raised (an exception, a RecursionError, or it ran out of time).

Never a crash: the failure becomes a finding about that file and the run goes on with the other files. The check
yields nothing; :func:`dsdoctor.lint.one_file.lint_target` reports it (see :func:`failed`)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Iterable

from .. import names as N
from ..model import Finding, Fix, Severity
from ..spec import RuleExample
from .rule import Example, Hit, Rule, spec

if TYPE_CHECKING:
    from .target import Target

NAME = N.LINT_ANALYSIS_FAILED


class AnalysisTimeout(Exception):
    """Analysing one file took longer than its time budget."""


def failed(path: str, exc: BaseException) -> Hit:
    """The finding for ``path`` whose analysis raised ``exc``: the exception type and message, one line (never a
    traceback)."""
    msg = " ".join(str(exc).split())
    if len(msg) > 200:
        msg = msg[:197] + "..."
    what = f"{type(exc).__name__}: {msg}" if msg else type(exc).__name__
    title = f"not (fully) linted: analysing this file raised {what}"
    fix = Fix("report it to dsdoctor with the file (or a smaller one that fails the same way)")
    f = Finding(NAME, RULE.severity, title, RULE.why, (), (fix,), RULE.section, path, None, None)
    return Hit(f)


def _check(t: "Target") -> Iterable[Hit]:
    return ()  # lint_target reports it when the analysis of a file raised (see failed())


_SPEC = spec(
    NAME, "python", Severity.WARNING, section="Lint",
    summary="Analysing a file raised an error or ran out of time: the file was not (fully) linted",
    what="dsdoctor could not finish analysing one file: reading it, building what the rules see, or one rule's "
         "check raised (an unexpected exception, a RecursionError on deeply nested code) or took longer than its "
         "time budget. The finding names the file and what went wrong (the exception type and message). Reported "
         "for any file kind lint reads.",
    why="The rules that did not run on that file may have missed a problem there; the other files are linted as "
        "usual, and the run does not abort.",
    fix="Report it (it is a dsdoctor bug) with the file, or a smaller one that fails the same way. Meanwhile, "
        "simplify the construct it names (e.g. a generated expression thousands of levels deep), or suppress it "
        "with `# dsdoctor: ignore-file[lint-analysis-failed]`.")
_DEEP = "# from_pretrained, deepspeed.initialize\nx = " + " + ".join(["1"] * 1500) + "\n"

RULE = Rule(
    replace(_SPEC, docs=replace(_SPEC.docs, examples=(RuleExample(
        "lint", "A Python file that mentions `from_pretrained` and `deepspeed.initialize` (so it is analysed) with an "
        "expression 1500 terms long (reported: the analysis runs out of recursion depth).",
        "# from_pretrained, deepspeed.initialize\nx = 1 + 1 + 1 + ... + 1  # 1500 terms",
        source="dsdoctor.lint rule lint-analysis-failed (invalid example 1)"),))),
    check=_check,
    valid=(Example("# from_pretrained\nx = 1 + 1\n"),
           Example("# from_pretrained\ndef f(x=None):\n    x = x if x is not None else 1\n    if x:\n        pass\n")),
    invalid=(Example(_DEEP),),
)
