"""deepspeed-export-flag: ``deepspeed --export K=V`` (no such flag)."""

from __future__ import annotations

from typing import Iterator, Tuple

from ... import names as N
from ...fixes import env_fix
from ...knowledge import deepspeed as K
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from .shell import parse


def check(t: Target) -> Iterator[Hit]:
    for cmd in parse(t.text).commands:
        if cmd.launcher != "deepspeed":
            continue
        for i, a in enumerate(cmd.argv):
            if a.endswith(".py") or (i > 0 and not a.startswith("-") and cmd.argv[i - 1] not in K.LAUNCHER_FLAGS_WITH_VALUE):
                break
            if a == "--export" or a.startswith("--export="):
                val = a.split("=", 1)[1] if "=" in a else (cmd.argv[i + 1] if i + 1 < len(cmd.argv) else "")
                fixes: Tuple[Fix, ...] = ()
                if "=" in val:
                    name, v = val.split("=", 1)
                    fixes = (env_fix(name, v, f"set {name} in the environment / .deepspeed_env instead"),)
                yield RULE.hit(t, cmd.token_pos[i], f"deepspeed has no --export flag: `{K.MSG_NO_EXPORT}`", fixes=fixes)


RULE = Rule(
    spec(
        N.DEEPSPEED_EXPORT_FLAG,
        "shell",
        Severity.ERROR,
        summary="`deepspeed --export` does not exist",
        what="`--export` before the training script on a `deepspeed` command line.",
        why="The launcher's argparse has no --export (0.9.5-0.19.8): it exits with `unrecognized arguments: --export`.",
        fix="Set the variable in the environment (single node) and in .deepspeed_env (multi-node).",
        section="Launch"),
    check=check,
    valid=(Example("DS_SKIP_CUDA_CHECK=1 deepspeed --num_gpus 2 train.py --deepspeed ds.json\n"),),
    invalid=(Example("deepspeed --export DS_SKIP_CUDA_CHECK=1 train.py --deepspeed ds.json\n"),),
)
