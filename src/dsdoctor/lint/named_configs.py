"""The DeepSpeed configs of a directory the user names that is not a project (``dsdoctor lint configs/``).

A walk of a project lints the configs its launches, scripts and YAMLs name, not every JSON file of the tree (data,
tokenizer and evaluation files are JSON too). A directory named on the command line that is no project root is
different: the user asks about what is in it, often a folder of ds_configs (``deepspeed/zero_stage3_config.json``)
that no file of that folder names. Its JSON files that read as DeepSpeed configs are linted as configs.
"""

from __future__ import annotations

import os
import re
from typing import List, Optional

from .discover import SKIP_DIRS, is_ds_config
from .gitignore import Ignored
from .listing import listing

MAX_CONFIGS = 500  # a folder of thousands of JSON files is a data folder, not configs: at most this many read
# the file names of DeepSpeed configs (ds_config_zero3.json, deepspeed_z2.json, zero3_offload.json, stage3.json):
# in a project, only such files are opened to say which configs nothing names (lint/__init__.py _unnamed_configs)
CONFIG_NAME = re.compile(r"(?i)(?:^|[^a-z])(?:ds|deepspeed|zero|z[0-3]|stage[_-]?[0-3]|offload)(?:[^a-z]|$)")


def named_configs(directory: str, max_depth: int = 3, like: Optional["re.Pattern[str]"] = None) -> List[str]:
    """The ``.json`` / ``.hjson`` files under ``directory`` (``max_depth`` levels down, what git ignores and hidden
    directories left out; with ``like``, only file names it matches) whose text names a DeepSpeed config key
    (:func:`.discover.is_ds_config`), in path order."""
    out: List[str] = []
    ignored = Ignored(directory)
    level = [directory]
    for _ in range(max_depth + 1):
        below: List[str] = []
        for d in level:
            files, dirs = listing(d)
            below += [os.path.join(d, x) for x in dirs if not x.startswith(".") and x not in SKIP_DIRS
                      and not ignored(os.path.join(d, x), True)]
            for f in files:
                p = os.path.join(d, f)
                if f.lower().endswith((".json", ".hjson")) and (like is None or like.search(f)) and \
                        not ignored(p, False) and is_ds_config(p):
                    out.append(p)
                    if len(out) >= MAX_CONFIGS:
                        return sorted(out)
        level = below
    return sorted(out)

