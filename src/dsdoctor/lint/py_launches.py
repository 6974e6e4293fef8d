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
import re
import shlex
from typing import List, Tuple

from .discover import _read
from .script.vendored import library_repo
from .test_paths import is_test

_LAUNCHERS = ("accelerate", "deepspeed", "torchrun")
_HEAD = re.compile(r"""\[\s*f?["'](?:""" + "|".join(_LAUNCHERS) + r""")["']\s*,""")  # a cheap look before parsing
UNKNOWN = "$PY_VALUE"


def _word(node: ast.expr) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return shlex.quote(node.value) if node.value else "''"
    if isinstance(node, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in node.values):
        return shlex.quote("".join(str(v.value) for v in node.values if isinstance(v, ast.Constant)))
    return UNKNOWN


def _launches(node: ast.List) -> bool:
    """Does the list start a launcher (``accelerate launch``, not ``accelerate config``)?"""
    first = _word(node.elts[0]) if node.elts else UNKNOWN
    return first in _LAUNCHERS and (first != "accelerate" or len(node.elts) > 1 and _word(node.elts[1]) == "launch")


def launch_lists(path: str, root: str) -> List[Tuple[int, str]]:
    """(line, shell text) of each launch command ``path`` builds as a list of strings; [] for a test file of the
    project under ``root``, a file of a bundled library's repository, one that does not parse or builds none."""
    text = _read(path)
    if not _HEAD.search(text) or is_test(path, root) or library_repo(path) is not None:
        return []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    out: List[Tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.List) and _launches(node):
            out.append((node.lineno, " ".join(_word(e) for e in node.elts) + "\n"))
    return sorted(out)
