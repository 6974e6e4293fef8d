"""``dsdoctor lint`` and ``dsdoctor fix`` (lint with ``fix=True``): lint, plan and apply or show the fixes."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, List, Optional

from ..cliparse import option
from ..errors import UsageError
from ..paths import inside
from ..render.formats import Format
from . import Outcome, conclude, settings
from . import options as O

if TYPE_CHECKING:
    from ..lint import LintResult


HELP = "Lint DeepSpeed configs, hostfiles, .deepspeed_env, launch scripts and Python training scripts."
PATHS_HELP = "Files or directories (default: the current directory)."
DIFF_HELP = "Print the fixes as a unified diff; change nothing."


@dataclass
class Options:
    """``lint``'s options (see ``dsdoctor lint --help``); ``dsdoctor fix`` is lint with ``fix=True``."""

    paths: List[str] = option("paths", default=[], nargs="*", metavar="PATH", help=PATHS_HELP)
    world_size: Optional[int] = option("--world-size", type=int,
                                       help="Ranks in the run (else from launcher args / hostfile).")
    ds_version: Optional[str] = option("--ds-version", help="DeepSpeed version to lint for (default: the project's exact pin, else installed).")
    loaded_by: Optional[str] = O.loaded_by()
    fix: bool = option("--fix", default=False, action="store_true",
                       help="Apply safe fixes (formatting and comments kept; atomic writes).")
    unsafe_fixes: bool = option("--unsafe-fixes", default=False, action="store_true",
                                help="With --fix/--diff: also unsafe fixes.")
    diff: bool = option("--diff", default=False, action="store_true", help=DIFF_HELP)
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
    """Lint (and fix) ``paths`` (default: the current directory). ``--diff`` prints the diff itself
    (``rendered``: the caller renders nothing but exits with the shared exit code). ``sniff``: named JSON/YAML
    files that do not look like a DeepSpeed / accelerate config are skipped (for hooks that pass every changed
    file)."""
    from ..lint import lint
    from ..lint.fix import diff as make_diff
    from ..lint.fix import plan, write

    paths = o.paths or ["."]
    config = settings(o, paths)
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        raise UsageError(f"no such file or directory: {missing[0]}")
    if o.sniff:
        paths = [p for p in paths if looks_linted(p)]
        if not paths:
            from ..model import Report

            return conclude(Report(facts={"files": []}), o, config)
    if o.world_size is not None and o.world_size <= 0:
        raise UsageError("--world-size must be positive")
    try:
        from ..settings import parse_targets

        parse_targets(o.target)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc

    def again() -> "LintResult":
        return lint(paths, world_size=o.world_size, ds_version=o.ds_version, targets=o.target, python=o.python,
                    zero_stage=o.zero_stage, settings=config, loaded_by=o.loaded_by)

    res = again()
    changes = plan(res.edits, o.unsafe_fixes) if (o.fix or o.diff) else {}
    changes = {p: c for p, c in changes.items() if not p.endswith(".py") or inside(p, paths)}
    if o.diff:
        sys.stdout.write(make_diff(changes))
        res.diff_printed = True
    elif o.fix and changes:
        written = write(changes)
        res = again()
        res.report.facts["fixed"] = written
    return conclude(res.report, o, config, res.fix_edits, rendered=res.diff_printed)


def looks_linted(path: str) -> bool:
    """False for a named JSON/HJSON file with no top-level key DeepSpeed reads, or a YAML file that is not an
    accelerate config (package.json, CI workflows, ...); True for everything else lint reads."""
    import re

    from ..knowledge.deepspeed import TOP_LEVEL_KEYS
    from ..lint.discover import _read, kind_of

    if os.path.isdir(path):
        return True
    kind = kind_of(path)
    text = _read(path, 2**20)
    if kind == "ds_config":
        keys = "|".join(map(re.escape, TOP_LEVEL_KEYS))
        return re.search(rf"""(?m)(?:^|[{{,\s])["']?(?:{keys})["']?\s*:""", text) is not None
    if kind == "accelerate":
        return re.search(r"(?m)^\s*(?:deepspeed_config|distributed_type|compute_environment)\s*:", text) is not None
    return True


