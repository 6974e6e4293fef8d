"""``--format json``: the one envelope every JSON document has, and the report shape (check, verify, smoke,
launch). lint's and explain's shapes are in :mod:`.lint` and :mod:`.explain`; the schema is docs/output.md."""

from __future__ import annotations

import json
from typing import Any, Dict, Optional

from ..model import Report
from ..schema import SCHEMA_VERSION


def envelope(command: Optional[str], **body: Any) -> Dict[str, Any]:
    """``{"schema": SCHEMA_VERSION, "command": command, **body}`` (no ``command`` key when it is None: ``rules``)."""
    head: Dict[str, Any] = {"schema": SCHEMA_VERSION}
    if command is not None:
        head["command"] = command
    return {**head, **body}


def dumps(doc: Dict[str, Any]) -> str:
    """A JSON document as every command prints it (indented; what JSON cannot hold as its ``str``)."""
    return json.dumps(doc, indent=2, default=str)


def to_dict(report: Report, command: str) -> Dict[str, Any]:
    """The report shape: findings, passed checks, predictions and facts."""
    return envelope(
        command,
        findings=[f.to_json() for f in report.findings],
        passed=[{"section": p.section, "title": p.title, "detail": p.detail} for p in report.passed],
        predictions=report.predictions,
        facts=report.facts,
    )


def render(report: Report, command: str) -> str:
    """The report shape as JSON text."""
    return dumps(to_dict(report, command))
