"""Reading the user's files without waiting forever: a path that is no regular file (a FIFO, whose ``open`` waits
for a writer that never comes; a socket; a device) is refused with an ``OSError`` that says what it is."""

from __future__ import annotations

import errno
import os
import stat


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a directory" if stat.S_ISDIR(mode) else "a special file"


def _regular(mode: int, path: str) -> None:
    if not stat.S_ISREG(mode):
        raise OSError(errno.EINVAL, f"{_kind(mode)}, not a regular file", path)


def read_bytes(path: str, limit: int) -> bytes:
    """The first ``limit`` bytes of the regular file ``path`` (or a link to one). ``OSError`` as ``open`` raises
    it, or, for a path that is no regular file, with a ``strerror`` saying what it is (opened without blocking,
    so a FIFO is refused at once)."""
    _regular(os.stat(path).st_mode, path)  # a socket's open fails with "No such device or address"
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        _regular(os.fstat(fd).st_mode, path)  # what was opened, should the path have changed since
        chunks = []
        left = limit
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)
