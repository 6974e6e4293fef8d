"""script-unparseable: a Python file lint cannot read or parse (reported per file; the run goes on)."""

from __future__ import annotations

import os
from typing import Iterator, Optional

from ... import names as N
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from . import ctx


def check(t: Target) -> Iterator[Hit]:
    c = ctx(t)
    if c.src.error is not None:
        link = _link_target(t)
        if link is not None:
            yield RULE.hit(t, None, f"not linted: the whole file is the path {link}, an existing Python file: a git "
                                    "symbolic link checked out as text (the file it names is linted as itself)",
                           severity=Severity.INFO)
            return
        unrun = t.usage.unrun.get(os.path.normpath(t.path))
        yield RULE.hit(t, None, f"not linted: {c.src.error}" + (f" ({unrun})" if unrun else ""),
                       fixes=(Fix("make it valid Python 3 (dsdoctor reads UTF-8 or the declared coding)", "safe"),),
                       severity=Severity.INFO if unrun else None)


def _link_target(t: Target) -> Optional[str]:
    """The Python file a one-line file names by a relative path, when it exists (git stores a symbolic link as a
    blob holding its target; a checkout without link support, an export, writes that text as the file)."""
    text = t.text.strip()
    if "\n" in text or not text.endswith(".py") or os.path.isabs(text) or len(text) > 4096 or " " in text:
        return None
    target = os.path.normpath(os.path.join(os.path.dirname(t.path), text))
    return text if os.path.isfile(target) and os.path.normpath(t.path) != target else None


RULE = Rule(
    spec(
        N.SCRIPT_UNPARSEABLE,
        "python",
        Severity.WARNING,
        summary="A Python file dsdoctor cannot read or parse as Python 3",
        what="A .py file with a syntax error, Python 2 syntax, undecodable bytes (no coding declaration) or over 16 MiB.",
        why="The script rules cannot look at it; the other files are still linted. In a project linted as a "
        "directory, a file that no launch line, README command or project import runs is reported as info, and so is "
        "a file whose whole text is the relative path of an existing .py file (a git symbolic link checked out as "
        "text: the file it names is linted itself).",
        fix="Fix the syntax or the encoding declaration.",
        section="Script"),
    check=check,
    valid=(Example("print('ok')\n"),),
    invalid=(Example("print 'python 2'\n"), Example("def f(:\n    pass\n")),
)
