"""script-unparseable: a Python file lint cannot read or parse (reported per file; the run goes on)."""

from __future__ import annotations

import os
import re
import sys
from typing import Iterator, Tuple

from ... import names as N
from ...model import Fix, Severity
from ..found import TEST_FILE
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from ..text_link import lfs_pointer, text_link
from . import ctx

# async / await used as names (a keyword argument, an attribute, a function): Python 3.6 and older only
_OLD_NAMES = re.compile(r"\b(?:async|await)[ \t]*=(?!=)|\.(?:async|await)\b|\bdef[ \t]+(?:async|await)\b")


def check(t: Target) -> Iterator[Hit]:
    c = ctx(t)
    if c.src.script_only is not None:
        yield from _script_only(t, c.src.script_only)
    if c.src.error is not None:
        link = text_link(t.path, t.text, (".py",))
        if link is not None and link[1]:
            yield RULE.hit(t, None, f"not linted: the whole file is the path {link[0]}, an existing Python file: a "
                                    "git symbolic link checked out as text (the file it names is linted as itself)",
                           severity=Severity.INFO)
            return
        if link is not None:
            yield RULE.hit(t, None, f"not linted: the whole file is the path {link[0]}, which the repository does "
                                    "not have: a git symbolic link to a missing file (dangling also where links are "
                                    "checked out)", severity=Severity.INFO if t.usage.unrun.get(
                                        os.path.normpath(t.path)) else None)
            return
        lfs = lfs_pointer(t.text)
        if lfs is not None:
            yield RULE.hit(t, None, lfs, severity=Severity.INFO)
            return
        if c.src.newer is not None:
            yield _newer(t, c.src.error, c.src.newer)
            return
        if c.src.unread:  # not its syntax: no "valid Python" to make
            yield _unread(t, c.src.error, c.src.unread)
            return
        if c.src.reader_only:  # the run is fine; only dsdoctor's rules could not look at the file
            yield RULE.hit(t, None, f"not linted: {c.src.error}", severity=Severity.INFO)
            return
        key = os.path.normpath(t.path)
        unrun = t.usage.unrun.get(key) or (t.usage.guarded(key) if t.usage.guarded is not None else None)
        # a helper run by an older interpreter (Python 2; `.cuda(async=True)`: 3.6), if at all, never by a DeepSpeed run
        older = "Python 2 code" if "Python 2 syntax" in c.src.error else \
            "code for Python 3.6 or older (async / await as names: keywords from 3.7)" if _OLD_NAMES.search(t.text) else None
        if unrun is None and older and key not in t.usage.entries and key not in t.usage.imported:
            unrun = f"{older} that no DeepSpeed launch of the project starts or imports"
        if unrun is None and t.usage.never_zero3.get(key) == TEST_FILE:
            unrun = "a test file: its test runner reads it (a parser's test case may be broken on purpose)"
        yield RULE.hit(t, None, f"not linted: {c.src.error}" + (f" ({unrun})" if unrun else ""),
                       fixes=(Fix("make it valid Python 3 (dsdoctor reads UTF-8 or the declared coding)", "safe"),),
                       severity=Severity.INFO if unrun else None)


def _unread(t: Target, error: str, why: str) -> Hit:
    """A file lint could not read (a FIFO, a socket, no permission): say so, and how to make it readable; one over
    lint's size limit is only not linted (info: Python may well run it)."""
    if why == "too large":
        return RULE.hit(t, None, f"not linted: {error}", severity=Severity.INFO)
    return RULE.hit(t, None, f"not linted: {error}",
                    fixes=(Fix("make it a regular file the user running lint can read", "safe"),))


def _script_only(t: Target, why: str) -> Iterator[Hit]:
    """A file an import reads though some bytes do not decode: a finding only where a recipe starts it as a script
    and the project's Python may be 3.11 or later."""
    from .python_pin import allows, python_pin

    if os.path.normpath(t.path) not in t.usage.entries:
        return
    pin = python_pin(t.path)
    if pin is not None and allows(pin[0], (3, 11)) is False:
        return
    yield RULE.hit(t, None, f"{why}; a recipe starts it so",
                   fixes=(Fix("save it as UTF-8, or declare its encoding with a '# -*- coding: ...' line", "safe"),))


def _newer(t: Target, error: str, newer: Tuple[Tuple[int, int], str]) -> Hit:
    """A file this interpreter's parser refuses that a later Python's grammar reads (lint/script/grammar.py): a
    warning where the project pins a Python older than that release, info otherwise (the project's Python reads
    it)."""
    from .python_pin import allows, python_pin

    release, what = newer
    shown = ".".join(map(str, release))
    here = ".".join(map(str, sys.version_info[:2]))
    pin = python_pin(t.path)
    if pin is not None and allows(pin[0], release) is False:
        return RULE.hit(t, None, f"not linted: {error}: only Python {shown}+ reads {what}, and the project pins "
                                 f"Python {pin[0]} ({pin[1]})",
                        fixes=(Fix(f"rewrite it for the Python the project pins, or require Python >={shown}",
                                   "safe"),))
    why = f"the project pins Python {pin[0]} ({pin[1]})" if pin is not None else "the project pins no Python release"
    return RULE.hit(t, None, f"not linted by this Python {here}: {error}; Python {shown}+ reads it ({what}), and "
                             f"{why}", severity=Severity.INFO)


RULE = Rule(
    spec(
        N.SCRIPT_UNPARSEABLE,
        "python",
        Severity.WARNING,
        summary="A Python file dsdoctor cannot read or parse as Python 3",
        what="A .py file with a syntax error, Python 2 syntax (print statements, `except E, e:`, tabs and spaces mixed "
        "in one block), undecodable bytes (no coding declaration) or over 16 MiB. Undecodable bytes only in comments are "
        "read past by an import (Python compiles a module's bytes token by token) but refused by `python FILE` on "
        "Python 3.11+: reported only for a file a recipe starts as a script, unless the project pins an older Python. "
        "A Git LFS pointer (no LFS objects in this checkout) is info: its content is not here.",
        why="The script rules cannot look at it; the other files are still linted. In a project linted as a "
        "directory, a file that no launch line, README command or project import runs is reported as info, as is "
        "Python 2 code, or Python 3.6 code using async / await as names (`.cuda(async=True)`), that no DeepSpeed "
        "launch starts or imports (it runs under another interpreter, if at all), as "
        "is a test file (its runner reads it; a parser's test case may be broken on purpose), as is a module every project "
        "import of which sits in a try whose except catches the SyntaxError (LLaVA's optional language models: the "
        "import fails quietly, its code never runs), and so is "
        "a file whose whole text is the relative path of an existing .py file (a git symbolic link checked out as "
        "text: the file it names is linted itself; one naming a file the repository does not have is a dangling "
        "link, said so). A notebook exported as a .py file (IPython `!` / `%` lines) is read with those lines as "
        "comments. A file this Python's parser refuses that a later Python's grammar "
        "reads (PEP 701 f-strings of 3.12, match of 3.10, except* of 3.11, type parameters of 3.12; libcst's parser "
        "decides, the same on every machine) is info, a warning only where the project pins an older Python "
        "(requires-python, python_requires, conda python=3.x). A file Python compiles that dsdoctor's parser "
        "(libcst) cannot read (a line starting with a tab then spaces) is info: the run is fine.",
        fix="Fix the syntax or the encoding declaration.",
        section="Script"),
    check=check,
    valid=(Example("print('ok')\n"),),
    invalid=(Example("print 'python 2'\n"), Example("def f(:\n    pass\n")),
)
