"""The entry script a launch line starts: a ``.py`` argument, a ``-m`` module, or the training script a launcher
script of the project's own starts after it."""

from __future__ import annotations

import os
import re
from typing import List, Optional

from .discover import _read
from .markdown import resolve_anywhere
from .recipe import Recipe, resolve

TORCH_LAUNCH = ("torch.distributed.run", "torch.distributed.launch")

# a launcher script of the project's own (gaudi_spawn.py, xla_spawn.py): it takes the training script and its
# arguments as the rest of its command line (argparse's REMAINDER) and starts it, as torchrun does
_SPAWNER = re.compile(r"nargs\s*=\s*(?:argparse\.)?REMAINDER\b")


_UNSET_DIR = re.compile(r"^\$\{?[A-Za-z_]\w*\}?/(.+)$")  # a path below a directory a variable names


def set_entry(r: Recipe, argv: List[str], path: str, root: str, readme: bool = False) -> Optional[int]:
    """Set the recipe's entry (a ``.py`` argument or ``-m`` / ``--module`` module, the script a launcher script of
    the project's own starts); its index in argv."""
    for i, a in enumerate(argv[1:], 1):
        if a.endswith(".py"):
            r.entry = resolve(a, path, root)
            if r.entry is None and (readme or os.path.isabs(a)):  # `$ROOT/Code/proj/src/train.py`: the writer's checkout
                r.entry = resolve_anywhere(a, os.path.dirname(path), root)
            tail = _UNSET_DIR.match(a)  # `$WORK_DIR/CosyVoice/cosyvoice/bin/train.py`: the one project file so ending
            if r.entry is None and tail is not None and "$" not in tail.group(1) and os.sep in tail.group(1):
                r.entry = resolve_anywhere(tail.group(1), os.path.dirname(path), root)
            if r.entry is not None and _SPAWNER.search(_read(r.entry, 2**20)):
                inner = next(((k, got) for k in range(i + 1, len(argv)) if argv[k].endswith(".py")
                              and (got := resolve(argv[k], path, root)) is not None), None)
                if inner is not None:
                    r.entry = inner[1]
                    return inner[0]
            return i
        if a in ("-m", "--module") and i + 1 < len(argv) and argv[i + 1] not in TORCH_LAUNCH:
            r.module = argv[i + 1]
            mod = argv[i + 1].replace(".", "/")
            r.entry = resolve(mod + ".py", path, root) or resolve(mod + "/__main__.py", path, root)
            return i + 1
    return None
