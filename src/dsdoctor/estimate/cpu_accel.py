"""Per-rank memory of a ZeRO-3 run with offload_optimizer=cpu and offload_param=cpu on DeepSpeed's CPU
accelerator (gloo; what ``dsdoctor smoke`` runs without a GPU). There the "device" is host RAM too, so a
rank's resident set holds its share of the per-node CPU part and its "GPU" part. What differs from the GPU
option (each difference from DeepSpeed 0.19.8 / torch 2.14 source or a measurement, docs/estimate.md):

- no CUDA context; instead each process's ``runtime`` (already a per-rank CPU part, §7);
- ``grad_bucket``: resident memory counts touched pages only, and a step touches at most P of the
  bucket's ``torch.empty`` elements (on a GPU the allocation itself counts);
- ``live_params``: with one rank DeepSpeed does not gather (``_no_gather_coalesced`` → ``NoGatherHandle``
  sets ``param.data = ds_tensor.data.to(current_device)``, and ``.to("cpu")`` of a CPU tensor is the
  partition itself), so nothing extra stays gathered; with two or more every gathered parameter is a new
  full-size buffer (``_all_gather_*`` ``torch.empty(ds_numel)``), as on a GPU;
- ``gloo_reduce_scatter_copy``: gloo's ``reduce_scatter_tensor`` copies its whole input (measured with
  ``bench/ds_runtime_rss.py --collectives``: high-water mark = output + one input-sized temporary, 1 and 2
  ranks), i.e. one more copy of the reduced gradients, min(P, ``reduce_bucket_size``) 16-bit elements.
"""

from __future__ import annotations

from typing import Dict

from packaging.version import Version

from ..knowledge.deepspeed import STAGE3_REDUCE_BUCKET_SIZE
from .core import Hardware, estimate
from .memory import BF16, Workload


def zero3_offload_rank_parts(w: Workload, nproc: int, ds: Version) -> Dict[str, int]:
    """Bytes per rank by part (``dev.*`` from the option's GPU parts, ``host.*`` its per-node CPU parts
    divided by the ranks) for ``nproc`` CPU ranks on one node."""
    est = estimate(w, Hardware(nproc, 1, None, None), ds)
    opt = next(o for o in est.options if o.key == (3, "cpu", "cpu"))
    touched = BF16 * min(w.total_params, STAGE3_REDUCE_BUCKET_SIZE)
    parts = {f"dev.{k}": v for k, v in opt.gpu_parts.items() if k != "cuda_context"}
    parts["dev.grad_bucket"] = min(parts["dev.grad_bucket"], touched)
    if nproc == 1:
        parts["dev.live_params"] = 0
    parts["dev.gloo_reduce_scatter_copy"] = touched
    parts.update({f"host.{k}": v // nproc for k, v in opt.cpu_parts.items()})
    return parts
