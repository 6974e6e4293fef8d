"""``--format``: the output formats every reporting command takes (:func:`dsdoctor.render.emit` picks the
renderer)."""

from __future__ import annotations

from enum import Enum


class Format(str, Enum):
    """``--format``: rich text (plain when not a TTY or NO_COLOR), versioned JSON, SARIF 2.1.0, GitHub annotations."""

    text = "text"
    json = "json"
    sarif = "sarif"
    github = "github"
