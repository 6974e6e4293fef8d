"""Launch commands a Python file gives as its own usage, in a comment or a docstring (``# accelerate launch
--config_file configs/zero3.yaml train.py``; a module docstring's ``deepspeed train.py --deepspeed ds_config.json``).

They are read as a notebook's shell lines are (lint/recipes.py): from the file's directory, then its parents up to
the project's root (a path written from the root resolves too). A line counts when it starts a launcher
(``accelerate launch``, ``deepspeed``, ``torchrun``, ``python -m torch.distributed.run``), after a ``#``, a ``$``
prompt, environment assignments (``CUDA_VISIBLE_DEVICES=0,1``) or ``uv run``, and names a script, a module or an
option (``torchrun is what we use`` is prose); the lines its backslashes continue go with it. Such a line is no
Python (``deepspeed train.py`` does not parse), so it can only be a comment's or a string's. Test files and the
copies of libraries' repositories a project bundles are not read: their usage lines are the library's own.
"""

from __future__ import annotations

import re
from typing import List, Tuple

from .discover import _read
from .script.vendored import library_repo
from .test_paths import is_test

# a launcher, not a name in code: `deepspeed train.py`, never `deepspeed.initialize(` or `deepspeed = ...`
_START = re.compile(r"(?:\$[ \t]+)?(?:[A-Za-z_]\w*=\S*[ \t]+)*(?:uv[ \t]+run[ \t]+)?"
                    r"(?:accelerate[ \t]+launch|deepspeed|torchrun|python3?[ \t]+-m[ \t]+torch\.distributed\.(?:run|launch))"
                    r"[ \t]+(?![=(.:\[\]])\S")
_CHEAP = re.compile(r"accelerate[ \t]+launch|deepspeed[ \t]+[\w./$-]|torchrun[ \t]|torch\.distributed\.(?:run|launch)")
_ARGS = re.compile(r"\.py\b|[ \t]-m[ \t]|[ \t]--?[A-Za-z]")  # a script, a module or an option: no prose
_COMMENT = re.compile(r"^[ \t]*#+[ \t]?")
_MAX_LINES = 40  # a continued command longer than this is no usage line


def _content(line: str) -> str:
    """The line without its indentation and comment marks."""
    return _COMMENT.sub("", line, count=1).strip() if _COMMENT.match(line) else line.strip()


def usage_lines(path: str, root: str) -> List[Tuple[int, str]]:
    """(first line, shell text) of each launch command ``path`` gives in its comments and docstrings; [] for a
    test file, a bundled library's file, or a file without one."""
    text = _read(path)
    if not _CHEAP.search(text) or is_test(path, root) or library_repo(path) is not None:
        return []
    lines = text.split("\n")
    out: List[Tuple[int, str]] = []
    i = 0
    while i < len(lines):
        block = [_content(lines[i])]
        if not _START.match(block[0]):
            i += 1
            continue
        while block[-1].endswith("\\") and len(block) < _MAX_LINES and i + len(block) < len(lines):
            block.append(_content(lines[i + len(block)]))
        if _ARGS.search(" ".join(block)):
            out.append((i + 1, "\n".join(block)))
        i += len(block)
    return out
