"""The ``dsdoctor`` console entry point: ``--version`` answers without importing the CLI layer (argparse, rich, the commands),
everything else goes to :func:`dsdoctor.cli.main`."""

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

        print(version_text(__version__))
        return 0
    from .cli import main as cli_main

    return cli_main(argv)
