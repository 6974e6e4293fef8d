"""The directory listing of lint's walk (lint/discover.py): one directory's files and subdirectories, and the order
of a top-down walk of sorted directories."""

from __future__ import annotations

import os
from typing import List, Tuple


def listing(d: str) -> Tuple[List[str], List[str]]:
    """The regular files (or links to one) and the directories (not followed where a link) of ``d``, each sorted."""
    files: List[str] = []
    dirs: List[str] = []
    try:
        with os.scandir(d) as it:
            for e in it:
                try:
                    if e.is_dir():
                        if not e.is_symlink():
                            dirs.append(e.name)
                    elif e.is_file():  # not a FIFO, socket or device (reading a FIFO waits for a writer forever),
                        files.append(e.name)  # nor a link to nothing
                except OSError:
                    continue
    except OSError:
        return [], []
    return sorted(files), sorted(dirs)


def walk_order(p: str) -> Tuple[Tuple[int, str], ...]:
    """The order of a top-down walk of sorted directories: a directory's files, then each subdirectory's."""
    parts = p.split(os.sep)
    return tuple((1, x) for x in parts[:-1]) + ((0, parts[-1]),)


def stopped_line(root: str, max_files: int, depth: int, d: str, p: str) -> str:
    """What a walk of ``root`` that reached ``max_files`` files at ``p`` (in ``d``, ``depth`` levels down) left out."""
    return (f"{root}: the walk stopped at {max_files} files, {depth} directories down, in {d} (after {p}); the Python "
            "files and YAMLs after it in path order at that depth and those deeper, and the configs only they name, "
            "were not read (the shell scripts, hostfiles and .deepspeed_env files were)")
