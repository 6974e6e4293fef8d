"""Launches a project gives as Makefile targets (``make dist_train`` runs ``accelerate launch --config_file
./z3.yaml train.py``).

make runs each recipe line (a line starting with a tab, and its ``\\`` continuation lines) with the shell, from the
Makefile's directory. :func:`shell_text` gives a Makefile as a shell script for :func:`.recipes.shell_recipes`
(line numbers kept): the recipe lines without their tab and ``@`` / ``-`` / ``+`` prefixes, ``$$`` as ``$``, a make
variable ``$(NAME)`` / ``${NAME}`` as the shell's ``${NAME}``, the simple assignments (``NAME = value``, ``:=``,
``?=``) as shell assignments so those references expand; every other line (targets, directives, comments) blank.
Read only where one line names a launcher. Bounded: the Makefiles of the directories lint reads and of those
between them and the root, at most :data:`MAX_MAKEFILES`.
"""

from __future__ import annotations

import re
import shlex
from typing import Iterable, List

from .markdown import files_between

MAX_MAKEFILES = 40
NAMES = ("makefile", "gnumakefile")  # what GNU make reads, any case
_LAUNCHES = re.compile(r"\b(?:deepspeed|torchrun|accelerate[ \t]+launch|torch\.distributed\.(?:run|launch))\b")
_ASSIGN = re.compile(r"^(?:export[ \t]+|override[ \t]+)?([A-Za-z_]\w*)[ \t]*(?::{1,3}|\?|\+)?=[ \t]*(.*)$")
_MAKE_VAR = re.compile(r"\$[({]([A-Za-z_]\w*)[)}]")


def makefiles(root: str, dirs: Iterable[str]) -> List[str]:
    """The Makefiles of ``root``, of the directories ``dirs`` and of those between them and ``root``; sorted, at
    most :data:`MAX_MAKEFILES`."""
    found = files_between(root, dirs, "makefile")
    return [p for p in found if p.rsplit("/", 1)[-1].lower() in NAMES][:MAX_MAKEFILES]


def launches(text: str) -> bool:
    """Does the Makefile name a launcher (worth reading its recipes)?"""
    return _LAUNCHES.search(text) is not None


def shell_text(text: str) -> str:
    """The Makefile ``text`` as a shell script of its recipe lines and simple assignments (line numbers kept)."""
    out: List[str] = []
    recipe = False  # the previous line was a recipe line ending in a backslash: this one continues it
    for line in text.split("\n"):
        if line.startswith("\t") or recipe:
            body = line.lstrip("\t") if line.startswith("\t") else line
            if not recipe:
                body = body.lstrip("@-+ ")
            recipe = body.rstrip().endswith("\\")
            out.append(_MAKE_VAR.sub(r"${\1}", body.replace("$$", "\x00")).replace("\x00", "$"))
            continue
        m = _ASSIGN.match(line)
        if m is not None and "$(" not in m.group(2) and not line.lstrip().startswith("#"):
            value = _MAKE_VAR.sub(r"${\1}", m.group(2).split(" #", 1)[0].strip())
            plain = not any(c in value for c in "\"\\`")
            out.append(f'{m.group(1)}="{value}"' if plain else f"{m.group(1)}={shlex.quote(value)}")
        else:
            out.append("")
    return "\n".join(out)
