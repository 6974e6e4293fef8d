"""A file whose whole text stands for another: a git symbolic link checked out as text, a Git LFS pointer.

Git stores a symbolic link as a blob holding its target's path; a checkout without link support (Windows without
``core.symlinks``, an archive or export) writes that text as the file. Lint reads such a file as the link it is:
the file it names is linted as itself, or, where the repository has no such file, the link is dangling.

A repository that keeps files in Git LFS commits a pointer (``version https://git-lfs.github.com/spec/v1``, the
object's ``oid`` and ``size``); a clone without ``git lfs`` (or an archive) has the pointer, not the file. Its content
is not here to lint: the finding says so, at info (with LFS the file is whatever it is).
"""

from __future__ import annotations

import os
import re
from typing import Optional, Tuple

_LFS = re.compile(r"\Aversion https://git-lfs\.github\.com/spec/v\d+\r?\n(?:[\w-]+ [^\n]*\r?\n)*?oid sha256:([0-9a-f]{64})"
                  r"\r?\n(?:[\w-]+ [^\n]*\r?\n)*?size (\d+)\s*\Z")


def text_link(path: str, text: str, suffixes: Tuple[str, ...]) -> Optional[Tuple[str, bool]]:
    """(the path written, whether that file exists) where the whole text of ``path`` is one relative path ending
    in one of ``suffixes`` (``../../aishell/ds_config_zero1.json``); None otherwise."""
    text = text.strip()
    if "\n" in text or not text.endswith(suffixes) or os.path.isabs(text) or len(text) > 4096 or " " in text \
            or "/" not in text:
        return None
    target = os.path.normpath(os.path.join(os.path.dirname(path), text))
    if os.path.normpath(path) == target:
        return None
    return text, os.path.isfile(target)


def lfs_pointer(text: str) -> Optional[str]:
    """What to say of a file whose whole text is a Git LFS pointer (module doc); None otherwise."""
    m = _LFS.match(text) if text.startswith("version https://git-lfs") and len(text) < 1024 else None
    if m is None:
        return None
    return (f"not linted: the file is a Git LFS pointer (a {m.group(2)}-byte object), not its content: this checkout "
            "has no LFS objects (`git lfs install && git lfs pull` fetches them)")
