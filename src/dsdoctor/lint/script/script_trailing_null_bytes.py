"""script-trailing-null-bytes: a Python file padded at its end with NUL bytes; the code before them is linted."""

from __future__ import annotations

from typing import Iterator

from ... import names as N
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from . import ctx

# CPython's file reader up to 3.10 (and 3.11.2, Debian's build) ends a line at a NUL: padding after the last line
# runs; 3.11.7, 3.12.1 and 3.13.0 stop with "SyntaxError: source code cannot contain null bytes" (each run here)
REJECTED_FROM = "3.12"


def check(t: Target) -> Iterator[Hit]:
    c = ctx(t)
    if c.src.padding is None:
        return
    line, count = c.src.padding
    yield RULE.hit(t, len(c.src.text),  # the first NUL (the text read stops there)
                   f"{count} NUL byte(s) pad the file from line {line}: Python up to 3.10 stops reading at them, "
                   f"Python {REJECTED_FROM}+ (and late 3.11 releases) refuse to run it (SyntaxError: source code "
                   "cannot contain null bytes); the code before them is linted",
                   fixes=(Fix("truncate the file at its last line of code (the NUL bytes carry nothing)", "safe"),))


RULE = Rule(
    spec(
        N.SCRIPT_TRAILING_NULL_BYTES,
        "python",
        Severity.INFO,
        summary="A Python file padded at its end with NUL bytes",
        what="A .py file whose code is followed by NUL bytes (and whitespace) only, as a broken copy, download or "
        "editor leaves it. NUL bytes inside the code are script-unparseable.",
        why=f"CPython up to 3.10 stops reading a line at a NUL byte, so the padding is never seen and the script "
        f"runs; Python {REJECTED_FROM} and later (and the late 3.11 releases) refuse any source holding a NUL byte: "
        "the script does not start. dsdoctor lints the code before the padding. Info: dsdoctor does not read "
        "which Python a project pins.",
        fix="Truncate the file after its last line of code.",
        section="Script"),
    check=check,
    valid=(Example("print('ok')\n"),),
    invalid=(Example("print('ok')\n\0\0\0\0\n"),),
)
