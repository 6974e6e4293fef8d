"""Does this machine's CPU run fp16 on DeepSpeed's CPU accelerator? Decided from ``/proc/cpuinfo`` flags
(``dsdoctor check`` / ``preflight()`` run on the training machine; ``dsdoctor lint`` cannot know the target CPU). A probe
that also classifies what it read, from the flag facts of :mod:`dsdoctor.knowledge.deepspeed` (``lint`` imports it)."""

from __future__ import annotations

from typing import FrozenSet, Optional, Tuple

from ..knowledge import deepspeed as K

CPUINFO = "/proc/cpuinfo"


def cpu_flags(path: str = CPUINFO) -> Optional[FrozenSet[str]]:
    """The first CPU's ``flags`` (x86) / ``Features`` (ARM) line of ``/proc/cpuinfo``; None when unreadable."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                key, sep, val = line.partition(":")
                if sep and key.strip() in ("flags", "Features"):
                    return frozenset(val.split())
    except OSError:
        return None
    return None


def machine_cpu_fp16() -> Tuple[Optional[bool], str]:
    """:func:`cpu_fp16` for this machine."""
    return cpu_fp16(cpu_flags())


def cpu_fp16(flags: Optional[FrozenSet[str]]) -> Tuple[Optional[bool], str]:
    """(supported, why) for oneDNN fp16 (what DeepSpeed's CPU accelerator asks from 0.16.8); None = cannot tell."""
    if flags is None:
        return None, f"{CPUINFO} unreadable"
    have = sorted(f for f in K.CPU_FP16_FLAGS if f in flags)
    if have:
        return True, f"this CPU has {', '.join(have)} ({CPUINFO})"
    if "sse2" not in flags:
        return None, f"not an x86 CPU ({CPUINFO}): fp16 support unknown"
    if any(f in flags for f in K.CPU_FP16_MAYBE_FLAGS):
        return None, f"this CPU has {', '.join(K.CPU_FP16_MAYBE_FLAGS)} but not {' / '.join(K.CPU_FP16_FLAGS)}"
    return False, f"this CPU has neither {' nor '.join(K.CPU_FP16_FLAGS)} ({CPUINFO})"
