"""JSON rendering: ``{"schema", "findings": [...], "passed": [...], "predictions", "facts"}``."""

from __future__ import annotations

import json
from typing import Any, Dict

from ..model import Report

SCHEMA_VERSION = 1


def to_dict(report: Report, command: str) -> Dict[str, Any]:
    return {
        "schema": SCHEMA_VERSION,
        "command": command,
        "findings": [f.to_json() for f in report.findings],
        "passed": [{"section": p.section, "title": p.title, "detail": p.detail} for p in report.passed],
        "predictions": report.predictions,
        "facts": report.facts,
    }


def render(report: Report, command: str) -> str:
    return json.dumps(to_dict(report, command), indent=2, default=str)
