"""DeepSpeed's accelerator selection: ``DS_ACCELERATOR``, the accepted names and the CPU fallback per version,
fp16 on the CPU accelerator, and intel_extension_for_pytorch."""

from __future__ import annotations

from typing import Tuple

from packaging.version import Version

from .versions import Span, lookup, v

__all__ = ["accelerator_env_read", "supported_accelerators", "cpu_fallback", "CPU_FP16_FLAGS",
    "CPU_FP16_MAYBE_FLAGS", "cpu_fp16_asks_cpu", "cpu_accelerator_needs_ipex", "ipex_selects_cpu",
    "ipex_deepspeed_selects_xpu"]

# ---------------------------------------------------------------------------------------------------
# 3. Accelerator selection
# ---------------------------------------------------------------------------------------------------

_ACCEL_LISTS: Tuple[Span[Tuple[str, ...]], ...] = (
    # <= 0.9.2 does not read DS_ACCELERATOR at all (see accelerator_env_read)
    Span("0.9.3", "0.9.5", ("cuda", "cpu", "xpu")),  # an if/elif chain
    Span("0.10.0", "0.10.0", ("cuda", "cpu", "xpu", "mps")),  # the chain plus mps
    Span("0.10.1", "0.12.6", ("cuda", "cpu", "xpu", "npu", "mps")),
    # 0.13.0 not checked (its sdist does not build metadata); 0.13.1 has the list below
    Span("0.13.0", "0.15.1", ("cuda", "cpu", "xpu", "xpu.external", "npu", "mps", "hpu")),
    Span("0.15.2", "0.16.4", ("cuda", "cpu", "xpu", "xpu.external", "npu", "mps", "hpu", "mlu")),
    Span("0.16.5", "0.18.6", ("cuda", "cpu", "xpu", "xpu.external", "npu", "mps", "hpu", "mlu", "sdaa")),
    Span("0.18.7", "0.19.1", ("cuda", "cpu", "xpu", "npu", "mps", "hpu", "mlu", "sdaa")),
    Span("0.19.2", "0.19.7", ("cuda", "cpu", "xpu", "npu", "mps", "hpu", "mlu", "sdaa", "supa")),
    Span("0.19.8", None, ("cuda", "cpu", "xpu", "npu", "mps", "hpu", "mlu", "sdaa", "supa", "klxpu")),
)


def accelerator_env_read(ds: Version) -> bool:
    """``DS_ACCELERATOR`` is read from 0.9.3; 0.9.0-0.9.2 ignore it (intel_extension_for_deepspeed -> xpu,
    else cuda)."""
    return ds >= v("0.9.3")


def supported_accelerators(ds: Version) -> Tuple[str, ...]:
    """Values ``DS_ACCELERATOR`` may take (anything else raises at ``get_accelerator()``); empty where
    the variable is not read at all (<= 0.9.2)."""
    return lookup(_ACCEL_LISTS, ds, ())


def cpu_fallback(ds: Version) -> bool:
    """From 0.14.1 a machine with no visible CUDA GPU auto-selects the CPU accelerator (gloo)."""
    return ds >= v("0.14.1")


# fp16 on the CPU accelerator: up to 0.16.7 ``CPU_Accelerator.is_fp16_supported()`` returns False; from 0.16.8
# (PR #7207) it returns ``torch.ops.mkldnn._is_mkldnn_fp16_supported()`` (oneDNN's f16 support), and the engine
# raises MSG_FP16_UNSUPPORTED when it is False. The x86 /proc/cpuinfo flags that give oneDNN f16 (this
# project's oracle machine has avx512_fp16 and the call returns True there); AVX-NE-CONVERT cores
# (``avx_ne_convert``) may qualify too, so without the flags below the answer stays unknown on such a CPU.
CPU_FP16_FLAGS = ("avx512_fp16", "amx_fp16")
CPU_FP16_MAYBE_FLAGS = ("avx_ne_convert",)


def cpu_fp16_asks_cpu(ds: Version) -> bool:
    """Does the CPU accelerator's fp16 support depend on the CPU (>= 0.16.8), rather than always being off?"""
    return ds >= v("0.16.8")


def cpu_accelerator_needs_ipex(ds: Version) -> bool:
    """Up to 0.14.0 ``DS_ACCELERATOR=cpu`` requires intel_extension_for_pytorch."""
    return ds <= v("0.14.0")


def ipex_selects_cpu(ds: Version) -> bool:
    """0.9.3-0.16.1 auto-detection: an importable IPEX (without XPU support) selects the CPU accelerator,
    even on a CUDA box. From 0.16.2 IPEX only selects xpu; 0.9.0-0.9.2 never look at IPEX."""
    return v("0.9.3") <= ds <= v("0.16.1")


def ipex_deepspeed_selects_xpu(ds: Version) -> bool:
    """An importable intel_extension_for_deepspeed selects an XPU accelerator up to 0.18.6;
    0.18.7+ detects XPU through torch only."""
    return ds <= v("0.18.6")
