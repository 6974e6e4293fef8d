"""``dsdoctor verify``: really build and load DeepSpeed ops and name the root cause of a failure."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import List, Optional

from ..cliparse import option
from ..errors import UsageError
from ..render.formats import Format
from . import Outcome, conclude, settings
from . import options as O

HELP = "Really build and load DeepSpeed ops (as `CPUAdamBuilder().load()` would) and report the root cause."


@dataclass
class Options:
    """``verify``'s options (see ``dsdoctor verify --help``); ``fmt`` / ``verbose`` also decide the progress shown
    while building and whether the build logs' tails are printed."""

    python: Optional[str] = O.python()
    op: Optional[List[str]] = option("--op", action="append", help="Op to build and load: cpu_adam (default), "
                                     "async_io, ... (repeatable).")
    timeout: float = option("--timeout", default=900.0, type=float, help="Seconds before the build is declared hung.")
    extensions_dir: Optional[str] = option("--extensions-dir", help="TORCH_EXTENSIONS_DIR to build in (default: a "
                                           "fresh temporary one).")
    fmt: Format = O.fmt()
    verbose: bool = O.verbose()
    fail_on: Optional[str] = O.fail_on()
    exit_zero: bool = O.exit_zero()
    config: Optional[str] = O.config()


def run(o: Options) -> Outcome:
    """Build each op (default cpu_adam) with a timeout, diagnose each result, merge them into one report."""
    from ..model import Report
    from ..probes.child import BUILDERS
    from ..verify import build_op, default_python, diagnose

    ops = o.op or ["cpu_adam"]
    bad = [name for name in ops if name not in BUILDERS]
    if bad:
        raise UsageError(f"unknown op {bad[0]!r}; choose from {', '.join(BUILDERS)}")
    text = str(getattr(o.fmt, "value", o.fmt)) == "text"
    py = default_python(o.python)
    merged = Report()
    for name in ops:
        if text and sys.stderr.isatty():
            from rich.console import Console

            con = Console(stderr=True, emoji=False)
            with con.status(f"building {name} with DeepSpeed ...") as status:

                def tick(seconds: float, n: str = name) -> None:
                    status.update(f"building {n} with DeepSpeed ... {seconds:.0f}s")

                res = build_op(name, py, o.timeout, o.extensions_dir, tick=tick)
        else:
            if text:
                print(f"building {name} with DeepSpeed (timeout {o.timeout:g}s) ...", file=sys.stderr)
            res = build_op(name, py, o.timeout, o.extensions_dir)
        rep = diagnose(res, o.python)
        if o.extensions_dir is None:  # its own temporary directory: kept after a failure only for what the build wrote
            try:
                os.rmdir(res.extensions_dir)  # (removes it only when empty; a passing build's is gone already)
            except OSError:
                pass
        merged.findings += rep.findings
        merged.passed += rep.passed
        merged.facts[name] = rep.facts
    if text and o.verbose:
        for name in ops:
            tail = merged.facts[name].get("log_tail")
            if tail:
                print(f"--- {name} build log (tail) ---\n{tail}\n---")
    return conclude(merged, o, settings(o, ["."]))
