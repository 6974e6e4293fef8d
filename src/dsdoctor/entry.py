"""The ``dsdoctor`` console entry point: ``--version`` answers without importing the CLI layer (argparse, rich, the commands),
everything else goes to :func:`dsdoctor.cli.main`. A closed stdout (``dsdoctor rules | head -1``) is a normal end:
:mod:`dsdoctor.stdout`."""

from __future__ import annotations

import sys
from typing import List, Optional

VERSION_FLAGS = ("--version", "-V")


def main(argv: Optional[List[str]] = None) -> int:
    """``dsdoctor [ARGS]``; returns the exit code."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) == 1 and args[0] in VERSION_FLAGS:
        from .knowledge.coverage import version_text
        from .stdout import flushed, stdout_closed
        from .version import __version__

        try:
            print(version_text(__version__))
        except BrokenPipeError:
            return stdout_closed(0)
        return flushed(0)
    from .codecache import installed

    if argv is None:  # the process's own command line: a short-lived batch run
        fewer_collections()
    with installed():  # dataclasses' generated methods: compiled once, like bytecode (docs/performance.md)
        from .cli import main as cli_main

        code = cli_main(argv)
    if argv is None:  # the process's own command line: it ends now
        no_final_collections()
    return code


def fewer_collections() -> None:
    """Collect cycles less often than the interpreter's default (every 700 net allocations, a full pass every 100
    young ones): a lint run allocates millions of objects that reference counting frees (parsed files, the
    project model) and keeps hundreds of thousands alive (modules, rule tables), which each full pass walks again
    (0.1-0.8 CPU s of a whole-repository lint at the defaults, 5 % of peft's). Cycles are still collected, at
    the same peak memory on the issue's repositories. Only for the process's own command line."""
    import gc

    gc.set_threshold(20000, 20, 20)


def no_final_collections() -> None:
    """Leave what is alive to the end of the process: the interpreter's shutdown otherwise runs full garbage
    collections over every object still held (the modules, the project model, the parsed files), 0.1-0.3 CPU s
    of a whole-repository lint that free nothing the exit would not. Frozen objects are never collected: call
    this only when the process is about to end."""
    import gc

    gc.disable()
    gc.freeze()


