"""``dsdoctor smoke``: a real ZeRO-3 offload run of a tiny model through the deepspeed launcher, with checks.
It streams progress on stderr while it runs and renders its report itself (``rendered``)."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from typing import Any, Dict, Optional

from ..cliparse import option
from ..errors import UsageError
from ..exitcodes import INTERRUPTED
from ..render.formats import Format
from . import Outcome
from . import options as O

HELP = "Prove it runs: a real ZeRO-3 offload run of a tiny model through the deepspeed launcher, with checks."

SMOKE_CONFIG_MOVED = ("smoke's DeepSpeed config is --ds-config (--config is dsdoctor's own configuration file in "
                      "every other command): use --ds-config {path}")


@dataclass
class Options:
    """``smoke``'s options (see ``dsdoctor smoke --help``); ``old_config`` is the retired ``--config``."""

    python: Optional[str] = O.python()
    nproc: int = option("--nproc", default=1, type=int, help="Processes (ranks) to launch.")
    ds_config: Optional[str] = O.ds_config("Your ds_config (default: ZeRO-3, both offloads to CPU).")
    old_config: Optional[str] = option("--config", help=argparse.SUPPRESS)
    model: Optional[str] = option("--model", help="Model dir / config.json: its architecture, scaled down.")
    steps: int = option("--steps", default=12, type=int)
    timeout: float = option("--timeout", default=900.0, type=float,
                            help="Overall seconds before everything is stopped.")
    fmt: Format = O.fmt()
    verbose: bool = O.verbose()


def run(o: Options) -> Outcome:
    """Run the smoke test; exit 0 passed, 1 a check failed, 130 interrupted; bad input raises UsageError."""
    from ..dsconfig import load
    from ..exitcodes import for_report
    from ..probes.interpreter import default_executable, locate
    from ..render import emit
    from ..smoke.checks import report
    from ..smoke.config import default_config, fill_auto
    from ..smoke.runner import run as run_smoke

    if o.old_config is not None:
        raise UsageError(SMOKE_CONFIG_MOVED.format(path=o.old_config))
    if o.nproc < 1 or o.steps < 4 or o.timeout <= 0:
        raise UsageError("--nproc >= 1, --steps >= 4 and --timeout > 0 are required")
    py = os.path.abspath(locate(o.python) if o.python else default_executable())
    if not (os.path.isfile(py) and os.access(py, os.X_OK)):
        raise UsageError(f"cannot use --python {py}: not an executable file")
    cfg = fill_auto(load(o.ds_config), o.nproc) if o.ds_config else default_config()
    model_cfg: Optional[Dict[str, Any]] = None
    if o.model:
        from ..estimate.inputs import find_config, load_config

        model_cfg = load_config(find_config(o.model, os.environ))
    fmt = str(getattr(o.fmt, "value", o.fmt))
    json_out = fmt == "json"

    def progress(msg: str) -> None:
        if not json_out:
            print(f"  {msg}", file=sys.stderr, flush=True)

    if not json_out:
        print(f"smoke: ZeRO-{(cfg.get('zero_optimization') or {}).get('stage', '?')} run, {o.nproc} process(es), "
              f"timeout {o.timeout:g}s ...", file=sys.stderr, flush=True)
    res = run_smoke(py, cfg, o.nproc, o.timeout, o.steps, model_cfg, progress=progress)
    rep = report(res)
    emit(rep, "smoke", "json" if json_out else "text", o.verbose)
    if not json_out and o.verbose and rep.facts.get("log_tail"):
        print(f"--- smoke log (tail) ---\n{rep.facts['log_tail']}\n---")
    return Outcome(rep, INTERRUPTED if res.interrupted else for_report(rep), rendered=True)
