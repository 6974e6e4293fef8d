"""``dsdoctor estimate``: will the model fit, and with which ZeRO / offload setup."""

from __future__ import annotations

import sys
from typing import Any, Dict, Mapping

from ..knowledge.versions import parse


def _model(positional: Any, option: Any) -> Any:
    """``estimate MODEL`` (as ``accelerate estimate-memory MODEL``) or ``--model MODEL``; both only if equal."""
    from .inputs import InputError

    if positional and option and positional != option:
        raise InputError(f"two models given: {positional!r} and --model {option!r}")
    return positional or option


def run_estimate(opts: Dict[str, Any], env: Mapping[str, str], json_out: bool) -> int:
    """The command's body: 0 an option fits (or fitting is undecidable), 1 none fits, 2 bad input."""
    from .core import estimate
    from .inputs import InputError, ModelArgs, hardware, workload
    from .memory import parse_size
    from .output import ds_config, render_json, render_text, write_atomic

    try:
        from ..knowledge.deepspeed import LATEST_KNOWN

        ds = parse(opts.get("ds_version") or LATEST_KNOWN)
        if ds is None:
            raise InputError(f"--deepspeed-version {opts['ds_version']!r} is not a version")
        if opts["margin"] < 0 or opts["margin"] >= 1:
            raise InputError("--margin must be in [0, 1)")
        model = _model(opts.get("model_arg"), opts["model"])
        args = ModelArgs(
            model=model, params=int(opts["params"]) if opts["params"] else None,
            largest_layer=int(opts["largest_layer"]) if opts["largest_layer"] else None,
            layers=opts["layers"], hidden=opts["hidden"], vocab=opts["vocab"], lora_r=opts["lora_r"],
            lora_targets=tuple(t.strip() for t in opts["lora_targets"].split(",") if t.strip()),
            qlora=opts["qlora"], seq_len=opts["seq_len"], micro_batch=opts["micro_batch"],
            grad_ckpt=not opts["no_grad_ckpt"], fused_experts=not opts["transformers4"])
        w = workload(args, env)
        hw = hardware(opts["gpus_per_node"], opts["nodes"], parse_size(opts["gpu_mem"]), parse_size(opts["cpu_mem"]),
                      env)
    except (InputError, ValueError) as exc:
        print(f"dsdoctor: {exc}", file=sys.stderr)
        return 2
    est = estimate(w, hw, ds, opts["margin"])
    if json_out:
        sys.stdout.write(render_json(est) + "\n")
    else:
        render_text(est)
    if opts["write_config"]:
        if est.recommended is None:
            print("dsdoctor: nothing written: no option fits (or GPU memory is unknown)", file=sys.stderr)
            return 1 if hw.gpu_mem is not None else 2
        try:
            from ..probes.system import probe_limits

            pin = probe_limits().memlock_soft is None  # unlimited memlock: pinned offload buffers are safe
            write_atomic(opts["write_config"], ds_config(est.recommended, w.micro_batch, pin_memory=pin))
        except OSError as exc:
            print(f"dsdoctor: cannot write {opts['write_config']}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        print(f"wrote {opts['write_config']}", file=sys.stderr)
    if hw.gpu_mem is not None and est.recommended is None:
        return 1
    return 0
