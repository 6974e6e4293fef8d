"""Machine limits: /dev/shm, the memlock limit for pinned offload buffers (check's form of the lint rule
``memlock-too-low``, :data:`MEMLOCK_FORM`) and libaio for NVMe offload."""

from __future__ import annotations

from typing import Iterable, Optional

from .. import memlock as MEMLOCK
from .. import names as N
from ..dsconfig import OffloadIntent
from ..fixes import (
    libaio_fix,
    memlock_fix,
    shm_fix,
)
from ..knowledge import deepspeed as K
from ..model import Evidence, Finding, Passed, Severity
from ..spec import Docs, FindingSpec, Form, RuleExample, case, log
from .common import S_SYS, E, Result, W
from .context import Context
from .cpu_adam import OpPrediction

MIN_SHM = 512 * 1024 * 1024  # DeepSpeed's ds_report warns below 512 MB


LIBAIO_MISSING = FindingSpec(
    N.LIBAIO_MISSING,
    E,
    "libaio (async_io, NVMe offload) is missing",
    Docs(
        what="NVMe offload is configured (a ds_config offloading to nvme via `--ds-config`, or `--nvme`) and no "
         "linkable `libaio.so` + `libaio.h` is found.",
        why="async_io (ZeRO-Infinity's NVMe swapping) test-links `io_submit` against -laio: `async_io requires the "
        "dev libaio .so object and headers but these were not found.`",
        fix="Install libaio (`apt-get install libaio-dev`; yum: libaio-devel; pacman: libaio).",
        examples=(
        case("libaio-missing-nvme", "`dsdoctor check --nvme` on a machine without libaio."),
        log(N.LIBAIO_MISSING, "In a log:",
            " [WARNING]  async_io requires the dev libaio .so object and headers but these were not found.\n"
            " [WARNING]  async_io: please install the libaio-dev package with apt\n"
            "RuntimeError: Unable to JIT load the async_io op due to it not being compatible due to "
            "hardware/software issue. None\n"),
    ),
        reads="environment"),
    ("check", "verify", "explain"))


SHM_TOO_SMALL = FindingSpec(
    N.SHM_TOO_SMALL,
    W,
    "/dev/shm is small for multi-process data loading / NCCL",
    Docs(
        what=f"`/dev/shm` is smaller than {MIN_SHM >> 20} MiB (the Docker default is 64 MiB). `explain` reports it when a "
         "DataLoader worker or a rank died of SIGBUS (bus error, exit -7).",
        why="NCCL and DataLoader workers pass data through /dev/shm; DeepSpeed's ds_report warns below 512 MB. "
        "Running out kills the process with SIGBUS.",
        fix="Docker: give the container more shared memory (`docker run --shm-size=16g ...` or `--ipc=host`); or "
        "load data in the main process (`DataLoader(..., num_workers=0)`).",
        examples=(
        RuleExample("facts", "A container whose /dev/shm is 64 MiB (a limit a test cannot change for real: the "
                             "real facts of this machine are collected and /dev/shm's size replaced).",
                    data='{"limits": {"shm_bytes": 67108864}}'),
        log("dataloader-sigbus", "In a log:",
            "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared "
            "memory (shm).\n"
            "RuntimeError: DataLoader worker (pid(s) 13733) exited unexpectedly\n"),
    ),
        reads="environment"),
    ("check", "explain"))


def system(ctx: Context, pred: OpPrediction, intent: Optional[OffloadIntent] = None) -> Iterable[Result]:
    """shm, memlock (pinned offload buffers), libaio (NVMe offload, when configured or asked for)."""
    intent = intent or OffloadIntent()
    lim = ctx.facts.limits
    if lim.shm_bytes is not None and lim.shm_bytes < MIN_SHM:
        yield SHM_TOO_SMALL.finding(Severity.WARNING, f"/dev/shm is {lim.shm_bytes / 2**20:.0f} MiB",
                      None,
                      (Evidence(f"{lim.shm_bytes} bytes", "/dev/shm (statvfs)"),),
                      (shm_fix(),), S_SYS)
    elif lim.shm_bytes is not None:
        yield Passed(S_SYS, f"/dev/shm {lim.shm_bytes / 2**30:.1f} GiB")
    if ctx.ds is not None and intent.offload:  # pinned offload buffers exist only with an offload config
        if lim.memlock_soft is not None and MEMLOCK.too_low(lim.memlock_soft):
            on, why = MEMLOCK.pinned(intent.pin_memory, intent.source, ctx.ds)
            title, explanation, evidence = MEMLOCK.parts(lim.memlock_soft, why)
            # unpinned buffers: an info line here (lint, which points at a config key, says nothing)
            yield Finding(N.MEMLOCK_TOO_LOW, Severity.WARNING if on else Severity.INFO, title, explanation, evidence,
                          (memlock_fix(),), S_SYS)
        else:
            yield Passed(S_SYS, "ulimit -l " + ("unlimited" if lim.memlock_soft is None else f"{lim.memlock_soft // 1024} KiB"))
    nvme = intent.nvme
    aio = ctx.facts.libaio
    if nvme and (aio.library is None or aio.header is None):
        yield LIBAIO_MISSING.finding(Severity.ERROR,
                      "libaio is missing: NVMe offload (async_io) cannot build" + (f" ({intent.source} offloads to nvme)" if intent.source else ""),
                      f"`{K.MSG_LIBAIO}` async_io test-links io_submit against -laio.",
                      (Evidence(f"libaio.so: {aio.library or 'not found'}; runtime: {aio.runtime or 'not found'}; "
                                f"libaio.h: {aio.header or 'not found'}", "system library dirs"),),
                      (libaio_fix(),), S_SYS)
    elif nvme:
        yield Passed(S_SYS, "libaio present (NVMe offload)", aio.library or "")


# check's environment form of a name a lint rule owns (its docs are the rule's)
MEMLOCK_FORM = Form(N.MEMLOCK_TOO_LOW, "check", (
    case("memlock-low-0.19.5-warning",
         "`dsdoctor check` with `ulimit -l` lowered to 1 MiB on DeepSpeed 0.19.5 (pin_memory defaults to true "
         "from 0.19.5: a warning; info before)."),
), note=f"`dsdoctor check` reports the machine's limit (RLIMIT_MEMLOCK below {MEMLOCK.MIN_MEMLOCK >> 20} MiB): only "
        "with a `--ds-config` that offloads (no offload, no pinned offload buffers): a warning when pinned buffers "
        "will be used (the config sets pin_memory, or the default is true from DeepSpeed "
        f"{K.PIN_MEMORY_DEFAULT_TRUE_FROM}), else info.")
