"""The DeepSpeed configs of a directory the user names that is not a project (``dsdoctor lint configs/``).

A walk of a project lints the configs its launches, scripts and YAMLs name, not every JSON file of the tree (data,
tokenizer and evaluation files are JSON too). A directory named on the command line that is no project root is
different: the user asks about what is in it, often a folder of ds_configs (``deepspeed/zero_stage3_config.json``)
that no file of that folder names. Its JSON files that read as DeepSpeed configs are linted as configs.
"""

from __future__ import annotations

import os
import re
from typing import List

from .gitignore import Ignored
from .listing import listing

MAX_CONFIGS = 500  # a folder of thousands of JSON files is a data folder, not configs: at most this many read
_SIZE = 1 << 20  # a ds_config is small; a larger JSON file is data
# a key only a DeepSpeed config has at its top level (quoted, as JSON and HJSON write it)
_DS_KEY = re.compile(r'"(?:zero_optimization|train_micro_batch_size_per_gpu|train_batch_size|'
                     r'gradient_accumulation_steps|zero_allow_untested_optimizer|steps_per_print)"\s*:')
_SKIP = {"node_modules", "__pycache__", "site-packages", "venv"}


def named_configs(directory: str, max_depth: int = 3) -> List[str]:
    """The ``.json`` / ``.hjson`` files under ``directory`` (``max_depth`` levels down, what git ignores and hidden
    directories left out) whose text names a DeepSpeed config key, in path order."""
    out: List[str] = []
    ignored = Ignored(directory)
    level = [directory]
    for _ in range(max_depth + 1):
        below: List[str] = []
        for d in level:
            files, dirs = listing(d)
            below += [os.path.join(d, x) for x in dirs if not x.startswith(".") and x not in _SKIP
                      and not ignored(os.path.join(d, x), True)]
            for f in files:
                p = os.path.join(d, f)
                if f.lower().endswith((".json", ".hjson")) and not ignored(p, False) and _looks_ds(p):
                    out.append(p)
                    if len(out) >= MAX_CONFIGS:
                        return sorted(out)
        level = below
    return sorted(out)


def _looks_ds(path: str) -> bool:
    try:
        if os.path.getsize(path) > _SIZE:
            return False
        with open(path, "rb") as fh:
            text = fh.read(_SIZE).decode("utf-8", errors="replace")
    except OSError:
        return False
    return bool(_DS_KEY.search(text))
