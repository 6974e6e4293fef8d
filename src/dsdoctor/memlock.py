"""Pinned offload buffers against RLIMIT_MEMLOCK: the threshold, whether buffers are pinned (and why), and the
finding's text. One copy, read by ``dsdoctor check`` (``checks.rules``: the machine's limit) and lint's
``memlock-too-low`` rule (the config key that pins them)."""

from __future__ import annotations

from typing import Optional, Tuple

from packaging.version import Version

from .knowledge import deepspeed as K
from .model import Evidence

MIN_MEMLOCK = 64 * 1024 * 1024  # pinned offload buffers are far larger; 64 MiB is the Docker default


def too_low(limit: Optional[int]) -> bool:
    """RLIMIT_MEMLOCK (bytes, None = unlimited) below what pinned offload buffers need."""
    return limit is not None and limit < MIN_MEMLOCK


def pinned(explicit: Optional[bool], where: str, ds: Version) -> Tuple[bool, str]:
    """Whether offload buffers are pinned (``explicit``: the config's pin_memory, None when unset), and why."""
    if explicit is not None:
        return explicit, f"{where} sets pin_memory: {str(explicit).lower()}"
    default = K.pin_memory_default(ds)
    return default, (f"offload_* pin_memory defaults to {'true from' if default else 'false before'} "
                     f"{K.PIN_MEMORY_DEFAULT_TRUE_FROM} (DeepSpeed {ds})")


def parts(limit: int, why: str) -> Tuple[str, str, Tuple[Evidence, ...]]:
    """Title, explanation and evidence of the finding, as lint and check both report it."""
    return (f"ulimit -l is {limit // 1024} KiB: pinned offload buffers may fail or fall back",
            f"{why}; pinned host memory counts against the memlock limit.",
            (Evidence(f"RLIMIT_MEMLOCK soft = {limit}", "ulimit -l"),))
