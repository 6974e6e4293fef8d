"""``dsdoctor explain``: the root cause in failed training logs (files, rank-log directories, stdin, live)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional

from . import Gate, Outcome, conclude, settings


@dataclass
class Options(Gate):
    """``explain``'s options (see ``dsdoctor explain --help``)."""

    paths: List[str] = field(default_factory=list)
    follow: bool = False
    follow_seconds: Optional[float] = None
    env: bool = False
    python: Optional[str] = None


def run(o: Options) -> Outcome:
    """Diagnose the logs (``-``, stdin, when none is named); with ``env`` merge what ``check`` confirms."""
    from ..checks import resolve_inputs
    from ..explain.command import explain_paths, follow, merge_env

    resolve_inputs(o.python, None)  # an unusable --python is a usage error before any log is read
    if o.follow:
        report = follow(o.paths or ["-"], o.follow_seconds)
        if o.env:
            merge_env(report, o.python)
    else:
        report = explain_paths(o.paths or ["-"], env=o.env, python=o.python)
    return conclude(report, o, settings(o, o.paths))
