"""Rendering ``estimate`` results (text table / JSON) and writing the recommended ds_config atomically."""

from __future__ import annotations

import json
import sys
from typing import Any, Dict, TextIO

from .core import TRADEOFF, Estimate, Option

GiB = 1 << 30


def _g(n: int) -> str:
    return f"{n / GiB:,.2f}G"


def render_json(est: Estimate) -> str:
    return json.dumps(est.to_json(), indent=2)


def render_text(est: Estimate, out: TextIO = sys.stdout) -> None:
    from rich.table import Table

    from ..render.console import console

    con = console(out)
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


def ds_config(opt: Option, micro_batch: int, nvme_path: str = "/local_nvme", pin_memory: bool = True) -> Dict[str, Any]:
    """A ds_config for ``opt``: concrete values (no "auto"), bf16, the optimizer DeepSpeed offloads to
    DeepSpeedCPUAdam, and 16-bit gathering on save under ZeRO-3. ``pin_memory`` only where the memlock
    limit allows it (an explicit false: DeepSpeed 0.19.5+ pins by default)."""
    zero: Dict[str, Any] = {"stage": opt.stage, "overlap_comm": True, "contiguous_gradients": True}
    for key, dev in (("offload_optimizer", opt.offload_optimizer), ("offload_param", opt.offload_param)):
        if dev != "none":
            block: Dict[str, Any] = {"device": dev, "pin_memory": pin_memory}
            if dev == "nvme":
                block["nvme_path"] = nvme_path
            zero[key] = block
    if opt.stage == 3:
        zero["stage3_gather_16bit_weights_on_model_save"] = True
    return {
        "train_micro_batch_size_per_gpu": micro_batch,
        "gradient_accumulation_steps": 1,
        "gradient_clipping": 1.0,
        "bf16": {"enabled": True},
        "optimizer": {"type": "AdamW", "params": {"lr": 2e-5, "betas": [0.9, 0.999], "eps": 1e-8,
                                                  "weight_decay": 0.0}},
        "zero_optimization": zero,
    }


def write_atomic(path: str, data: Dict[str, Any]) -> None:
    """Write the ds_config JSON to ``path`` atomically."""
    from ..atomic import write_text

    write_text(path, json.dumps(data, indent=2) + "\n")
