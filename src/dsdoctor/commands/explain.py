"""``dsdoctor explain``: the root cause in failed training logs (files, rank-log directories, stdin, live)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional

from ..cliparse import option
from ..render.formats import Format
from . import Outcome, conclude, settings
from . import options as O

HELP = "Find the root cause in a failed DeepSpeed / Hugging Face training log."


@dataclass
class Options:
    """``explain``'s options (see ``dsdoctor explain --help``)."""

    paths: List[str] = option("paths", default=[], nargs="*", metavar="PATH",
                              help="Log files, a directory of rank logs, or - for stdin (gzip accepted).")
    follow: bool = option("--follow", default=False, action="store_true",
                          help="Watch live logs; report as soon as a cause appears.")
    follow_seconds: Optional[float] = option("--follow-seconds", type=float,
                                             help="Stop following after this many seconds.")
    env: bool = option("--env", default=False, action="store_true",
                       help="Also run the environment checks and merge what they confirm.")
    python: Optional[str] = O.python()
    fmt: Format = O.fmt()
    verbose: bool = O.verbose()
    fail_on: Optional[str] = O.fail_on()
    exit_zero: bool = O.exit_zero()
    config: Optional[str] = O.config()


def run(o: Options) -> Outcome:
    """Diagnose the logs (``-``, stdin, when none is named); with ``env`` merge what ``check`` confirms, and answer
    with the environment's package versions where the log shows none."""
    from ..checks import evaluate, installed_versions, resolve_inputs
    from ..explain.envmerge import merge_reports
    from ..explain.logfiles import explain_paths, follow
    from ..probes.environment import collect

    resolve_inputs(o.python, None)  # an unusable --python is a usage error before any log is read
    facts = collect(o.python) if o.env else None
    installed = installed_versions(facts) if facts is not None else {}
    report = (follow(o.paths or ["-"], o.follow_seconds, installed=installed) if o.follow
              else explain_paths(o.paths or ["-"], installed))
    if facts is not None:
        merge_reports(report, evaluate(facts))
    return conclude(report, o, settings(o, o.paths))
