"""What the training job holds beyond DeepSpeed's model states: activations (sequence length, micro
batch, gradient checkpointing) and frozen base weights under LoRA/QLoRA. Rough by design; the numbers
are documented in ``docs/estimate.md``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional


@dataclass(frozen=True)
class Workload:
    total_params: int
    largest_layer: int
    trainable: int  # parameters with optimizer states (== total without LoRA)
    layers: int
    hidden: int
    vocab: int
    heads: int = 0
    seq_len: int = 2048
    micro_batch: int = 1
    grad_ckpt: bool = True
    base_bits: int = 16  # 16 (bf16) or 4 (QLoRA) for frozen base weights
    source: str = ""

    @property
    def frozen(self) -> int:
        return self.total_params - self.trainable

    def to_json(self) -> Dict[str, Any]:
        return {"total_params": self.total_params, "largest_layer_params": self.largest_layer,
                "trainable_params": self.trainable, "layers": self.layers, "hidden": self.hidden,
                "vocab": self.vocab, "seq_len": self.seq_len, "micro_batch": self.micro_batch,
                "gradient_checkpointing": self.grad_ckpt, "base_bits": self.base_bits, "source": self.source}


BF16 = 2


def activation_bytes(w: Workload) -> int:
    """Peak activation memory per GPU (bf16, flash/SDPA attention so no s^2 score matrix kept).

    Without checkpointing each layer keeps ~34·s·b·h bytes (Korthikanti et al., 2022, minus the attention
    scores). With checkpointing only each layer's input (2·s·b·h) is kept, plus one layer recomputed.
    The logits (fp32, and their gradient) add 2·4·s·b·V."""
    sbh = w.seq_len * w.micro_batch * w.hidden
    per_layer_full = 34 * sbh
    if w.grad_ckpt:
        layers = w.layers * BF16 * sbh + per_layer_full
    else:
        layers = w.layers * per_layer_full
    logits = 2 * 4 * w.seq_len * w.micro_batch * w.vocab
    return layers + logits


def stage3_buffers(w: Workload) -> Dict[str, int]:
    """Per-device ZeRO-3 runtime buffers at DeepSpeed's defaults (``knowledge.ds_memory``), 16-bit:
    the contiguous gradient bucket (``reduce_bucket_size`` elements, allocated whole); the copy
    ``reduce_scatter_coalesced`` makes of the bucket's gradients (runtime/comm/coalesced_collectives.py:
    ``torch.cat`` of the rank-interleaved partitions when the bucket holds more than one tensor, up to
    min(P, bucket) elements; the reduced partitions are views of it until they are copied out); and the
    parameters kept gathered between uses (``stage3_max_live_parameters`` / ``stage3_max_reuse_distance``:
    up to min(P, 1e9) elements; this includes the largest layer DeepSpeed's 4L term already counts)."""
    from ..knowledge.deepspeed import STAGE3_MAX_LIVE_PARAMETERS, STAGE3_REDUCE_BUCKET_SIZE

    return {"grad_bucket": BF16 * STAGE3_REDUCE_BUCKET_SIZE,
            "grad_reduce_copy": BF16 * min(w.total_params, STAGE3_REDUCE_BUCKET_SIZE),
            "live_params": BF16 * min(w.total_params, STAGE3_MAX_LIVE_PARAMETERS)}


def frozen_bytes(w: Workload, stage: int, off_param: str, g: int, n: int) -> "tuple[int, int]":
    """(GPU bytes per GPU, CPU bytes per node) of frozen base weights (LoRA/QLoRA): 16-bit or 4-bit
    (NF4 + double-quantized constants ≈ 0.52 bytes/param). ZeRO-3 shards them; offload_param puts them on the CPU."""
    if w.frozen <= 0:
        return 0, 0
    per = BF16 if w.base_bits >= 16 else 0.52
    full = int(w.frozen * per)
    if stage < 3:
        return full, 0
    if off_param != "none":
        return 0, full // n
    return full // (g * n), 0


def parse_size(text: Optional[str]) -> Optional[int]:
    """``80GB``/``80G``/``80GiB`` -> bytes (GB means GiB here, like nvidia-smi and DeepSpeed's printout)."""
    if text is None:
        return None
    t = text.strip().upper().replace("IB", "").replace("B", "")
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    try:
        if t and t[-1] in mult:
            return int(float(t[:-1]) * mult[t[-1]])
        return int(float(t))
    except ValueError:
        raise ValueError(f"not a size: {text!r} (e.g. 80GB, 512M, 24e9)") from None
