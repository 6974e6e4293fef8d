"""What git ignores under a directory lint walks (lint/discover.py ``walk``).

A file git tracks is never ignored, whatever .gitignore says: git lists only untracked files as ignored.
"""

from __future__ import annotations

import fnmatch
import os
from typing import List, Optional, Set, Tuple


def _text(path: str) -> str:
    try:
        with open(path, "rb") as fh:
            return fh.read(2**20).decode("utf-8", errors="replace")
    except OSError:
        return ""


class Ignored:
    """What git ignores under ``root``: asked from git when ``root`` is in a work tree (``git ls-files --others
    --ignored --exclude-standard --directory``: every .gitignore, .git/info/exclude and the global excludes),
    else from ``root``'s own .gitignore (basic patterns: ``name``, ``dir/``, ``/anchored``, ``*`` globs, ``!``)."""

    def __init__(self, root: str) -> None:
        self.root = os.path.abspath(root)
        self.paths: Optional[Set[str]] = self._from_git()
        self.patterns: List[Tuple[bool, bool, bool, str]] = [] if self.paths is not None else self._from_file()

    def __call__(self, path: str, is_dir: bool) -> bool:
        rel = os.path.relpath(os.path.abspath(path), self.root).replace(os.sep, "/")
        if self.paths is not None:
            return (rel + "/" if is_dir else rel) in self.paths
        hit = False
        for negate, dir_only, anchored, pat in self.patterns:
            if dir_only and not is_dir:
                continue
            if fnmatch.fnmatchcase(rel if anchored else rel.rsplit("/", 1)[-1], pat):
                hit = not negate
        return hit

    def _from_git(self) -> Optional[Set[str]]:
        import subprocess

        try:
            p = subprocess.run(["git", "-C", self.root, "ls-files", "-z", "--others", "--ignored", "--exclude-standard",
                                "--directory"], capture_output=True, timeout=30)
        except (OSError, subprocess.SubprocessError):
            return None
        if p.returncode != 0:
            return None
        return {x for x in p.stdout.decode("utf-8", "replace").split("\0") if x}

    def _from_file(self) -> List[Tuple[bool, bool, bool, str]]:
        out: List[Tuple[bool, bool, bool, str]] = []
        for line in _text(os.path.join(self.root, ".gitignore")).splitlines():
            line = line.rstrip()
            if not line or line.startswith("#"):
                continue
            negate = line.startswith("!")
            line = line[1:] if negate else line
            dir_only = line.endswith("/")
            line = line.rstrip("/")
            anchored = "/" in line
            out.append((negate, dir_only, anchored, line.lstrip("/").replace("**/", "*")))
        return out
