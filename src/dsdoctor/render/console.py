"""The one rich Console every text renderer uses: styled on a terminal, plain text (no colour, no bold) when the
output is not a TTY, NO_COLOR is set (https://no-color.org: any non-empty value) or TERM=dumb."""

from __future__ import annotations

import os
from typing import IO, TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.console import Console


def styled(out: IO[str]) -> bool:
    """Whether ``out`` gets ANSI styling."""
    try:
        tty = out.isatty()
    except (AttributeError, ValueError):  # a closed or exotic stream
        tty = False
    return tty and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def console(out: TextIO) -> "Console":
    from rich.console import Console

    if styled(out):
        return Console(file=out, highlight=False, soft_wrap=True)
    return Console(file=out, highlight=False, soft_wrap=True, color_system=None)  # no_color alone keeps bold
