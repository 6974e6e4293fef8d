"""``dsdoctor fix``: lint's fixes applied (``dsdoctor lint --fix``, :mod:`.lint`); reported as lint reports."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import List, Optional

from ..cliparse import option
from ..render.formats import Format
from . import Outcome, lint
from . import options as O

HELP = "Apply lint's fixes (same as `dsdoctor lint --fix`): minimal edits, formatting kept, atomic writes."
REPORTS_AS = "lint"  # the command name its report is rendered under


@dataclass
class Options:
    """``fix``'s options (see ``dsdoctor fix --help``): lint's, less those fixing makes moot."""

    paths: List[str] = option("paths", default=[], nargs="*", metavar="PATH",
                              help="Files or directories to fix (default: the current directory).")
    unsafe_fixes: bool = option("--unsafe-fixes", default=False, action="store_true",
                                help="Also apply unsafe fixes.")
    diff: bool = option("--diff", default=False, action="store_true", help=lint.DIFF_HELP)
    loaded_by: Optional[str] = O.loaded_by()
    target: List[str] = O.target()
    zero_stage: Optional[int] = O.zero_stage()
    python: Optional[str] = O.python()
    fmt: Format = O.fmt()
    verbose: bool = O.verbose()
    sniff: bool = O.sniff()
    fail_on: Optional[str] = O.fail_on()
    exit_zero: bool = O.exit_zero()
    config: Optional[str] = O.config()


def run(o: Options) -> Outcome:
    """``lint --fix`` with these options."""
    return lint.run(lint.Options(fix=True, **{f.name: getattr(o, f.name) for f in fields(o)}))
