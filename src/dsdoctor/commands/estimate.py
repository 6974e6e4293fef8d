"""``dsdoctor estimate``: will the model fit, and with which ZeRO stage / offload."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Mapping, Optional

from ..cliparse import option
from ..errors import UsageError
from ..exitcodes import FAILED, FINDINGS, OK
from ..render.formats import Format
from . import Outcome
from . import options as O

HELP = "Will it fit? Every ZeRO-2/3 x offload option with per-GPU and per-node memory, and the fastest that fits."
# estimate.inputs.ModelArgs.lora_targets (not imported here: the parser is built on every start; a test checks)
DEFAULT_LORA_TARGETS = "q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj"


@dataclass
class Options:
    """``estimate``'s options (see ``dsdoctor estimate --help``); ``model_arg`` is the positional MODEL."""

    model_arg: Optional[str] = option("model_arg", nargs="?", metavar="MODEL",
                                      help="Model dir, config.json, or org/name in the local HF cache.")
    model: Optional[str] = option("--model", help="The same as MODEL.")
    params: Optional[float] = option("--params", type=float, help="Total parameters (e.g. 7e9) instead of --model.")
    largest_layer: Optional[float] = option("--largest-layer", type=float, help="Largest layer's parameters.")
    layers: Optional[int] = option("--layers", type=int)
    hidden: Optional[int] = option("--hidden", type=int)
    vocab: Optional[int] = option("--vocab", type=int)
    lora_r: Optional[int] = option("--lora-r", type=int, help="LoRA rank: only adapters are trained.")
    lora_targets: str = option("--lora-targets", default=DEFAULT_LORA_TARGETS)
    qlora: bool = option("--qlora", default=False, action="store_true", help="4-bit base weights (with --lora-r).")
    seq_len: int = option("--seq-len", default=2048, type=int)
    micro_batch: int = option("--micro-batch", default=1, type=int)
    no_grad_ckpt: bool = option("--no-gradient-checkpointing", default=False, action="store_true")
    gpus_per_node: Optional[int] = option("--gpus-per-node", type=int, help="Default: detected (NVML/nvidia-smi).")
    nodes: int = option("--nodes", default=1, type=int)
    gpu_mem: Optional[str] = option("--gpu-mem", help="Per GPU, e.g. 80GB (default: detected).")
    cpu_mem: Optional[str] = option("--cpu-mem", help="Per node, e.g. 512GB (default: this host's RAM).")
    margin: float = option("--margin", default=0.1, type=float,
                           help="Headroom an option must leave to count as fitting.")
    ds_version: Optional[str] = option(  # None: the newest release dsdoctor knows
        "--ds-version", "--deepspeed-version", help="Whose estimator formulas to use (the DeepSpeed version, as "
        "lint's --ds-version). [default: the newest release dsdoctor knows]")
    transformers4: bool = option("--transformers4", default=False, action="store_true",
                                 help="Count MoE experts as Transformers 4.x lays them out.")
    write_config: Optional[str] = option("--write-config", help="Write a ds_config for the recommended option.")
    fmt: Format = O.fmt()


def run(o: Options, env: Optional[Mapping[str, str]] = None) -> Outcome:
    """The estimate (``Outcome.report`` is an Estimate): exit 0 when an option fits (or fitting is undecidable:
    GPU memory unknown), 1 when none fits; bad input raises UsageError. ``--write-config`` writes the recommended
    option's ds_config (what it did goes to ``messages``, printed after the table)."""
    from ..estimate.core import estimate
    from ..estimate.inputs import InputError, ModelArgs, hardware, workload
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
