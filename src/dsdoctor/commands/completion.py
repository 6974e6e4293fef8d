"""``dsdoctor completion SHELL``: the shell completion script (generated from the parser by
:mod:`dsdoctor.completion`)."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from ..cliparse import option
from ..exitcodes import OK
from . import Outcome

HELP = """Print a shell completion script for dsdoctor: `eval "$(dsdoctor completion bash)"` in ~/.bashrc (zsh: the
    same with zsh, in ~/.zshrc); fish: `dsdoctor completion fish > ~/.config/fish/completions/dsdoctor.fish`."""


@dataclass
class Options:
    """``completion``'s options: ``shell`` bash, zsh or fish."""

    shell: str = option("shell", choices=("bash", "zsh", "fish"), help="bash, zsh or fish.")


def run(o: Options) -> Outcome:
    """Print the script for ``o.shell``."""
    from ..cli import app
    from ..completion import script

    sys.stdout.write(script(app.parser(), o.shell))
    return Outcome(None, OK, rendered=True)
