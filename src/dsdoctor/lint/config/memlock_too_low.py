"""memlock-too-low (lint): pinned offload buffers with a low RLIMIT_MEMLOCK (same finding and fix as check's;
the shared reasoning is :mod:`dsdoctor.memlock`)."""

from __future__ import annotations

from typing import Iterator

from ... import names as N
from ...fixes import memlock_fix
from ...knowledge import deepspeed as K
from ...memlock import MIN_MEMLOCK, parts, pinned, too_low
from ...model import Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from .fields import offload_device


def check(t: Target) -> Iterator[Hit]:
    lim = t.usage.memlock
    if lim is None or not too_low(lim):
        return
    for which in ("offload_optimizer", "offload_param"):
        got = offload_device(t, which)
        if not got or got[0] not in ("cpu", "nvme"):
            continue
        pin = got[1].get("pin_memory")
        on, why = pinned(pin.value if pin is not None and isinstance(pin.value, bool) else None, which, t.usage.ds)
        if not on:
            continue
        title, explanation, evidence = parts(lim, why)
        severity = None
        if not t.usage.memlock_host:  # a fact of the machine lint runs on, not of the files: info there
            severity = Severity.INFO
            title += " (the limit of the machine dsdoctor runs on: it holds if this is the training host)"
        yield RULE.hit(t, t.key_pos("zero_optimization", which), title, explanation, (memlock_fix(),),
                       severity=severity, evidence=evidence)
        return


RULE = Rule(
    spec(
        N.MEMLOCK_TOO_LOW,
        "ds_config",
        Severity.WARNING,
        summary="ulimit -l is too low for the config's pinned offload buffers",
        what=f"offload_* to cpu/nvme with pin_memory true (explicit, or the default from {K.PIN_MEMORY_DEFAULT_TRUE_FROM}) "
         f"and RLIMIT_MEMLOCK below {MIN_MEMLOCK >> 20} MiB on this machine.",
        why="Pinned host memory counts against the memlock limit: allocations fail or fall back to pageable memory. "
        "`dsdoctor lint` reads the limit of the machine it runs on, which need not be the training host: there "
        "the finding is info; `dsdoctor check` (run on the training host) reports it as a warning.",
        fix="ulimit -l unlimited (docker: --ulimit memlock=-1).",
        section="Config"),
    check=check,
    valid=(Example('{"zero_optimization": {"stage": 3, "offload_param": {"device": "cpu", "pin_memory": false}}}',
                   (("memlock", 65536), ("ds", "0.19.8"))),),
    invalid=(Example('{"zero_optimization": {"stage": 3, "offload_param": {"device": "cpu"}}}',
                     (("memlock", 65536), ("ds", "0.19.8"))),),
)
