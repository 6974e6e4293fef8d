"""Shell files a launch script sources: ``source config/model.sh`` / ``. $1``.

A launch script that sources a settings file (``source $1``, the file named on its command line, or a file it names
itself) takes that file's variables: the ds_config path, the options its launch line expands. The project's own
commands say which file: ``bash scripts/ds_pretrain.sh config/ds_block_large.sh`` in a README code block or another
shell script. :func:`invocations` finds those commands; :func:`sourced_assignments` gives the assignments a sourced
file makes, placed at the ``source`` line of the script (their ``$(dirname $BASH_SOURCE)`` idioms are the sourced
file's own directory), so that :func:`.recipes.shell_recipes` reads the launch as the shell runs it.
"""

from __future__ import annotations

import os
import re
from typing import Dict, List, Sequence, Tuple

from .discover import _read
from .launch.script_dir import script_dir
from .launch.shell import assignments
from .launch.shell import parse as parse_shell
from .recipe import resolve

# `source $1`, `. "${2}"`, `source config/base.sh`: a file sourced on a line of its own
_SOURCE = re.compile(r"^[ \t]*(?:source|\.)[ \t]+[\"']?(\$\{?[1-9]\}?|[^\s\"'$;&|]+\.(?:sh|bash))[\"']?[ \t]*(?:[#;][^\n]*)?$",
                     re.M)
_SHELLS = ("bash", "sh", "zsh", "source", ".")
_INVOKE = re.compile(r"\.(?:sh|bash)\b")
Assign = Tuple[int, str, str]


def sources(text: str) -> List[Tuple[int, str]]:
    """(offset, what) of each ``source`` / ``.`` line: a positional parameter (``$1``) or a file name."""
    if "source" not in text and ". " not in text:
        return []
    return [(m.start(), m.group(1)) for m in _SOURCE.finditer(text)]


def positional(text: str) -> bool:
    """Does the script source a file named by one of its positional parameters?"""
    return any(w.startswith("$") for _, w in sources(text))


def sourced_assignments(path: str, text: str, root: str, args: Sequence[str] = (),
                        invoker: str = "") -> List[Assign]:
    """The assignments the files ``path`` sources make, at the offset of each ``source`` line: a file it names,
    resolved from the script; ``$N``, the ``args[N-1]`` of the command that runs it, resolved from ``invoker``'s
    directory, then the project root (where the command is typed)."""
    out: List[Assign] = []
    for off, what in sources(text):
        if what.startswith("$"):
            n = int(what.strip("${}"))
            if n > len(args):
                continue
            target = resolve(args[n - 1], invoker or path, root)
        else:
            target = resolve(what, path, root)
        if target is None or not target.endswith((".sh", ".bash")) or os.path.normpath(target) == os.path.normpath(path):
            continue
        own = _read(target)
        out += [(off, name, script_dir(own, at, target) or val) for at, name, val in assignments(own)]
    return out


def invocations(files: Sequence[Tuple[str, str, int]], root: str) -> Dict[str, List[Tuple[str, List[str]]]]:
    """Per script that sources a positional parameter: (where, arguments) of each command of ``files`` (path,
    text, first line: shell scripts and README code blocks) that runs it with arguments (``bash x.sh a.sh``,
    ``./x.sh a.sh``, ``source x.sh a.sh``). Only literal arguments are kept."""
    out: Dict[str, List[Tuple[str, List[str]]]] = {}
    wanted: Dict[str, bool] = {}
    for path, text, first in files:
        if not _INVOKE.search(text):
            continue
        for cmd in parse_shell(text).commands:
            argv = cmd.argv
            at = 1 if argv and argv[0].rsplit("/", 1)[-1] in _SHELLS else 0
            if len(argv) <= at + 1 or not argv[at].endswith((".sh", ".bash")):
                continue
            script = resolve(argv[at], path, root)
            if script is None:
                continue
            script = os.path.normpath(script)
            if script not in wanted:
                wanted[script] = positional(_read(script))
            args = []
            for a in argv[at + 1:]:
                if a[:1] in "|>&<" or a[:2] in ("1>", "2>"):
                    break  # `| tee log`, `> out.log`: the shell's, not the script's
                if a.strip():  # `\ ` at a line end in a README: an escaped blank, meant as a continuation
                    args.append(a)
            if wanted[script] and args and all("$" not in a for a in args):
                line = first + text.count("\n", 0, cmd.start)
                out.setdefault(script, []).append((f"{path}:{line}", args))
    return out
