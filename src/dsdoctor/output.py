"""The ``--format`` and ``--fail-on`` choices every reporting command takes. What they select lives in
:mod:`dsdoctor.render` (the renderer) and :mod:`dsdoctor.exitcodes` (the exit code)."""

from __future__ import annotations

from enum import Enum


class Format(str, Enum):
    """``--format``: rich text (plain when not a TTY or NO_COLOR), versioned JSON, SARIF 2.1.0, GitHub annotations."""

    text = "text"
    json = "json"
    sarif = "sarif"
    github = "github"


class FailOn(str, Enum):
    """``--fail-on``: the lowest severity that makes the exit code 1 (``never``: only dsdoctor failures fail)."""

    error = "error"
    warning = "warning"
    info = "info"
    never = "never"
