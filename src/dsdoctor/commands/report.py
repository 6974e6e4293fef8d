"""``dsdoctor report``: a Markdown bug report (versions, environment, findings, log tail and diagnosis) on
stdout or written to ``--output``; secrets redacted. It prints the report itself (``rendered``)."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Optional

from ..errors import UsageError
from ..exitcodes import OK
from . import Outcome


@dataclass
class Options:
    """``report``'s options (see ``dsdoctor report --help``)."""

    log: Optional[str] = None
    ds_config: Optional[str] = None
    python: Optional[str] = None
    redact_paths: bool = False
    output: Optional[str] = None
    no_lint: bool = False


def run(o: Options) -> Outcome:
    """Write the report; bad input or an unwritable ``--output`` raises UsageError."""
    from ..atomic import write_text
    from ..redact_streams import set_redact_paths
    from ..report import Inputs, render

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
