"""The commands: one module each (named as the command), the one home of its body: ``HELP`` (its ``--help``),
``Options`` (a dataclass whose fields are the options, each declared once with :func:`dsdoctor.cliparse.option`;
shared ones in :mod:`.options`) and a plain ``run(options) -> Outcome`` (no parsing, no rendering, no exit);
optionally ``EXTRA_ARGS = True`` (launch: the arguments after ``--``) and ``REPORTS_AS`` (fix: rendered as lint).

``dsdoctor.cli`` builds the parser from the ``Options``, parses the command line into them, calls ``run``, renders
``Outcome.report`` with :func:`dsdoctor.render.emit` and exits with ``Outcome.exit_code``. A command that cannot
run on its input raises :class:`dsdoctor.errors.UsageError` (exit 2). ``launch`` and ``smoke`` stream their
output while they run and return ``rendered=True``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, List, Mapping, Optional, Protocol, Sequence

if TYPE_CHECKING:
    from ..model import Report
    from ..settings import Settings


@dataclass
class Outcome:
    """What a command produced. ``report``: what to render (a Report; estimate's Estimate; None when nothing is
    left to print); ``edits``: lint's text edits per finding (SARIF ``fixes``); ``rendered``: the command printed
    its own output (``lint --diff``, launch, smoke, report, rules); ``messages``: stderr lines after the output."""

    report: Any
    exit_code: int
    edits: Optional[Mapping[Any, Sequence[Any]]] = None
    rendered: bool = False
    messages: List[str] = field(default_factory=list)


class Gate(Protocol):
    """The options of every command that reports findings: ``--fail-on``, ``--exit-zero``, ``--config``
    (:func:`.options.fail_on`, :func:`.options.exit_zero`, :func:`.options.config`)."""

    fail_on: Optional[str]
    exit_zero: bool
    config: Optional[str]


def settings(gate: Gate, paths: Sequence[str]) -> "Settings":
    """The command's configuration (``--config``, else the nearest one above ``paths``); raises SettingsError."""
    from ..settings import for_command

    return for_command(gate.config, list(paths))


def conclude(report: "Report", gate: Gate, config: "Optional[Settings]" = None,
             edits: Optional[Mapping[Any, Sequence[Any]]] = None, rendered: bool = False) -> Outcome:
    """Drop what the configuration ignores and decide the exit code: findings >= ``--fail-on``, else the
    configuration's ``fail-on``, else error (0 with ``--exit-zero``)."""
    from ..exitcodes import for_report

    fail_on = gate.fail_on
    if config is not None:
        from ..settings import apply

        report = apply(report, config)
        if fail_on is None and config.fail_on:
            fail_on = config.fail_on
    return Outcome(report, for_report(report, fail_on or "error", gate.exit_zero), edits, rendered)
