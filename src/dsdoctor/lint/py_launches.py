"""Launch commands a Python file builds as a list of strings and runs (``subprocess.run(["accelerate", "launch",
"--config_file", cfg.config, "./src/train.py", ...])``: an orchestrator that starts the training script itself).

Each such list is read as one shell line (lint/recipes.py reads it as it reads a notebook's ``!deepspeed`` cell): a
literal string is that word, an f-string without placeholders its text, anything else (a variable, an expression,
``*args``) a value not known (``$PY_VALUE``), so a config named through a variable leaves the stage unknown. Test
files and the copies of libraries' repositories a project bundles are not read: their launch lists are the
library's own tests.
"""

from __future__ import annotations

import ast
import os
import re
import shlex
from typing import List, Optional, Tuple

from .discover import _read
from .script.vendored import library_repo

_LAUNCHERS = ("accelerate", "deepspeed", "torchrun")
_HEAD = re.compile(r"""\[\s*f?["'](?:accelerate|deepspeed|torchrun)["']\s*,""")
_TEST = re.compile(r"(?:^|/)(?:tests?|testing)/|(?:^|/)test_[^/]*\.py$|_test\.py$")
UNKNOWN = "$PY_VALUE"


def _word(node: ast.expr) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return shlex.quote(node.value) if node.value else "''"
    if isinstance(node, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in node.values):
        return shlex.quote("".join(str(v.value) for v in node.values if isinstance(v, ast.Constant)))
    return UNKNOWN


def _head(node: ast.List) -> Optional[str]:
    first = _word(node.elts[0]) if node.elts else UNKNOWN
    if first not in _LAUNCHERS:
        return None
    if first == "accelerate" and (len(node.elts) < 2 or _word(node.elts[1]) != "launch"):
        return None  # `accelerate config` / `accelerate env`: no launch
    return first


def launch_lists(path: str) -> List[Tuple[int, str]]:
    """(line, shell text) of each launch command ``path`` builds as a list of strings; [] for a test file, a file
    of a bundled library's repository, one that does not parse or builds none."""
    rel = os.path.relpath(path) if os.path.isabs(path) else os.path.normpath(path)
    text = _read(path)
    if not _HEAD.search(text) or _TEST.search(rel.replace(os.sep, "/")) or library_repo(path) is not None:
        return []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    out: List[Tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.List) and _head(node) is not None:
            out.append((node.lineno, " ".join(_word(e) for e in node.elts) + "\n"))
    return sorted(out)
