"""Shell files a launch script sources: ``source config/model.sh`` / ``. $1``.

A launch script that sources a settings file (``source $1``, the file named on its command line, or a file it names
itself) takes that file's variables: the ds_config path, the options its launch line expands. The project's own
commands say which file: ``bash scripts/ds_pretrain.sh config/ds_block_large.sh`` in a README code block or another
shell script. :func:`invocations` finds those commands; :func:`sourced_assignments` gives the assignments a sourced
file makes, placed at the ``source`` line of the script (their ``$(dirname $BASH_SOURCE)`` idioms are the sourced
file's own directory), so that :func:`.recipes.shell_recipes` reads the launch as the shell runs it. A script whose
launch line's config option takes a positional parameter (``ZERO=$6`` ... ``--deepspeed scripts/zero$ZERO.json``)
is read the same way, once per command that runs it: its ``$N`` are that command's arguments (:func:`with_args`;
a README's ``<path to X>`` placeholder is one argument). A script whose config option takes a variable it never
sets (``--deepspeed "$finetune_deepspeed"``) is read once per command that runs it, with the variables the
command's file set before it (``export finetune_deepspeed=./scripts/zero3.json`` then ``bash finetune.sh``).
"""

from __future__ import annotations

import os
import re
from typing import Dict, List, Sequence, Tuple

from .discover import _read
from .launch.script_dir import script_dir
from .launch.shell import DS_CONFIG_FLAGS, assignments
from .launch.shell import parse as parse_shell
from .recipe import resolve

# `source $1`, `. "${2}"`, `source config/base.sh`: a file sourced on a line of its own
_SOURCE = re.compile(r"^[ \t]*(?:source|\.)[ \t]+[\"']?(\$\{?[1-9]\}?|[^\s\"'$;&|]+\.(?:sh|bash))[\"']?[ \t]*(?:[#;][^\n]*)?$",
                     re.M)
_SHELLS = ("bash", "sh", "zsh", "source", ".")
_INVOKE = re.compile(r"\.(?:sh|bash)\b")
Assign = Tuple[int, str, str]
_POSITIONAL = re.compile(r"\$([1-9])(?!\d)|\$\{([1-9][0-9]?)(?::?-[^}]*)?\}")  # ${1-default}: the argument where given
_CFG_VAR = re.compile(r"(?:" + "|".join(map(re.escape, DS_CONFIG_FLAGS)) + r")(?:=|[ \t]+)[^\s]*\$")
_SAFE = re.compile(r"[\w./:@%+,=-]+")
# a launcher line whose entry script is a variable (after the launcher's own options, on continuation lines too)
_VAR_ENTRY = re.compile(r"\b(?:deepspeed|torchrun|accelerate[ \t]+launch)\b(?:[ \t]+(?:--?[\w-]+(?:[= \t]+[^\s-][^\s]*)?|\\\n))*"
                        r"[ \t]+[\"']?\$\{?\w+")  # an argument that is one plain word (no quote, space, glob, variable)


_CFG_NAMED = re.compile(r"(?:" + "|".join(map(re.escape, DS_CONFIG_FLAGS)) + r")(?:=|[ \t]+)[\"']?\$\{?([A-Za-z_]\w*)")


def inherits(text: str) -> bool:
    """Does the script's config option take a variable the script never assigns (``--deepspeed "$ds_config"``, the
    variable exported by the script that runs it: ``export ds_config=...`` then ``bash finetune.sh``)?"""
    own = {name for _, name, _ in assignments(text)}
    return any(m.group(1) not in own for m in _CFG_NAMED.finditer(text))


def positional_config(text: str) -> bool:
    """Does the script's config option take a variable, or its launch line start a variable (``torchrun
    $script_path --config_file $config_path``, ``script_path=${1}``), and does the script read positional
    parameters?"""
    return _POSITIONAL.search(text) is not None and (_CFG_VAR.search(text) is not None or
                                                     _VAR_ENTRY.search(text) is not None)


def with_args(text: str, args: Sequence[str]) -> str:
    """``text`` with each ``$N`` / ``${N}`` the command's arguments give as a plain word written in (newlines kept,
    so lines stay where they were)."""
    def one(m: "re.Match[str]") -> str:
        n = int(m.group(1) or m.group(2))
        a = args[n - 1] if n <= len(args) else ""
        return a if _SAFE.fullmatch(a) else m.group(0)

    return _POSITIONAL.sub(one, text)


def _args(words: Sequence[str]) -> List[str]:
    """A command's arguments to a script: up to a pipe or redirection (``| tee log``), a README's ``<path to X>``
    placeholder (split into words by the shell reading) taken as one argument."""
    out: List[str] = []
    i = 0
    while i < len(words):
        a = words[i]
        if a.startswith("<") and len(a) > 1 and not a.endswith(">"):
            end = next((j for j in range(i + 1, len(words)) if words[j].endswith(">") and words[j] != ">"), None)
            if end is not None:
                out.append(" ".join(words[i:end + 1]))
                i = end + 1
                continue
        if a[:1] in "|>&<" or a[:2] in ("1>", "2>"):
            break  # `| tee log`, `> out.log`: the shell's, not the script's
        if a.strip():  # `\ ` at a line end in a README: an escaped blank, meant as a continuation
            out.append(a)
        i += 1
    return out


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


Invocation = Tuple[str, List[str], List[Tuple[str, str]]]  # where, arguments, the variables set before it


def invocations(files: Sequence[Tuple[str, str, int]], root: str) -> Dict[str, List[Invocation]]:
    """Per script that sources a positional parameter (or passes one to its config option: :func:`positional_config`):
    (where, arguments, the variables the command's file sets before it) of each command of ``files`` (path, text,
    first line: shell scripts and README code blocks) that runs it with arguments (``bash x.sh a.sh``, ``./x.sh
    a.sh``, ``source x.sh a.sh``); only literal arguments are kept. Per script whose config option takes a variable
    it never assigns (:func:`inherits`): each command that runs it, with or without arguments, and the variables
    set before it (what it exports to the script)."""
    out: Dict[str, List[Invocation]] = {}
    wanted: Dict[str, Tuple[bool, bool]] = {}
    for path, text, first in files:
        if not _INVOKE.search(text):
            continue
        for cmd in parse_shell(text).commands:
            argv = cmd.argv
            at = 1 if argv and argv[0].rsplit("/", 1)[-1] in _SHELLS else 0
            if len(argv) <= at or not argv[at].endswith((".sh", ".bash")):
                continue
            script = resolve(argv[at], path, root)
            if script is None or os.path.normpath(script) == os.path.normpath(path):
                continue
            script = os.path.normpath(script)
            if script not in wanted:
                own = _read(script)
                wanted[script] = (positional(own) or positional_config(own), inherits(own))
            args = _args(argv[at + 1:])
            by_args = wanted[script][0] and args and all("$" not in a for a in args)
            if by_args or wanted[script][1]:
                line = first + text.count("\n", 0, cmd.start)
                env = [(name, val) for off, name, val in assignments(text) if off < cmd.start]
                out.setdefault(script, []).append((f"{path}:{line}", args if by_args else [], env))
    return out
