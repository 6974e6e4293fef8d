"""omp-threads-oversubscribed: multi-process CPU runs without OMP_NUM_THREADS."""

from __future__ import annotations

from typing import Iterator

from ... import names as N
from ...fixes import env_fix
from ...model import Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from .shell import parse


def check(t: Target) -> Iterator[Hit]:
    script = parse(t.text)
    for cmd in script.commands:
        if cmd.launcher is None:
            continue
        accel = cmd.env.get("DS_ACCELERATOR") or t.usage.accelerator
        if accel != "cpu" or "OMP_NUM_THREADS" in cmd.env or script.sets("OMP_NUM_THREADS"):
            continue
        if cmd.launcher == "deepspeed" and "--bind_cores_to_rank" in cmd.argv:
            continue  # the launcher sets OMP_NUM_THREADS per rank
        yield RULE.hit(t, cmd.start, "CPU run without OMP_NUM_THREADS: every rank starts one thread per core",
                       fixes=(env_fix("OMP_NUM_THREADS", "1", "set OMP_NUM_THREADS (cores / ranks)"),))


RULE = Rule(
    spec(
        N.OMP_THREADS_OVERSUBSCRIBED,
        "shell",
        Severity.WARNING,
        summary="CPU training ranks without OMP_NUM_THREADS oversubscribe the cores",
        what="A launch with DS_ACCELERATOR=cpu where OMP_NUM_THREADS is not set (and deepspeed's --bind_cores_to_rank, "
         "which sets it, is not used).",
        why="Each rank's torch uses all cores: N ranks run N x cores threads and crawl.",
        fix="OMP_NUM_THREADS=<cores per rank>, or deepspeed --bind_cores_to_rank.",
        section="Launch"),
    check=check,
    valid=(Example("DS_ACCELERATOR=cpu OMP_NUM_THREADS=1 deepspeed --num_gpus 2 train.py\n"),),
    invalid=(Example("DS_ACCELERATOR=cpu deepspeed --num_gpus 2 train.py\n"),),
)
