"""``dsdoctor launch``: preflight, then run the launcher command unchanged; explain a failure. The launcher's
output streams through as it runs (``rendered``); the exit code is the launcher's (1 when the preflight stops it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional

from ..errors import UsageError
from . import Outcome


@dataclass
class Options:
    """``launch``'s options (see ``dsdoctor launch --help``); ``extra`` is the launcher command after ``--``."""

    hostfile: Optional[str] = None
    include: str = ""
    exclude: str = ""
    python: Optional[str] = None
    yes: bool = False
    prebuild: bool = False
    preflight: bool = True
    transport: str = "auto"
    timeout: float = 120.0
    fmt: str = "text"
    verbose: bool = False
    extra: List[str] = field(default_factory=list)


def run(o: Options) -> Outcome:
    """The whole launch flow (:func:`dsdoctor.launch.main`)."""
    from ..launch import main

    if not o.extra:
        raise UsageError("usage: dsdoctor launch [options] -- deepspeed ... train.py ...")
    try:
        rc = main(list(o.extra), o.hostfile, o.include, o.exclude, o.python, o.yes, o.prebuild, o.preflight,
                  o.transport, o.timeout, str(getattr(o.fmt, "value", o.fmt)) == "json", o.verbose)
    except OSError as exc:
        raise UsageError(str(exc)) from exc
    return Outcome(None, rc, rendered=True)
