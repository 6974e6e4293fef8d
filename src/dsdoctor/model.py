"""The one Finding model shared by every dsdoctor command (check, lint, explain, fix, verify)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Dict, List, Literal, Optional, Tuple

from . import names

Applicability = Literal["safe", "unsafe"]


class Severity(str, Enum):
    """How bad a finding is. ``error`` means DeepSpeed/HF will fail; ``warning`` means it will silently
    do something other than what the user meant, or may fail; ``info`` is context."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 2, "warning": 1, "info": 0}[self.value]


# Evidence.where of a line explain shows as a consequence of the cause (a symptom it explains), not as the cause
CONSEQUENCE = "consequence"


@dataclass(frozen=True)
class Evidence:
    """What was seen (``what``) and where (``where``: a command, a file, a path, an env var).

    ``path``/``line``/``col`` (1-based) locate it in a file when it came from one (a log line, a config key).
    """

    what: str
    where: str = ""
    path: Optional[str] = None
    line: Optional[int] = None
    col: Optional[int] = None

    def to_json(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"what": self.what, "where": self.where}
        for key in ("path", "line", "col"):
            val = getattr(self, key)
            if val is not None:
                out[key] = val
        return out


@dataclass(frozen=True)
class Fix:
    """One ranked remedy. ``commands`` are exact shell commands or edits, in the order to try them.

    ``forms`` names alternative spellings of the same fix (e.g. an environment variable as a one-off
    prefix, a shell rc line, a line in the training script, a ``.deepspeed_env`` line).
    An ``unsafe`` fix says why in ``reason``.
    """

    title: str
    applicability: Applicability = "safe"
    commands: Tuple[str, ...] = ()
    reason: str = ""
    forms: Tuple[Tuple[str, str], ...] = ()

    def to_json(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {
            "title": self.title,
            "applicability": self.applicability,
            "commands": list(self.commands),
        }
        if self.reason:
            out["reason"] = self.reason
        if self.forms:
            out["forms"] = {k: v for k, v in self.forms}
        return out


@dataclass(frozen=True)
class Finding:
    """A problem (or notable fact) found by any command.

    ``name`` is the stable kebab-case public contract; ``code`` its short alias (see ``catalog``).
    """

    name: str
    severity: Severity
    title: str
    explanation: str = ""
    evidence: Tuple[Evidence, ...] = ()
    fixes: Tuple[Fix, ...] = ()
    section: str = "general"
    path: Optional[str] = None  # where the finding points (lint: the offending key or line)
    line: Optional[int] = None
    col: Optional[int] = None
    # who raised the failure a finding is about, when known (explain's unknown answer: package, module, function, ...)
    attribution: Tuple[Tuple[str, str], ...] = ()

    @property
    def code(self) -> str:
        """The short code, from the names table (``DS000`` for a name not in it)."""
        return names.code(self.name)

    def to_json(self) -> Dict[str, Any]:
        return {
            "name": self.name,
            "code": self.code,
            "severity": self.severity.value,
            "title": self.title,
            "explanation": self.explanation,
            "section": self.section,
            "evidence": [e.to_json() for e in self.evidence],
            "fixes": [f.to_json() for f in self.fixes],
            **{k: getattr(self, k) for k in ("path", "line", "col") if getattr(self, k) is not None},
            **({"attribution": dict(self.attribution)} if self.attribution else {}),
        }


@dataclass(frozen=True)
class Passed:
    """A healthy result worth one ✓ line (flutter-doctor style)."""

    section: str
    title: str
    detail: str = ""


@dataclass
class Report:
    """What a command produced: findings, healthy results, facts and predictions."""

    findings: List[Finding] = field(default_factory=list)
    passed: List[Passed] = field(default_factory=list)
    facts: Dict[str, Any] = field(default_factory=dict)
    predictions: Dict[str, Any] = field(default_factory=dict)

    @property
    def worst(self) -> Optional[Severity]:
        if not self.findings:
            return None
        return max((f.severity for f in self.findings), key=lambda s: s.rank)
