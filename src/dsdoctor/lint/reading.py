"""How lint reads a project file's text: UTF-8 with bad bytes replaced, at most ``limit`` bytes, "" where it cannot be
read. Its own module so that modules :mod:`.discover` calls can read files without importing it back."""

from __future__ import annotations

from ..regular_file import read_bytes


def read_text(path: str, limit: int = 2 * 2**20) -> str:
    """The text of ``path`` (module doc)."""
    try:
        return read_bytes(path, limit).decode("utf-8", errors="replace")
    except OSError:
        return ""
