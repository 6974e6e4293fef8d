"""The dependency pins a README (or an install document) writes down, and the ``pip install`` lines of another
Markdown guide (:mod:`dsdoctor.lint.pin_files` reads the other files): install commands, requirement lines and
``pip list`` output in code blocks, table rows, list items, sentences that name a version."""

from __future__ import annotations

import os
import re
from typing import List

from .pin_files import _INSTALL, Pin, _name, install_args, read_text, requirement

_FENCE = re.compile(r"^\s*(```|~~~)")
_DIGIT = re.compile(r"\d")
_VERSION = r"v?(\d+(?:\.\d+){2,3}(?:\.post\d+|rc\d+)?)"  # a full release: X.Y.Z
# "requires version 4.27.1 of `transformers`" / its Chinese form ("需要4.27.1版本的`transformers`")
_PROSE = re.compile(r"(?:\bversion\s+" + _VERSION + r"\s+of|(?<![\d.])" + _VERSION + r"\s*版本的)\s*[`'\"]?([A-Za-z][\w.-]*)[`'\"]?",
                    re.I)


# "The version of [transformers](https://...) used in this project is v4.39.1"
_PROSE_IS = re.compile(r"\bversion\s+of\s+[`'\"\[]?([A-Za-z][\w.-]*)[`'\"\]]?(?:\([^)\s]*\))?[^.\n]{0,60}?\bis\s+"
                       + _VERSION + r"\b", re.I)


# "Our implementation is developed with transformers v4.39.2" / "tested on `deepspeed==0.14.4`" (not "... 4.32.0 and
# above", "0.10.0 or later", "2.1.0+": a floor, not the version)
_PROSE_WITH = re.compile(r"\b(?:developed|tested|built|run|trained|implemented|verified)\s+(?:with|on|using|under|against)\s+"
                         r"[`'\"\[]?([A-Za-z][\w.-]*)[`'\"\]]?\s*(?:==\s*|version\s+)?" + _VERSION +
                         r"(?![\w+]|\.\d|\s*(?:and|or)\s+(?:above|later|higher|newer|up)|\s*\+)", re.I)


_CLAUSE = r"(?:===|[=<>!~]=?)\s*\d[\w.*+]*"
_REQ_LINE = re.compile(r"[A-Za-z][\w.-]*\s*" + _CLAUSE + r"(?:\s*,\s*" + _CLAUSE + r")*")


_LIST_ITEM = re.compile(r"^[-*+][ \t]+`?([^`]+?)`?[ \t]*$")
_LIST_PIN = re.compile(r"([A-Za-z][\w.-]*)[ \t]+v?(\d+\.\d+(?:\.\d+){0,2})(?:\+[\w.]+)?")  # `- Pytorch 1.10.0+cu111`
_PIP_LIST = re.compile(r"([A-Za-z][\w.-]*)[ \t]+" + _VERSION + r"(?:[ \t]+\S+)?")  # name, version, conda's build


def _cells(line: str) -> List[str]:
    return [c.strip().strip("`*").strip() for c in line.strip().strip("|").split("|")]


def _table_pins(line: str, shown: str, n: int) -> List[Pin]:
    """A Markdown table row naming a version of a package: a cell ``transformers`` followed by a cell ``4.33.2``
    (``==4.33.2``), or one cell ``transformers==4.33.2`` / ``transformers 4.33.2``."""
    cells = _cells(line)
    out: List[Pin] = []
    for i, cell in enumerate(cells):
        name = _name(cell) if re.fullmatch(r"[A-Za-z][\w.-]*", cell) else None
        nxt = cells[i + 1] if i + 1 < len(cells) else ""
        m = re.fullmatch(r"(==)?" + _VERSION, nxt)
        if name and m:
            out.append(Pin(name, f"=={m.group(2)}", shown, n))
            continue
        m = re.fullmatch(r"([A-Za-z][\w.-]*)(?:\s*==\s*|\s+)" + _VERSION, cell)
        if m and _name(m.group(1)):
            out.append(Pin(_name(m.group(1)) or "", f"=={m.group(2)}", shown, n))
    return out


def _line_pins(line: str, shown: str, n: int, fenced: bool) -> List[Pin]:
    """The pins one README line writes: a ``pip install`` command; in a code block, a line that is one
    requirement with a version (``transformers==4.33.2``, as a requirements file lists it) or a row of ``pip list``
    output (``transformers    4.6.1``); a list item that is
    one (``- transformers==4.7.0``) or names a package and its version (``- Transformers 4.28``: 4.28.*); a
    table row; a sentence naming the version a package must have ("requires
    version 4.27.1 of transformers", "the version of transformers used in this project is v4.39.1", "developed
    with transformers v4.39.2")."""
    if "install" not in line and _DIGIT.search(line) is None:  # every other form names a version
        return []
    m = _INSTALL.search(line)
    if m:  # a bare `pip install deepspeed` in prose pins nothing
        return [p for arg in install_args(m.group(1)) if (p := requirement(arg, shown, n)) and p.spec]
    s = line.strip()
    if fenced:
        pin = requirement(s, shown, n) if _REQ_LINE.fullmatch(s) else None
        listed = _PIP_LIST.fullmatch(s)  # `pip list` / `conda list` output: `transformers    4.6.1`
        if pin is None and listed and _name(listed.group(1)):
            pin = Pin(_name(listed.group(1)) or "", f"=={listed.group(2)}", shown, n)
        return [pin] if pin and pin.spec else []
    if s.startswith("|"):
        return _table_pins(s, shown, n)
    item = _LIST_ITEM.match(s)  # a list of the versions a project was run with: `- transformers==4.7.0`
    if item is not None and _REQ_LINE.fullmatch(item.group(1)):
        pin = requirement(item.group(1), shown, n)
        return [pin] if pin and pin.spec else []
    listed = _LIST_PIN.fullmatch(item.group(1)) if item is not None else None  # `- Transformers 4.28`
    if listed is not None and _name(listed.group(1)):
        ver = listed.group(2)
        return [Pin(_name(listed.group(1)) or "", f"=={ver}" if ver.count(".") >= 2 else f"=={ver}.*", shown, n)]
    out: List[Pin] = []
    for said in _PROSE.finditer(line):
        name = _name(said.group(3))
        if name:
            out.append(Pin(name, f"=={said.group(1) or said.group(2)}", shown, n))
    for said in (*_PROSE_WITH.finditer(line), *_PROSE_IS.finditer(line)):
        name = _name(said.group(1))
        if name:
            out.append(Pin(name, f"=={said.group(2)}", shown, n))
    return out


def readme(path: str, shown: str) -> List[Pin]:
    """Packages a README (or an install document) asks for with a version: ``pip install deepspeed==0.14.0
    'transformers>=4.40'``, a ``transformers==4.33.2`` line of a code block, a table row ``| transformers |
    4.33.2 |``, a sentence "requires version 4.27.1 of transformers" (and, read by :func:`.pin_checkout.readme`,
    a code block that installs a package's own checkout at a release tag)."""
    out: List[Pin] = []
    fenced = False
    for n, line in enumerate(read_text(path).splitlines(), 1):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        out += _line_pins(line, shown, n, fenced)
    return out


def markdown_installs(path: str, shown: str) -> List[Pin]:
    """The ``pip install pkg==x`` commands in the code blocks of a Markdown document other than a README or an
    install document (those are read whole by :func:`readme`): an evaluation or training guide's environment
    (``eval/EVAL.md``), for the files of its directory. Its prose, tables and lists are not read."""
    if os.path.basename(path).upper().startswith(("README", "INSTALL")):
        return []
    text = read_text(path)
    if "install" not in text:
        return []
    out: List[Pin] = []
    fenced = False
    for n, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        m = _INSTALL.search(line) if fenced else None
        if m is not None:
            out += [p for arg in install_args(m.group(1)) if (p := requirement(arg, shown, n)) and p.spec]
    return out
