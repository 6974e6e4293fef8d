"""``dsdoctor report``: a Markdown bug report (built by :mod:`dsdoctor.bugreport`) (versions, environment, findings, log tail and diagnosis) on
stdout or written to ``--output``; secrets redacted. It prints the report itself (``rendered``)."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Optional

from ..cliparse import option
from ..errors import UsageError
from ..exitcodes import OK
from . import Outcome
from . import options as O

HELP = """A Markdown bug report to paste into an issue: versions, environment, findings, log tail and diagnosis.
    Secrets are redacted."""


@dataclass
class Options:
    """``report``'s options (see ``dsdoctor report --help``)."""

    log: Optional[str] = option("--log", help="A failed training log (file, rank-log directory, gzip): its tail and "
                                "explain's diagnosis.")
    ds_config: Optional[str] = O.ds_config(f"{O.DS_CONFIG_HELP}.")
    python: Optional[str] = O.python()
    redact_paths: bool = option("--redact-paths", default=False, action="store_true", help="Also replace user names "
                                "in home paths with $USER (default: DSDOCTOR_REDACT_PATHS=1).")
    output: Optional[str] = option("--output", "-o", help="Write the report to this file (atomically).")
    no_lint: bool = O.no_lint("Do not lint the current directory.")


def run(o: Options) -> Outcome:
    """Write the report; bad input or an unwritable ``--output`` raises UsageError."""
    from ..atomic import write_text
    from ..bugreport import Inputs, render
    from ..redact_streams import set_redact_paths

    if o.redact_paths:
        set_redact_paths(True)  # also what dsdoctor prints besides the report (messages, errors)
    if o.output is not None and os.path.isdir(o.output):
        raise UsageError(f"-o {o.output}: is a directory")
    text = render(Inputs(log=o.log, ds_config=o.ds_config, python=o.python, lint=not o.no_lint))
    if o.output is None:
        sys.stdout.write(text)
        return Outcome(None, OK, rendered=True)
    try:
        write_text(o.output, text)
    except OSError as exc:
        raise UsageError(f"cannot write {o.output}: {exc.strerror or exc}") from exc
    print(f"dsdoctor: wrote {o.output} (secrets redacted; review it before posting)", file=sys.stderr)
    return Outcome(None, OK, rendered=True)
