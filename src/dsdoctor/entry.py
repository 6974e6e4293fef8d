"""The ``dsdoctor`` console entry point: ``--version`` answers without importing the CLI layer (argparse, rich, the commands),
everything else goes to :func:`dsdoctor.cli.main`. A closed stdout (``dsdoctor rules | head -1``) is a normal end:
:func:`stdout_closed`."""

from __future__ import annotations

import sys
from typing import List, Optional

VERSION_FLAGS = ("--version", "-V")


def main(argv: Optional[List[str]] = None) -> int:
    """``dsdoctor [ARGS]``; returns the exit code."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) == 1 and args[0] in VERSION_FLAGS:
        from . import __version__
        from .knowledge.coverage import version_text

        try:
            print(version_text(__version__))
        except BrokenPipeError:
            return stdout_closed(0)
        return flushed(0)
    from .cli import main as cli_main

    return cli_main(argv)


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
