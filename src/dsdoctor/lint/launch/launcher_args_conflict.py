"""launcher-args-conflict: --include/--exclude with --num_gpus/--num_nodes, or both include and exclude."""

from __future__ import annotations

from typing import Iterator

from ... import names as N
from ...knowledge import deepspeed as K
from ...model import Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from .shell import parse


def check(t: Target) -> Iterator[Hit]:
    for cmd in parse(t.text).commands:
        if cmd.launcher != "deepspeed":
            continue
        inc = cmd.opt("-i", "--include")
        exc = cmd.opt("-e", "--exclude")
        num = cmd.opt("--num_gpus", "--num_accelerators") or cmd.opt("--num_nodes")
        if inc and exc:
            yield RULE.hit(t, exc[1], f"ValueError: {K.MSG_INCLUDE_EXCLUDE}")
        elif (inc or exc) and num:
            yield RULE.hit(t, num[1], f"ValueError: {K.MSG_INCLUDE_NUM}")


RULE = Rule(
    spec(
        N.LAUNCHER_ARGS_CONFLICT,
        "shell",
        Severity.ERROR,
        summary="deepspeed launcher flags that exclude each other",
        what="--include/--exclude together with --num_gpus/--num_nodes, or --include with --exclude.",
        why="The runner raises `Cannot specify num_nodes/gpus with include/exclude` / "
        "`include_str and exclude_str are mutually exclusive.`",
        fix="Choose resources with either --include/--exclude or --num_nodes/--num_gpus.",
        section="Launch"),
    check=check,
    valid=(Example("deepspeed --include localhost:0,1 train.py\n"),),
    invalid=(Example("deepspeed --include localhost:0,1 --num_gpus 2 train.py\n"),),
)
