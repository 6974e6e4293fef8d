"""One finding name's documentation (:class:`RuleDoc`) and its text forms: its docs/rules.md section, SARIF
``help.markdown`` and ``dsdoctor rule NAME``. Imports nothing else of ``ruledocs`` (the package, the registry
that builds the docs and the docs/rules.md page import it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Tuple

from ..model import Severity
from ..spec import RuleExample

# How docs/rules.md groups names (by the command that owns a name; a name is documented once).
COMMAND_ORDER: Tuple[str, ...] = ("check", "explain", "lint", "estimate", "smoke", "multinode")
_GROUP_OF = {"verify": "check", "launch": "multinode"}
_SHOWN = {"multinode": "dsdoctor check --hostfile"}


def command_line(command: str) -> str:
    """How a command name is shown: ``dsdoctor check``, ``dsdoctor check --hostfile``, ..."""
    return _SHOWN.get(command, f"dsdoctor {command}")


@dataclass(frozen=True)
class RuleDoc:
    """The documentation of one finding name.

    ``command`` owns the name (docs/rules.md groups by it); ``commands`` are every command that can report it.
    ``kind`` is the lint input kind (``ds_config``, ``python``, ...) for lint names, else what the finding is
    read from (``environment``, ``log``, ``model``, ``run``, ``nodes``). ``example`` is every example as plain
    text; ``examples`` the same, structured (each says where it comes from and how it is executed, or why it
    cannot be: ``RuleExample.untested``). ``help_anchor`` is the path + anchor of its section in the
    repository's docs (``docs/rules.md#<name>``); ``notes`` are other commands' forms of the name.
    """

    name: str
    code: str
    summary: str
    severity: Severity
    what: str
    why: str
    example: str
    fix: str
    command: str
    commands: Tuple[str, ...]
    kind: str
    help_anchor: str
    examples: Tuple[RuleExample, ...] = ()
    notes: Tuple[str, ...] = ()

    @property
    def example_untested(self) -> str:
        """Why no example of this name is executed ("" when one is)."""
        if any(not e.untested for e in self.examples):
            return ""
        return "; ".join(e.untested for e in self.examples) or "no example"

    @property
    def group(self) -> str:
        """The docs/rules.md section (one of ``COMMAND_ORDER``)."""
        return _GROUP_OF.get(self.command, self.command)

    @property
    def title(self) -> str:
        """``name (CODE)``."""
        return f"{self.name} ({self.code})"

    def markdown(self, level: int = 2) -> str:
        """This name's section of docs/rules.md without its HTML anchor (SARIF ``help.markdown``, the terminal)."""
        return section(self, level, anchor=False)

    def text(self) -> str:
        """Plain text for ``dsdoctor rule NAME``."""
        return plain(self)


# which command an example exercises
TAG = {"lint": "`dsdoctor lint`", "log": "`dsdoctor explain`", "check": "`dsdoctor check`", "facts": "`dsdoctor check`",
       "verify": "`dsdoctor verify`", "estimate": "`dsdoctor estimate`", "smoke": "`dsdoctor smoke`",
       "nodes": "`dsdoctor check --hostfile`", "command": "command line", "none": "not executable"}


def _fence(text: str) -> List[str]:
    fence = "````" if "```" in text else "```"
    # control characters an example holds (a NUL-padded script) are shown escaped: docs stay text
    shown = "".join(c if c in "\n\t" or c >= " " else "\\x%02x" % ord(c) for c in text.rstrip("\n"))
    return [fence, shown, fence]


def section(d: RuleDoc, level: int = 3, anchor: bool = True) -> str:
    """One name's section: heading, summary, commands, What / Why / Example(s) / Fix. ``anchor`` adds the
    ``<a id="name">`` docs/rules.md links to (left out for SARIF help and the terminal)."""
    h = "#" * level
    out: List[str] = [f'<a id="{d.name}"></a>', ""] if anchor else []
    out += [f"{h} `{d.name}` ({d.code}, {d.severity.value}, {d.kind})", "", d.summary + ".", ""]
    if len(d.commands) > 1:
        out += ["Reported by: " + ", ".join(f"`{command_line(c)}`" for c in d.commands) + ".", ""]
    out += [f"**What.** {d.what}", "", f"**Why.** {d.why}", ""]
    for e in d.examples:
        out += [f"**Example** ({TAG[e.kind]}). {e.situation}", ""]
        if e.text:
            out += _fence(e.text) + [""]
        if e.source and e.kind not in ("lint",):
            out += [f"Fixture: `{e.source}`.", ""]
        if e.untested:
            out += [f"Not executed: {e.untested}", ""]
    if not d.examples:
        out += ["**Example.** (none)", ""]
    for n in d.notes:
        out += [n, ""]
    out += [f"**Fix.** {d.fix}", ""]
    return "\n".join(out)


def plain(d: RuleDoc) -> str:
    """``dsdoctor rule NAME``: What / Why / Example / Fix as plain text."""
    out: List[str] = [f"{d.name} ({d.code}, {d.severity.value}): {d.summary}",
                      "reported by: " + ", ".join(command_line(c) for c in d.commands), "", "What", _indent(d.what), "", "Why",
                      _indent(d.why), "", "Example"]
    for i, e in enumerate(d.examples):
        if i:
            out.append("")
        out.append(_indent(f"[{TAG[e.kind].strip('`')}] {e.situation}"))
        if e.text:
            out.append(_indent(e.text, 6))
        if e.source and e.kind != "lint":
            out.append(_indent(f"(fixture: {e.source})"))
        if e.untested:
            out.append(_indent(f"(not executed: {e.untested})"))
    if not d.examples:
        out.append(_indent("(none)"))
    for n in d.notes:
        out += ["", _indent(n)]
    out += ["", "Fix", _indent(d.fix), "", f"docs: {d.help_anchor}"]
    return "\n".join(out) + "\n"


def _indent(text: str, n: int = 2) -> str:
    pad = " " * n
    return "\n".join(pad + ln if ln.strip() else "" for ln in text.rstrip("\n").splitlines())
