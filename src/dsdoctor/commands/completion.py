"""``dsdoctor completion SHELL``: the shell completion script (generated from the parser by
:mod:`dsdoctor.completion`)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cliparse import option
from ..exitcodes import OK
from . import Outcome

if TYPE_CHECKING:
    import argparse

HELP = """Print a shell completion script for dsdoctor: `eval "$(dsdoctor completion bash)"` in ~/.bashrc (zsh: the
    same with zsh, in ~/.zshrc); fish: `dsdoctor completion fish > ~/.config/fish/completions/dsdoctor.fish`."""


NEEDS_PARSER = True  # the CLI hands run() its whole parser (this module cannot import the CLI that imports it)


@dataclass
class Options:
    """``completion``'s options: ``shell`` bash, zsh or fish."""

    shell: str = option("shell", choices=("bash", "zsh", "fish"), help="bash, zsh or fish.")


def run(o: Options, parser: "argparse.ArgumentParser") -> Outcome:
    """Print the script of ``parser`` (the CLI's, handed over by :mod:`dsdoctor.cli`) for ``o.shell``."""
    from ..completion import script

    sys.stdout.write(script(parser, o.shell))
    return Outcome(None, OK, rendered=True)
