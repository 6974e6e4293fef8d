"""``dsdoctor estimate``: will the model fit, and with which ZeRO stage / offload."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Mapping, Optional

from ..errors import UsageError
from ..estimate.inputs import ModelArgs
from ..exitcodes import FAILED, FINDINGS, OK
from . import Outcome

DEFAULT_LORA_TARGETS = ",".join(ModelArgs.lora_targets)


@dataclass
class Options:
    """``estimate``'s options (see ``dsdoctor estimate --help``); ``model_arg`` is the positional MODEL."""

    model_arg: Optional[str] = None
    model: Optional[str] = None
    params: Optional[float] = None
    largest_layer: Optional[float] = None
    layers: Optional[int] = None
    hidden: Optional[int] = None
    vocab: Optional[int] = None
    lora_r: Optional[int] = None
    lora_targets: str = DEFAULT_LORA_TARGETS
    qlora: bool = False
    seq_len: int = 2048
    micro_batch: int = 1
    no_grad_ckpt: bool = False
    gpus_per_node: Optional[int] = None
    nodes: int = 1
    gpu_mem: Optional[str] = None
    cpu_mem: Optional[str] = None
    margin: float = 0.1
    ds_version: Optional[str] = None  # None: the newest release dsdoctor knows
    transformers4: bool = False
    write_config: Optional[str] = None


def run(o: Options, env: Optional[Mapping[str, str]] = None) -> Outcome:
    """The estimate (``Outcome.report`` is an Estimate): exit 0 when an option fits (or fitting is undecidable:
    GPU memory unknown), 1 when none fits; bad input raises UsageError. ``--write-config`` writes the recommended
    option's ds_config (what it did goes to ``messages``, printed after the table)."""
    from ..estimate.core import estimate
    from ..estimate.inputs import InputError, hardware, workload
    from ..estimate.memory import parse_size
    from ..knowledge.deepspeed import LATEST_KNOWN
    from ..knowledge.versions import parse

    env = os.environ if env is None else env
    try:
        ds = parse(o.ds_version or LATEST_KNOWN)
        if ds is None:
            raise InputError(f"--ds-version {o.ds_version!r} is not a version")
        if o.margin < 0 or o.margin >= 1:
            raise InputError("--margin must be in [0, 1)")
        if o.model_arg and o.model and o.model_arg != o.model:
            raise InputError(f"two models given: {o.model_arg!r} and --model {o.model!r}")
        args = ModelArgs(
            model=o.model_arg or o.model, params=int(o.params) if o.params else None,
            largest_layer=int(o.largest_layer) if o.largest_layer else None,
            layers=o.layers, hidden=o.hidden, vocab=o.vocab, lora_r=o.lora_r,
            lora_targets=tuple(t.strip() for t in o.lora_targets.split(",") if t.strip()),
            qlora=o.qlora, seq_len=o.seq_len, micro_batch=o.micro_batch,
            grad_ckpt=not o.no_grad_ckpt, fused_experts=not o.transformers4)
        w = workload(args, env)
        hw = hardware(o.gpus_per_node, o.nodes, parse_size(o.gpu_mem), parse_size(o.cpu_mem), env)
    except UsageError:
        raise
    except ValueError as exc:  # parse_size and the model config's own values
        raise UsageError(str(exc)) from exc
    est = estimate(w, hw, ds, o.margin)
    code = FINDINGS if hw.gpu_mem is not None and est.recommended is None else OK
    out = Outcome(est, code)
    if o.write_config:
        if est.recommended is None:
            out.messages.append("dsdoctor: nothing written: no option fits (or GPU memory is unknown)")
            out.exit_code = FINDINGS if hw.gpu_mem is not None else FAILED
            return out
        from ..estimate.output import ds_config, write_atomic
        from ..probes.system import probe_limits

        try:
            pin = probe_limits().memlock_soft is None  # unlimited memlock: pinned offload buffers are safe
            write_atomic(o.write_config, ds_config(est.recommended, w.micro_batch, pin_memory=pin))
        except OSError as exc:
            out.messages.append(f"dsdoctor: cannot write {o.write_config}: {exc.strerror or exc}")
            out.exit_code = FAILED
            return out
        out.messages.append(f"wrote {o.write_config}")
    return out
