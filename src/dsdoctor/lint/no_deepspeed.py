"""Projects that never use DeepSpeed: nothing in them names it.

A repository with no ds_config, hostfile or .deepspeed_env, and no file that says ``deepspeed`` (an import, the
launcher, ``--deepspeed``, a ``deepspeed=`` argument, an accelerate config with ``distributed_type: DEEPSPEED``, a
README line) cannot run its scripts under ZeRO-3 as it is. The ZeRO-3 script rules then judge its scripts "if run
with ZeRO-3" only, a question nobody asked: :mod:`.launched` marks its Python files off ZeRO-3 (their ZeRO-3
findings are dropped, as for a file no DeepSpeed launch reaches) unless ``--zero-stage`` or the configuration says
the context. Dropped rather than ``info``: the finding would describe a run the project has no way to start, and
``--zero-stage 3`` asks for it when a move to DeepSpeed is planned.
"""

from __future__ import annotations

import os
import re
from typing import Dict

from .discover import _read, _walk_into

_MENTION = re.compile(r"(?i)deepspeed")
_TEXT = (".py", ".sh", ".bash", ".slurm", ".sbatch", ".json", ".hjson", ".yaml", ".yml", ".toml", ".md", ".rst",
         ".txt", ".cfg", ".ini", ".ipynb")
_NAMES = ("Makefile", "Dockerfile", "hostfile", ".deepspeed_env")
_DEEPSPEED_KINDS = ("ds_config", "hostfile", "deepspeed_env")
MAX_FILES = 20000
REASON = "nothing in the project names DeepSpeed (no ds_config, launcher, import or --deepspeed anywhere)"


def uses_deepspeed(root: str, kinds: Dict[str, str]) -> bool:
    """Does anything under ``root`` name DeepSpeed? True also when the walk stops at ``MAX_FILES`` files."""
    if any(k in _DEEPSPEED_KINDS for k in kinds.values()):
        return True
    seen = 0
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if _walk_into(os.path.join(d, x), x, True)]
        for f in files:
            if not (f.endswith(_TEXT) or f in _NAMES):
                continue
            seen += 1
            if seen > MAX_FILES or _MENTION.search(_read(os.path.join(d, f), 4 * 2**20)):
                return True
    return False
