"""A closed stdout is a normal end (``dsdoctor rules | head -1``): what the entry point and the CLI do when the
reader of stdout goes away."""

from __future__ import annotations

import sys


def stdout_closed(code: int) -> int:
    """``code``, after the reader of stdout went away: stdout is pointed at /dev/null so that nothing written
    later, nor the interpreter's final flush, raises BrokenPipeError again (the usual Python recipe)."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real stdout (captured under a test): nothing to flush
        pass
    return code


def flushed(code: int) -> int:
    """``code`` once stdout is flushed (what is left in its buffer); a reader gone by then is a normal end too."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        return stdout_closed(code)
    except (OSError, ValueError):
        pass
    return code
