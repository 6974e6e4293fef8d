"""``estimate`` output: the memory table per ZeRO stage x offload option (text) and its JSON document."""

from __future__ import annotations

import json
import sys
from typing import Optional, TextIO

from ..estimate.core import TRADEOFF, Estimate

GiB = 1 << 30


def _g(n: int) -> str:
    return f"{n / GiB:,.2f}G"


def render_json(est: Estimate) -> str:
    """The estimate as JSON (its own shape: options, recommended, model, hardware; docs/estimate.md)."""
    return json.dumps(est.to_json(), indent=2)


def render_text(est: Estimate, out: Optional[TextIO] = None) -> None:
    """The model and hardware lines, the table (the recommended option marked) and the recommendation."""
    from rich.table import Table

    from .console import console

    con = console(out or sys.stdout)
    w, hw = est.workload, est.hardware
    con.print(f"model: {w.total_params / 1e6:,.1f}M params, largest layer {w.largest_layer / 1e6:,.1f}M"
              + (f", trainable {w.trainable / 1e6:,.2f}M" if w.trainable != w.total_params else "")
              + f"  [dim]({w.source})[/dim]")
    gm = _g(hw.gpu_mem) if hw.gpu_mem else "unknown"
    cm = _g(hw.cpu_mem) if hw.cpu_mem else "unknown"
    con.print(f"hardware: {hw.nodes} node(s) x {hw.gpus_per_node} GPU(s), {gm} per GPU, {cm} RAM per node  "
              f"[dim]({hw.source})[/dim]")
    t = Table(show_edge=False, title="memory per option (offload device for the optimizer / params; GiB)")
    for col in ("ZeRO", "opt", "param", "GPU", "(states)", "CPU/node", "(states)", "fits"):
        t.add_column(col, justify="right" if col[0] in "G(C" else "left", no_wrap=True)
    for o in est.options:
        fits = "?" if o.fits is None else ("yes" if o.fits else "no")
        mark = " ◀" if est.recommended is o else ""
        t.add_row(str(o.stage), o.offload_optimizer, o.offload_param, _g(o.gpu_bytes), _g(o.model_states_gpu_bytes),
                  _g(o.cpu_bytes), _g(o.model_states_cpu_bytes), fits + mark)
    con.print(t)
    rec = est.recommended
    if rec:
        con.print(f"recommended: ZeRO-{rec.stage}, offload_optimizer={rec.offload_optimizer}, "
                  f"offload_param={rec.offload_param} (fits with a {est.margin:.0%} margin)")
        con.print(f"  {TRADEOFF[rec.key]}")
    elif hw.gpu_mem is None:
        con.print("no recommendation: GPU memory unknown; give --gpu-mem (e.g. --gpu-mem 80GB)")
    else:
        for f in est.findings():
            con.print(f"[red]{f.title}[/red] [dim]\\[{f.name} {f.code}][/dim]: {f.explanation}")
    for n in est.notes:
        con.print(f"[dim]note: {n}[/dim]")
