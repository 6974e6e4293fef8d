"""GitHub Actions workflow commands: one ``::error``/``::warning``/``::notice`` annotation per finding.

``::error file=F,line=L,col=C,title=T::message``; escaped as the actions toolkit does (``@actions/core``
``command.ts``): ``%``, CR and LF in the message; also ``:`` and ``,`` in property values. A finding that points
into a file (lint: the key or line; explain: the log line of its first evidence) carries ``file=`` (relative to
``$GITHUB_WORKSPACE`` when it is inside it, so GitHub attaches it to the diff), the others have no ``file=``.
"""

from __future__ import annotations

import os
from typing import Dict, List, Optional, Tuple

from ..model import CONSEQUENCE, Finding, Report, Severity

COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
MAX_MESSAGE = 4000


def escape_data(s: str) -> str:
    """The message part (``escapeData`` in ``@actions/core``). Undecodable bytes kept from a log (lone
    surrogates) are written as ``\\udcXX`` so the line can always be printed."""
    s = s.encode("utf-8", "backslashreplace").decode("utf-8")
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(s: str) -> str:
    """A property value (``escapeProperty`` in ``@actions/core``)."""
    return escape_data(s).replace(":", "%3A").replace(",", "%2C")


def unescape_data(s: str) -> str:
    """The inverse of :func:`escape_data` (what the runner shows)."""
    return s.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def unescape_property(s: str) -> str:
    """The inverse of :func:`escape_property`."""
    return s.replace("%3A", ":").replace("%2C", ",").replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def command(name: str, props: List[Tuple[str, str]], message: str) -> str:
    """``::name k=v,k=v::message`` (properties with an empty value are left out)."""
    ps = ",".join(f"{k}={escape_property(v)}" for k, v in props if v != "")
    return f"::{name}{' ' + ps if ps else ''}::{escape_data(message)}"


def parse(line: str) -> Tuple[str, Dict[str, str], str]:
    """A workflow command line back into (command, properties, message), as the runner reads it."""
    if not line.startswith("::"):
        raise ValueError(f"not a workflow command: {line!r}")
    head, sep, msg = line[2:].partition("::")
    if not sep:
        raise ValueError(f"not a workflow command: {line!r}")
    name, _, rest = head.partition(" ")
    props: Dict[str, str] = {}
    for part in rest.split(",") if rest else []:
        k, _, v = part.partition("=")
        props[k] = unescape_property(v)
    return name, props, unescape_data(msg)


def workspace_path(path: str, root: Optional[str] = None) -> str:
    """``path`` relative to ``root`` (default ``$GITHUB_WORKSPACE``, else the current directory) when inside it."""
    base = os.path.abspath(root or os.environ.get("GITHUB_WORKSPACE") or os.getcwd())
    ap = os.path.abspath(path)
    try:
        rel = os.path.relpath(ap, base)
    except ValueError:
        return path
    if rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return path
    return rel.replace(os.sep, "/")


def _physical(path: Optional[str]) -> bool:
    return bool(path) and path != "-" and not (str(path).startswith("<") and str(path).endswith(">"))


def annotation(f: Finding, root: Optional[str] = None) -> str:
    """One finding as a workflow command."""
    props: List[Tuple[str, str]] = []
    path, line, col = f.path, f.line, f.col
    if not _physical(path):
        ev = next((e for e in f.evidence if _physical(e.path) and e.where != CONSEQUENCE), None)
        path, line, col = (ev.path, ev.line, ev.col) if ev is not None else (None, None, None)
    if path and _physical(path):
        props.append(("file", workspace_path(path, root)))
        if line:
            props.append(("line", str(line)))
            if col:
                props.append(("col", str(col)))
    props.append(("title", f"{f.code} {f.name}"))
    return command(COMMAND[f.severity], props, message(f))


def message(f: Finding) -> str:
    parts = [f"{f.title} [{f.name} {f.code}]"]
    if f.explanation:
        parts.append(f.explanation)
    for n, fx in enumerate(f.fixes[:3], 1):
        tag = "" if fx.applicability == "safe" else " (unsafe)"
        parts.append(f"fix {n}: {fx.title}{tag}" + "".join(f"\n  $ {c}" for c in fx.commands))
    text = "\n".join(parts)
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


def render(report: Report, command_name: str = "", root: Optional[str] = None) -> str:
    """Every finding of ``report`` as one annotation line (nothing for a clean report)."""
    return "".join(annotation(f, root) + "\n" for f in report.findings)
