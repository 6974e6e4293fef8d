"""A file whose whole text is a relative path: a git symbolic link checked out as text.

Git stores a symbolic link as a blob holding its target's path; a checkout without link support (Windows without
``core.symlinks``, an archive or export) writes that text as the file. Lint reads such a file as the link it is:
the file it names is linted as itself, or, where the repository has no such file, the link is dangling.
"""

from __future__ import annotations

import os
from typing import Optional, Tuple


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
