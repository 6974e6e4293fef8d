"""The one way dsdoctor writes a file: a temporary file in the same directory, then ``os.replace``, so a
crash or a full disk never leaves a half-written file. An existing file keeps its permission bits."""

from __future__ import annotations

import os
import tempfile
from typing import Optional


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_text(path: str, text: str, *, errors: str = "strict", mode: Optional[int] = None) -> None:
    """Replace ``path`` with ``text`` (UTF-8, newlines as given) atomically.

    ``mode``: permission bits for a new file (default 0o644 less the umask); an existing file keeps its own.
    """
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".dsdoctor-", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors=errors, newline="") as fh:
            fh.write(text)
        if os.path.exists(path):
            os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        else:
            os.chmod(tmp, (0o644 & ~_umask()) if mode is None else mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
