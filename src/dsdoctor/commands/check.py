"""``dsdoctor check``: the environment preflight, the project's lint, or every node of a hostfile."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from . import Gate, Outcome, conclude, settings


@dataclass
class Options(Gate):
    """``check``'s options (see ``dsdoctor check --help``)."""

    python: Optional[str] = None
    nvme: bool = False
    ds_config: Optional[str] = None
    no_lint: bool = False
    hostfile: Optional[str] = None
    include: str = ""
    exclude: str = ""
    transport: str = "auto"
    timeout: float = 120.0


def run(o: Options) -> Outcome:
    """Preflight this environment (or every node of ``--hostfile``), then lint the current directory."""
    from ..checks import resolve_inputs, run_check

    config = settings(o, ["."])
    if o.hostfile is not None:
        from ..multinode.command import check_hostfile

        report = check_hostfile(o.hostfile, o.include, o.exclude, o.transport, o.python, o.timeout, o.nvme)
        return conclude(report, o, config)
    interp, intent = resolve_inputs(o.python, o.ds_config)
    report = run_check(o.python, nvme=o.nvme, interp=interp, intent=intent)
    if not o.no_lint:
        from ..lint.project import lint_project, merge

        merge(report, lint_project(".", report.facts.get("deepspeed"), o.python, config))
    return conclude(report, o, config)
