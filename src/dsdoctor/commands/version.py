"""``dsdoctor version`` (also ``dsdoctor --version``, answered by :mod:`dsdoctor.entry` before the CLI loads)."""

from __future__ import annotations

from dataclasses import dataclass

from ..exitcodes import OK
from . import Outcome

HELP = "Print dsdoctor's version and the versions it knows facts for."


@dataclass
class Options:
    """``version`` has no options."""


def run(o: Options) -> Outcome:
    """Print the version text."""
    from .. import __version__
    from ..knowledge.coverage import version_text

    print(version_text(__version__))
    return Outcome(None, OK, rendered=True)
