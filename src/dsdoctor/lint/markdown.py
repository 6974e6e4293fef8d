"""README-like Markdown of a project: the files (:func:`markdown_files`), the fenced shell code blocks that may
launch something (:func:`code_blocks`), read as launch recipes by :mod:`.recipes`, and the project file a path
written for a reader elsewhere names (:func:`resolve_anywhere`)."""

from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import Iterable, Iterator, List, Optional, Tuple

from .discover import _walk_into

_FENCE = re.compile(r"^[ \t]*(```|~~~)[ \t]*([\w+-]*)[^\n]*$", re.M)
_SHELL_LANGS = ("", "bash", "sh", "shell", "console", "zsh", "shell-session")
MAX_INDEX = 20000  # files indexed to find what a README command names from another directory
LAUNCH_WORD = re.compile(r"deepspeed|torchrun|accelerate|python|torch\.distributed")
# a block labelled as another language (```python) whose first command is a launcher's: a shell command all the same
_STARTS_LAUNCH = re.compile(r"\A(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]*(?:\$[ \t]+)?(?:[A-Z_][A-Z0-9_]*=\S*[ \t]+)*"
                            r"(?:accelerate[ \t]+launch|deepspeed|torchrun)[ \t]")


def _inside(path: str, root: str) -> bool:
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
    return rel == "." or not rel.startswith("..")


# a line a README forgot to end with a backslash, followed by an indented option line (`train.py` then
# `    --data_path ...`): an option line alone is no command, so it continues the one above
_UNCONTINUED = re.compile(r"(?<=[^\\\s])[ \t]*\n(?=[ \t]+--?[A-Za-z])")


def code_blocks(text: str, word: "re.Pattern[str]" = LAUNCH_WORD) -> List[Tuple[int, str]]:
    """(first line, text) of each shell (or unlabelled) fenced code block of a Markdown file that may launch
    something (``word``: what such a block says), and of each block labelled otherwise whose first command is
    ``accelerate launch`` / ``deepspeed`` / ``torchrun``; ``$ `` prompts removed, an indented option line after a
    line with no backslash joined to it."""
    out: List[Tuple[int, str]] = []
    fences = list(_FENCE.finditer(text))
    i = 0
    while i + 1 < len(fences):
        opening, closing = fences[i], fences[i + 1]
        if closing.group(1) != opening.group(1) or closing.group(2):  # not a closing fence: skip the opening
            i += 1
            continue
        i += 2
        block = text[opening.end() + 1:closing.start()]
        if (opening.group(2).lower() in _SHELL_LANGS and word.search(block)) or _STARTS_LAUNCH.match(block):
            block = re.sub(r"(?m)^([ \t]*)\$ ", r"\1", block)
            block = _UNCONTINUED.sub(" \\\n", block)
            out.append((text.count("\n", 0, opening.end()) + 2, block))
    return out


def markdown_files(root: str, dirs: "Iterator[str]") -> List[str]:
    """README-like Markdown files in ``root``, the given directories (where the project's files are) and the
    directories between them and ``root`` (a sub-project's README above its ``src/``), then those of its
    documentation directories (:func:`_docs`)."""
    return files_between(root, dirs, ".md") + _docs(os.path.normpath(root))


def files_between(root: str, dirs: "Iterable[str]", suffix: str) -> List[str]:
    """The files ending in ``suffix`` (any case) of ``root``, of the directories ``dirs`` and of those between them
    and ``root``, sorted per directory."""
    out: List[str] = []
    root = os.path.normpath(root)
    wanted = {root}
    for d in set(dirs):
        d = os.path.normpath(d)
        while d not in wanted and _inside(d, root):
            wanted.add(d)
            d = os.path.dirname(d) or "."
    for d in sorted(wanted):
        try:
            names = sorted(os.listdir(d))
        except OSError:
            continue
        out += [os.path.normpath(os.path.join(d, n)) for n in names if n.lower().endswith(suffix)]
    return out


DOCS_DIRS = ("docs", "doc", "documents", "documentation")  # where a project writes its guides' commands
MAX_DOCS = 200  # Markdown files read from them at most


def _docs(root: str) -> List[str]:
    """The Markdown files of the project's documentation directories (``docs/``, ``documents/`` ... at its root,
    and below them), whose guides give launch commands too; sorted, at most ``MAX_DOCS``."""
    out: List[str] = []
    for name in DOCS_DIRS:
        top = os.path.join(root, name)
        if not os.path.isdir(top):
            continue
        for d, dirs, files in os.walk(top):
            dirs[:] = sorted(x for x in dirs if _walk_into(os.path.join(d, x), x, True))
            out += [os.path.normpath(os.path.join(d, f)) for f in sorted(files) if f.lower().endswith(".md")]
            if len(out) >= MAX_DOCS:
                return out[:MAX_DOCS]
    return out


@lru_cache(maxsize=8)
def _index(root: str) -> Tuple[str, ...]:
    """The project's files (relative paths as lint shows them), walked once per root when a README needs it."""
    out: List[str] = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if _walk_into(os.path.join(d, x), x, True))
        out += [os.path.normpath(os.path.join(d, f)) for f in files]
        if len(out) > MAX_INDEX:
            break
    return tuple(out)


def same_name(ref: str, root: str) -> List[str]:
    """The project's files named as ``ref``'s file, in any directory (where a config or a script may have moved)."""
    name = os.path.basename(ref)
    return sorted(f for f in _index(os.path.normpath(root)) if os.path.basename(f) == name)


def resolve_anywhere(ref: str, near: str, root: str) -> Optional[str]:
    """The one file of the project whose path ends with ``ref`` (a README's path written for a reader in another
    directory): among those under ``near`` if any are, else in the whole project; None when none or several. A
    leading ``../`` is the reader's own step out of a subdirectory (``cd sft`` in an earlier block): the rest of
    the path is matched. An absolute path none of whose tails (two parts at least) is the project's: the one file of
    its name under ``near`` (a subdirectory), or in the root itself where ``near`` is the root, if there is one."""
    ref = os.path.normpath(ref)
    while ref.startswith(".." + os.sep):
        ref = ref[3:]
    if not ref or "$" in ref or ref.startswith(".."):
        return None
    if os.path.isabs(ref):  # the writer's own checkout (`/Vary/zero_config/zero2.json`): its last two parts at least
        parts = ref.strip(os.sep).split(os.sep)
        for i in range(len(parts) - 1):
            got = _one_ending(os.sep.join(parts[i:]), near, root)
            if got is not None:
                return got
        # directories the checkout renamed since (`$proj_dir/lang_adapt/continued_clm.py` run from
        # continued_pretraining/, which holds continued_clm.py): the one file of that name beside the launch (in
        # its directory or below; at the project's root, in the root itself: `$curr_dir/configs/z3.json` with the
        # placeholder `curr_dir=/`, the project's z3.json beside its finetune.sh)
        if os.path.normpath(near or ".") == os.path.normpath(root):  # (`lint .` and `lint proj` alike)
            beside = os.path.join(root, parts[-1])
            return os.path.normpath(beside) if os.path.isfile(beside) else None
        return _one_ending(parts[-1], near, root, near_only=True)
    return _one_ending(ref, near, root)


def _one_ending(ref: str, near: str, root: str, near_only: bool = False) -> Optional[str]:
    tail = os.sep + ref
    hits = [f for f in _index(os.path.normpath(root)) if (os.sep + f).endswith(tail)]
    near = os.path.normpath(near)
    close = [f for f in hits if near in (".", "") or f.startswith(near + os.sep)]
    pick = close if close or near_only else hits
    return pick[0] if len(pick) == 1 else None
