"""memlock-too-low (lint): pinned offload buffers with a low RLIMIT_MEMLOCK (same finding and fix as check's)."""

from __future__ import annotations

from typing import Iterator

from ...fixes import memlock_fix
from ...knowledge import deepspeed as K
from ...model import Evidence, Severity
from ..rule import Example, Hit, Rule
from ..target import Target
from ._util import offload_device

MIN_MEMLOCK = 64 * 1024 * 1024  # the same threshold as check (checks/rules.py)


def check(t: Target) -> Iterator[Hit]:
    lim = t.usage.memlock
    if lim is None or lim >= MIN_MEMLOCK:
        return
    for which in ("offload_optimizer", "offload_param"):
        got = offload_device(t, which)
        if not got or got[0] not in ("cpu", "nvme"):
            continue
        pin = got[1].get("pin_memory")
        pinned = pin.value is True if pin is not None and isinstance(pin.value, bool) else K.pin_memory_default(t.usage.ds)
        if not pinned:
            continue
        why = (f"{which} sets pin_memory: true" if pin is not None else
               f"offload_* pin_memory defaults to true from 0.19.5 (DeepSpeed {t.usage.ds})")
        yield RULE.hit(t, t.key_pos("zero_optimization", which),
                       f"ulimit -l is {lim // 1024} KiB: pinned offload buffers may fail or fall back",
                       f"{why}; pinned host memory counts against the memlock limit.",
                       (memlock_fix(),), evidence=(Evidence(f"RLIMIT_MEMLOCK soft = {lim}", "ulimit -l"),))
        return


RULE = Rule(
    name="memlock-too-low", code="DS113", kind="ds_config", severity=Severity.WARNING,
    summary="ulimit -l is too low for the config's pinned offload buffers",
    what="offload_* to cpu/nvme with pin_memory true (explicit, or the default from 0.19.5) and RLIMIT_MEMLOCK "
         "below 64 MiB on this machine.",
    why="Pinned host memory counts against the memlock limit: allocations fail or fall back to pageable memory.",
    fix="ulimit -l unlimited (docker: --ulimit memlock=-1).",
    check=check, section="Config",
    valid=(Example('{"zero_optimization": {"stage": 3, "offload_param": {"device": "cpu", "pin_memory": false}}}',
                   (("memlock", 65536), ("ds", "0.19.8"))),),
    invalid=(Example('{"zero_optimization": {"stage": 3, "offload_param": {"device": "cpu"}}}',
                     (("memlock", 65536), ("ds", "0.19.8"))),),
)
