"""DeepSpeed's memory estimators, reimplemented, and dsdoctor's own round figures beyond model states."""

from __future__ import annotations

from typing import Tuple

from packaging.version import Version

from .versions import Span, lookup

__all__ = ["ESTIMATOR_BUFFER_FACTOR", "ZERO2_GPU_NO_OFFLOAD", "zero3_model_states_mem", "zero2_model_states_mem",
    "CUDA_CONTEXT_BYTES", "STAGE3_REDUCE_BUCKET_SIZE", "STAGE3_MAX_LIVE_PARAMETERS", "CPU_RUNTIME_BYTES_PER_RANK"]

# ---------------------------------------------------------------------------------------------------
# 7. Memory estimators (runtime/zero/stage3.py estimate_zero3_model_states_mem_needs, stage_1_and_2.py
#    estimate_zero2_model_states_mem_needs). The ``*_all_live``/``*_all_cold`` wrappers print and return
#    None, so dsdoctor reimplements the arithmetic, expression for expression (float order matters for
#    the ``int()`` truncation). Bytes; GPU per device, CPU per node. Model states only: no activations,
#    no CUDA context, no fragmentation. ``tests/oracle/test_estimate_oracle.py`` calls the real functions.
# ---------------------------------------------------------------------------------------------------

ESTIMATOR_BUFFER_FACTOR = 1.5  # additional_buffer_factor default in every version

# ZeRO-2 without offload, GPU bytes: ``4P + int(16P/T)`` up to 0.14.2, ``2P + int(18P/T)`` from 0.14.3
# (PR #5099: 2 = fp16 params; 18 = fp16 grads 2 + fp32 grads 4 + fp32 params 4 + Adam moments 8).
ZERO2_GPU_NO_OFFLOAD: Tuple[Span[Tuple[int, int]], ...] = (
    Span(None, "0.14.2", (4, 16)),
    Span("0.14.3", None, (2, 18)),
)


def zero3_model_states_mem(total_params: int, largest_layer_params: int, num_gpus_per_node: int = 1,
                           num_nodes: int = 1, cpu_offload: bool = True, cpu_offload_params: bool = True,
                           zero_init: bool = True,
                           additional_buffer_factor: float = ESTIMATOR_BUFFER_FACTOR) -> Tuple[int, int, int]:
    """``estimate_zero3_model_states_mem_needs``: ``(cpu_bytes_per_node, gpu_bytes_per_gpu, 4*L)``.
    Same formula in every version with a stage3.py estimator (0.9.x-0.19.8 checked)."""
    total_gpus = num_nodes * num_gpus_per_node
    gpus_factor = 1 / num_nodes
    largest_layer_memory = 4 * largest_layer_params
    cpu_mem: float
    if cpu_offload:
        if cpu_offload_params:
            gpu_mem = largest_layer_memory
            if zero_init:
                cpu_mem = total_params * 18 * gpus_factor * additional_buffer_factor
            else:
                cpu_mem = total_params * max(4 * num_gpus_per_node, 18 * gpus_factor) * additional_buffer_factor
        else:
            gpu_mem = largest_layer_memory + int(2 * total_params / total_gpus)
            if zero_init:
                cpu_mem = total_params * 16 * gpus_factor * additional_buffer_factor
            else:
                cpu_mem = total_params * max(4 * num_gpus_per_node, 16 * gpus_factor) * additional_buffer_factor
    else:
        gpu_mem = largest_layer_memory + int(18 * total_params / total_gpus)
        if zero_init:
            cpu_mem = largest_layer_params * 4 * num_gpus_per_node * additional_buffer_factor
        else:
            cpu_mem = total_params * 4 * num_gpus_per_node * additional_buffer_factor
    return int(cpu_mem), int(gpu_mem), largest_layer_memory


def zero2_model_states_mem(ds: Version, total_params: int, num_gpus_per_node: int = 1, num_nodes: int = 1,
                           cpu_offload: bool = True,
                           additional_buffer_factor: float = ESTIMATOR_BUFFER_FACTOR) -> Tuple[int, int]:
    """``estimate_zero2_model_states_mem_needs`` of DeepSpeed ``ds``: ``(cpu_bytes_per_node, gpu_bytes_per_gpu)``."""
    total_gpus = num_nodes * num_gpus_per_node
    cpu_mem: float
    if cpu_offload:
        gpu_mem = 2 * total_params
        cpu_mem = total_params * max(4 * total_gpus, 16) * additional_buffer_factor
    else:
        fixed, sharded = lookup(ZERO2_GPU_NO_OFFLOAD, ds, (2, 18))
        gpu_mem = fixed * total_params + int(sharded * total_params / total_gpus)
        cpu_mem = total_params * 4 * num_gpus_per_node * additional_buffer_factor
    return int(cpu_mem), int(gpu_mem)


# Beyond model states (dsdoctor's own additions, not DeepSpeed's): a CUDA context with torch's kernels
# loaded takes ~0.5-1 GiB per process; the allocator fragments. Values are deliberately round.
CUDA_CONTEXT_BYTES = 1 << 30

# ZeRO-3 runtime buffers beyond model states, DeepSpeed defaults (runtime/zero/config.py and stage3.py of
# 0.19.8): ``reduce_bucket_size`` 5e8 elements -> stage3.py allocates one gradient bucket of that many
# elements in the gradient dtype on the device when ``contiguous_gradients`` (default true);
# ``stage3_max_live_parameters`` / ``stage3_max_reuse_distance`` 1e9 -> after the first step's trace,
# gathered parameters reused within 1e9 elements are not released, so up to min(P, 1e9) 16-bit
# parameters stay gathered per device. bench/estimate_accuracy.py measured both (docs/estimate.md).
STAGE3_REDUCE_BUCKET_SIZE = int(5e8)
STAGE3_MAX_LIVE_PARAMETERS = int(1e9)

# Per-process runtime (host RAM) of a DeepSpeed training rank beyond its imports and process group: what
# ``deepspeed.initialize`` and the first step add when the model is near-empty. Measured with
# bench/ds_runtime_rss.py (torch 2.14.1, DeepSpeed 0.19.8, Transformers 5.24.0, CPU accelerator + gloo,
# ZeRO-3 offload_optimizer/offload_param=cpu, 1 and 2 ranks identical to 1 MiB; /proc/self/smaps per
# mapping): a 2-layer hidden-64 Llama adds ~94 MiB per rank = torch kernel code pages faulted in
# (libtorch_cpu.so/libtorch_python.so, file-backed) ~30 MiB + anonymous memory ~32 MiB (one ~26 MiB
# region touched during ``initialize``) + Python heap ~32 MiB (DeepSpeed's engine/optimizer objects and
# modules ~16 MiB at ``initialize``, ~14 MiB in step 0); the cpu_adam library itself is 0.3 MiB resident.
# The shm_comm workspace (csrc/cpu/comm/shm.cpp, 2·1 MiB + 2·32 MiB per rank in /dev/shm) is created by
# ``init_distributed`` and is only touched by ``inference_all_reduce``, which ZeRO-3 training does not call
# (RssShmem +0). Minus that model's own ~5 MiB of states and activations, rounded: 90 MiB per rank.
CPU_RUNTIME_BYTES_PER_RANK = 90 << 20
