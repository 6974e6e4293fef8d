"""hostfile-invalid: a hostfile the launcher refuses."""

from __future__ import annotations

from typing import Iterator

from ... import names as N
from ...model import Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from .launcher_files import hostfile_problems


def check(t: Target) -> Iterator[Hit]:
    _, problems = hostfile_problems(t.text)
    for off, msg in problems:
        yield RULE.hit(t, off, f"ValueError: {msg}")


RULE = Rule(
    spec(
        N.HOSTFILE_INVALID,
        "hostfile",
        Severity.ERROR,
        summary="The hostfile has a bad line, a duplicate host or no hosts",
        what="Each non-blank, non-# line must match `^(\\S+)\\s+slots=(\\d+)`; a host may appear once.",
        why="The deepspeed launcher raises ValueError (`Hostfile contains a bad entry ...`, `... multiple entries for ...`, "
        "`Hostfile is empty or not formatted correctly ...`) before starting anything.",
        fix="One `host slots=N` line per host.",
        section="Launch"),
    check=check,
    valid=(Example("# two nodes\nworker-0 slots=8\n\nworker-1 slots=8\n"),),
    invalid=(Example("worker-0 slots=8\nworker-0 slots=8\n"), Example("worker-0 gpus=8\n"), Example("# nothing\n")),
)
