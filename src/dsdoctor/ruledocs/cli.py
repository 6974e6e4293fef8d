"""Bodies of ``dsdoctor rules`` and ``dsdoctor rule NAME`` (:mod:`dsdoctor.commands.rules` calls these).

Both return the exit code 0; an unknown name / format raises UsageError (UnknownRule has a did-you-mean).
Plain text when stdout is not a terminal or ``NO_COLOR`` is set."""

from __future__ import annotations

import json
import sys
from typing import IO, Any, Dict, List, Optional

from ..errors import UsageError
from . import RuleDoc, all_docs, command_line, doc_for


def _styled(stream: IO[str]) -> bool:
    from ..render.console import styled

    return styled(stream)


def to_json(d: RuleDoc, full: bool = False) -> Dict[str, Any]:
    out: Dict[str, Any] = {"name": d.name, "code": d.code, "severity": d.severity.value, "summary": d.summary,
                           "command": d.command, "commands": list(d.commands), "kind": d.kind, "help": d.help_anchor}
    if full:
        out.update({"what": d.what, "why": d.why, "example": d.example, "fix": d.fix, "notes": list(d.notes),
                    "examples": [{"kind": e.kind, "situation": e.situation, "text": e.text, "source": e.source,
                                  "untested": e.untested} for e in d.examples]})
    return out


def run_rules(fmt: str = "text", command: Optional[str] = None, stream: Optional[IO[str]] = None) -> int:
    """``dsdoctor rules``: every name with code, severity and one line (``--command`` keeps one command's)."""
    out = stream or sys.stdout
    docs = all_docs()
    if command:
        docs = [d for d in docs if command in d.commands or d.group == command]
        if not docs:
            raise UsageError(f"no rules for command {command!r} (check, verify, explain, lint, estimate, smoke, "
                             "multinode, launch)")
    if fmt == "json":
        from ..render.json_out import dumps, envelope

        out.write(dumps(envelope(None, rules=[to_json(d) for d in docs])) + "\n")
        return 0
    if fmt != "text":
        raise UsageError(f"unknown format {fmt!r} (text, json)")
    if _styled(out):
        from rich.console import Console
        from rich.table import Table

        table = Table(box=None, pad_edge=False, header_style="bold")
        for col in ("name", "code", "severity", "command", "summary"):
            table.add_column(col, no_wrap=col != "summary")
        colour = {"error": "red", "warning": "yellow", "info": "blue"}
        for d in docs:
            table.add_row(d.name, d.code, f"[{colour[d.severity.value]}]{d.severity.value}[/]", d.group, d.summary)
        Console(file=out).print(table)
    else:
        w = max(len(d.name) for d in docs)
        for d in docs:
            out.write(f"{d.name:<{w}}  {d.code:<5}  {d.severity.value:<7}  {d.group:<9}  {d.summary}\n")
    out.write(f"{len(docs)} rules. `dsdoctor rule NAME` (or CODE) prints What / Why / Example / Fix.\n")
    return 0


def run_rule(query: str, fmt: str = "text", stream: Optional[IO[str]] = None) -> int:
    """``dsdoctor rule NAME|CODE``: What / Why / Example / Fix."""
    out = stream or sys.stdout
    d = doc_for(query)
    if fmt == "json":
        out.write(json.dumps(to_json(d, full=True), indent=2) + "\n")
        return 0
    if fmt != "text":
        raise UsageError(f"unknown format {fmt!r} (text, json)")
    if not _styled(out):
        out.write(d.text())
        return 0
    from rich.console import Console
    from rich.markdown import Markdown

    con = Console(file=out)
    con.print(f"[bold]{d.name}[/] ({d.code}, {d.severity.value}): {d.summary}")
    con.print("reported by: " + ", ".join(command_line(c) for c in d.commands), style="dim")
    body: List[str] = d.markdown(level=2).split("\n")
    body = body[body.index("**What.** " + d.what):]  # the heading is printed above
    con.print(Markdown("\n".join(body)))
    con.print(f"docs: {d.help_anchor}", style="dim")
    return 0
