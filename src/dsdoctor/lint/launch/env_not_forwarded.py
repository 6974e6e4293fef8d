"""env-not-forwarded: variables set for a multi-node deepspeed run that never reach the other nodes."""

from __future__ import annotations

from typing import Dict, Iterator

from ... import names as N
from ...fixes import env_fix
from ...knowledge import deepspeed as K
from ...model import Severity
from ..rule import Edit, Example, Hit, Rule, spec
from ..target import Target
from .shell import parse


def _needs(name: str, picks_gpus: bool, own_cache: bool) -> bool:
    if name in K.MULTINODE_ENV_ORDER_ONLY and not picks_gpus or name in K.MULTINODE_CACHE_VARS and own_cache:
        return False
    return name in K.MULTINODE_ENV_VARS or name.startswith(K.MULTINODE_ENV_PREFIXES)


def check(t: Target) -> Iterator[Hit]:
    script = parse(t.text)
    accel = t.usage.accelerator or "cuda"
    prefixes = K.export_env_prefixes(t.usage.ds, accel)
    for cmd in script.commands:
        if cmd.launcher != "deepspeed":
            continue
        nodes = cmd.opt("--num_nodes")
        multi = t.usage.multinode or (nodes is not None and nodes[0].isdigit() and int(nodes[0]) > 1) \
            or cmd.opt("--force_multi") is not None or "--force_multi" in cmd.argv
        if not multi:
            continue
        wanted: Dict[str, int] = dict(script.exports)
        wanted.update({k: cmd.start for k in cmd.env})
        picks = any(k in wanted for k in K.PICKS_GPUS) or cmd.opt(*(f for f in K.PICKS_GPUS if f[0] == "-")) is not None
        own_cache = any(a == "--cache_dir" or a.startswith("--cache_dir=") for a in cmd.argv)
        for name, pos in sorted(wanted.items(), key=lambda kv: kv[1]):
            if not _needs(name, picks, own_cache) or name.startswith(prefixes) or name in t.usage.env_file_vars:
                continue
            value = cmd.env.get(name, script.values.get(name, "..."))
            yield RULE.hit(t, pos, f"{name} is set here but a multi-node deepspeed launch forwards only "
                           f"{', '.join(prefixes)}* and .deepspeed_env: the other nodes never see it",
                           fixes=(env_fix(name, value, f"write {name} to .deepspeed_env"),),
                           edits=(Edit(K.DEEPSPEED_ENV_FILE, -1, -1, f"{name}={value}\n", "safe",
                                       f"append {name} to ./.deepspeed_env"),) if value != "..." else ())


RULE = Rule(
    spec(
        N.ENV_NOT_FORWARDED,
        "shell",
        Severity.WARNING,
        summary="A variable the other nodes need is not forwarded by the multi-node launcher",
        what="DS_SKIP_CUDA_CHECK, CUDA_HOME, TORCH_EXTENSIONS_DIR, LD_LIBRARY_PATH, HF_* ... exported (or set under "
         "`set -a`) or prefixed in the script of a multi-node `deepspeed` launch, matching no forwarded prefix and absent from .deepspeed_env.",
        why="pdsh/MPI runners export only variables whose names start with MLFLOW, PYTHON, MV2, UCX (NCCL on CUDA) plus the "
        "lines of .deepspeed_env; the rest exists only on the launching node.",
        fix="Write the variable to .deepspeed_env (in the working directory or ~).",
        section="Launch"),
    check=check,
    valid=(Example("export NCCL_DEBUG=INFO\ndeepspeed --hostfile hosts train.py\n", (("multinode", True),)),
           Example("export CUDA_DEVICE_ORDER=PCI_BUS_ID\nexport HF_HOME=/data/hf\n"
                   "deepspeed --hostfile hosts train.py --cache_dir /data/models\n", (("multinode", True),),
                   note="the GPU order matters only where GPUs are picked by number; the script's --cache_dir "
                   "replaces the Hub cache"),
           Example("DS_CONFIG=ds_config.json\ndeepspeed --force_multi --hostfile hosts train.py --deepspeed_config=$DS_CONFIG\n",
                   (("multinode", True),), note="a shell variable the script expands into the command line: no "
                   "process reads it from its environment")),
    invalid=(Example("export DS_SKIP_CUDA_CHECK=1\ndeepspeed --hostfile hosts train.py\n", (("multinode", True),)),
             Example("TORCH_EXTENSIONS_DIR=/scratch/ext\nexport TORCH_EXTENSIONS_DIR\ndeepspeed --hostfile hosts train.py\n",
                     (("multinode", True),)),
             Example("export CUDA_DEVICE_ORDER=PCI_BUS_ID\nexport CUDA_VISIBLE_DEVICES=0,1\n"
                     "deepspeed --hostfile hosts train.py\n", (("multinode", True),))),
)
