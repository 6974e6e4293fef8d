"""The ``dsdoctor smoke`` command body: inputs, live progress, rendering."""

from __future__ import annotations

import os
import sys
from typing import Any, Dict, Optional


def run_smoke(python: Optional[str], nproc: int, config: Optional[str], model: Optional[str], steps: int,
              timeout: float, json_out: bool, verbose: bool) -> int:
    from ..dsconfig import ConfigError, load
    from . import default_config, fill_auto, run
    from .checks import report

    if nproc < 1 or steps < 4 or timeout <= 0:
        print("dsdoctor: --nproc >= 1, --steps >= 4 and --timeout > 0 are required", file=sys.stderr)
        return 2
    py = os.path.abspath(python or sys.executable)
    if not (os.path.isfile(py) and os.access(py, os.X_OK)):
        print(f"dsdoctor: cannot use --python {py}: not an executable file", file=sys.stderr)
        return 2
    model_cfg: Optional[Dict[str, Any]] = None
    try:
        cfg = fill_auto(load(config), nproc) if config else default_config()
        if model:
            from ..estimate.inputs import InputError, find_config, load_config

            try:
                model_cfg = load_config(find_config(model, os.environ))
            except InputError as exc:
                raise ConfigError(str(exc)) from exc
    except ConfigError as exc:
        print(f"dsdoctor: {exc}", file=sys.stderr)
        return 2

    def progress(msg: str) -> None:
        if not json_out:
            print(f"  {msg}", file=sys.stderr, flush=True)

    if not json_out:
        print(f"smoke: ZeRO-{(cfg.get('zero_optimization') or {}).get('stage', '?')} run, {nproc} process(es), "
              f"timeout {timeout:g}s ...", file=sys.stderr, flush=True)
    res = run(py, cfg, nproc, timeout, steps, model_cfg, progress=progress)
    rep = report(res)
    if json_out:
        from ..render.json_out import render as render_json

        sys.stdout.write(render_json(rep, "smoke") + "\n")
    else:
        from ..render.text import render as render_text

        render_text(rep, verbose=verbose)
        if verbose and rep.facts.get("log_tail"):
            print(f"--- smoke log (tail) ---\n{rep.facts['log_tail']}\n---")
    if res.interrupted:
        return 130
    return rep.exit_code()
