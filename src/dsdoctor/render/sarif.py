"""SARIF 2.1.0 rendering (GitHub code scanning and other SARIF consumers): one run of one command.

- ``tool.driver.rules``: every finding name used, ``id`` = the name (the public contract), ``name`` = its code,
  descriptions from the rule docs (``dsdoctor.ruledocs``) or, failing those, the catalog summary.
- ``results``: level error / warning / note; a physical location (``%SRCROOT%``-relative URI, 1-based
  line/column, columns in Unicode code points) when the finding points into a file, else the first evidence
  line that has a file (explain: the log line), else a logical location (check: the section of the environment).
  Evidence with a file becomes ``relatedLocations``; the rest stays in ``properties.evidence``.
- Fixes: lint's concrete text edits become SARIF ``fixes`` (``artifactChanges`` / ``replacements`` with both
  line/column and character-offset regions); every fix's title and commands are kept in ``properties.fixes``.
- ``partialFingerprints``: a hash of the name, the file, the title and the text of the line (not its number),
  so an alert survives unrelated edits above it.

The renderer only reads: files are opened to map edit offsets to lines and to fingerprint the flagged line.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Sequence, Tuple
from urllib.parse import quote

from .. import names
from ..catalog import RULES
from ..model import CONSEQUENCE, Evidence, Finding, Report, Severity
from ..textpos import LineIndex

if TYPE_CHECKING:
    from ..lint.rule import Edit

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SRCROOT = "%SRCROOT%"
FINGERPRINT_KEY = "dsdoctor/v1"
RULES_DOC = "docs/rules.md"
LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
_NEWLINE = re.compile(r"\r\n|\r|\n")  # SARIF §3.30.2: CR, LF and CR LF each end a line


def render(report: Report, command: str, tool_version: str,
           edits: Optional[Mapping[Finding, Sequence["Edit"]]] = None, root: Optional[str] = None) -> str:
    """``report`` (the findings of ``command``) as a SARIF 2.1.0 log.

    ``edits``: lint's text edits per finding (``LintResult.fix_edits``), rendered as SARIF ``fixes``.
    ``root``: the directory URIs are relative to (default: ``$GITHUB_WORKSPACE`` when the current directory is
    inside it, else the current directory).
    """
    return json.dumps(to_sarif(report, command, tool_version, edits, root), indent=2, default=str)


def to_sarif(report: Report, command: str, tool_version: str,
             edits: Optional[Mapping[Finding, Sequence["Edit"]]] = None, root: Optional[str] = None) -> Dict[str, Any]:
    base = os.path.abspath(root or source_root())
    files = _Files()
    rules: List[Dict[str, Any]] = []
    index: Dict[str, int] = {}
    results: List[Dict[str, Any]] = []
    for f in report.findings:
        if f.name not in index:
            index[f.name] = len(rules)
            rules.append(_rule(f))
        results.append(_result(f, index[f.name], command, base, files, (edits or {}).get(f, ())))
    driver: Dict[str, Any] = {"name": "dsdoctor", "version": tool_version, "rules": rules}
    if re.fullmatch(r"\d+\.\d+\.\d+(?:[-+].*)?", tool_version):
        driver["semanticVersion"] = tool_version
    home = project_url()
    if home:
        driver["informationUri"] = home
    run: Dict[str, Any] = {
        "tool": {"driver": driver},
        "automationDetails": {"id": f"dsdoctor/{command}/"},
        "invocations": [{"executionSuccessful": True}],
        "originalUriBaseIds": {SRCROOT: {"uri": Path(base).as_uri().rstrip("/") + "/",
                                         "description": {"text": "The directory dsdoctor was run in"}}},
        "columnKind": "unicodeCodePoints",
        "results": results,
        "properties": {"command": command, "passed": [{"section": p.section, "title": p.title, "detail": p.detail}
                                                      for p in report.passed],
                       "predictions": report.predictions, "facts": report.facts},
    }
    return {"$schema": SARIF_SCHEMA_URI, "version": SARIF_VERSION, "runs": [run]}


def source_root() -> str:
    """``$GITHUB_WORKSPACE`` when the current directory is inside it (paths then match the repository), else ``.``."""
    cwd = os.getcwd()
    ws = os.environ.get("GITHUB_WORKSPACE")
    if ws:
        ws = os.path.abspath(ws)
        if cwd == ws or cwd.startswith(ws.rstrip(os.sep) + os.sep):
            return ws
    return cwd


def project_url() -> Optional[str]:
    """The project's home page from the installed package metadata (``[project.urls]``), if it has one."""
    try:
        from importlib.metadata import PackageNotFoundError, metadata
    except ImportError:  # pragma: no cover
        return None
    try:
        meta = metadata("dsdoctor")
    except PackageNotFoundError:
        return None
    urls: Dict[str, str] = {}
    for entry in meta.get_all("Project-URL") or []:
        label, _, url = entry.partition(",")
        urls[label.strip().lower()] = url.strip()
    for key in ("homepage", "home", "source", "repository", "documentation"):
        if urls.get(key, "").startswith("https://"):
            return urls[key]
    home = meta["Home-page"] if "Home-page" in meta else ""
    return home if home.startswith("https://") else None


def help_uri(anchor: str) -> Optional[str]:
    """An absolute URL of ``docs/rules.md#name`` when the project URL is a GitHub/GitLab repository."""
    home = project_url()
    if not home or not re.match(r"https://(github\.com|gitlab\.com)/[^/]+/[^/]+/?$", home):
        return None
    return f"{home.rstrip('/')}/blob/HEAD/{anchor}"


# ---------------------------------------------------------------------------------------------------- rules


def _rule(f: Finding) -> Dict[str, Any]:
    info = RULES.get(f.name)
    summary = info.summary if info else f.title
    code = names.code(f.name)
    anchor = f"{RULES_DOC}#{f.name}"
    rule: Dict[str, Any] = {"id": f.name, "name": code, "shortDescription": {"text": summary}}
    props: Dict[str, Any] = {"code": code, "tags": ["dsdoctor", f.section]}
    level = LEVEL[f.severity]
    doc = _doc(f.name)
    if doc is not None:
        anchor = str(getattr(doc, "help_anchor", "") or anchor)
        what, why, fix = (str(getattr(doc, k, "") or "") for k in ("what", "why", "fix"))
        full = " ".join(x for x in (what, why) if x)
        if full:
            rule["fullDescription"] = {"text": full}
        md = _doc_markdown(doc)
        text = "\n\n".join(x for x in (what, f"Why: {why}" if why else "", f"Fix: {fix}" if fix else "") if x)
        if text or md:
            rule["help"] = {"text": text or summary, **({"markdown": md} if md else {})}
        sev = getattr(doc, "severity", None)
        if isinstance(sev, Severity):
            level = LEVEL[sev]
        cmds = getattr(doc, "commands", ())
        if cmds:
            props["tags"] = ["dsdoctor", *[str(c) for c in cmds]]
        kind = getattr(doc, "kind", "")
        if kind:
            props["kind"] = str(kind)
    else:
        rule["help"] = {"text": f"{summary}. See {anchor} in the dsdoctor documentation."}
    rule["defaultConfiguration"] = {"level": level}
    uri = help_uri(anchor)
    if uri:
        rule["helpUri"] = uri
    props["docs"] = anchor
    props["problem.severity"] = {"error": "error", "warning": "warning", "note": "recommendation"}[level]
    rule["properties"] = props
    return rule


def _doc(name: str) -> Optional[object]:
    """The rule docs (``dsdoctor.ruledocs.doc_for``) when that module is there and knows the name."""
    try:
        from .. import ruledocs
    except ImportError:
        return None
    try:
        return ruledocs.doc_for(name)
    except (LookupError, ImportError):
        return None


def _doc_markdown(doc: object) -> str:
    md = getattr(doc, "markdown", None)
    if not callable(md):
        return ""
    try:
        return str(md(3))
    except (ImportError, LookupError):
        return ""


# -------------------------------------------------------------------------------------------------- results


class _Files:
    """File texts read once (``None`` when unreadable), as ``--fix`` reads them (UTF-8, newlines kept)."""

    def __init__(self) -> None:
        self._texts: Dict[str, Optional[str]] = {}
        self._lines: Dict[str, List[str]] = {}

    def text(self, path: str) -> Optional[str]:
        key = os.path.abspath(path)
        if key not in self._texts:
            try:
                with open(key, encoding="utf-8", newline="") as fh:
                    self._texts[key] = fh.read(32 * 2**20)
            except (OSError, UnicodeDecodeError):
                self._texts[key] = None
        return self._texts[key]

    def line(self, path: str, line: int) -> Optional[str]:
        text = self.text(path)
        if text is None or line < 1:
            return None
        key = os.path.abspath(path)
        if key not in self._lines:
            self._lines[key] = _NEWLINE.split(text)
        lines = self._lines[key]
        return lines[line - 1] if line <= len(lines) else None


def _physical(path: str) -> bool:
    return bool(path) and path != "-" and not (path.startswith("<") and path.endswith(">"))


def artifact_location(path: str, base: str) -> Dict[str, Any]:
    """A ``%SRCROOT%``-relative URI for a file under ``base``, else an absolute ``file://`` URI."""
    ap = os.path.abspath(path)
    try:
        rel = os.path.relpath(ap, base)
    except ValueError:  # another drive (Windows)
        rel = os.pardir
    if rel != os.pardir and not rel.startswith(os.pardir + os.sep):
        return {"uri": quote(rel.replace(os.sep, "/"), safe="/"), "uriBaseId": SRCROOT}
    return {"uri": Path(ap).as_uri()}


def _region(line: Optional[int], col: Optional[int], snippet: Optional[str] = None) -> Optional[Dict[str, Any]]:
    if not line or line < 1:
        return None
    region: Dict[str, Any] = {"startLine": line}
    if col and col >= 1:
        region["startColumn"] = col
    if snippet:
        region["snippet"] = {"text": snippet}
    return region


def _location(path: str, line: Optional[int], col: Optional[int], base: str, message: str = "",
              snippet: Optional[str] = None) -> Dict[str, Any]:
    phys: Dict[str, Any] = {"artifactLocation": artifact_location(path, base)}
    region = _region(line, col, snippet)
    if region:
        phys["region"] = region
    loc: Dict[str, Any] = {"physicalLocation": phys}
    if message:
        loc["message"] = {"text": message}
    return loc


def _evidence_message(e: Evidence) -> str:
    if e.where == CONSEQUENCE:
        return f"consequence: {e.what}"
    where = e.where if e.where and not (e.path and e.where.startswith(e.path)) else ""
    return f"{e.what} ({where})" if where else e.what


def _result(f: Finding, rule_index: int, command: str, base: str, files: _Files, edits: Sequence["Edit"]) -> Dict[str, Any]:
    text = f.title if not f.explanation else f"{f.title}\n{f.explanation}"
    res: Dict[str, Any] = {"ruleId": f.name, "ruleIndex": rule_index, "level": LEVEL[f.severity], "message": {"text": text}}
    located = [e for e in f.evidence if e.path and _physical(e.path)]
    causes = [e for e in located if e.where != CONSEQUENCE]
    primary: Optional[Evidence] = None
    fp_path, line_text = "", None
    if f.path and _physical(f.path):  # lint: the key / call; explain: the log line of the first evidence
        primary = next((e for e in causes if e.path == f.path and e.line == f.line), None)
        path, line, col = f.path, f.line, f.col
    elif causes:
        primary = causes[0]
        path, line, col = primary.path or "", primary.line, primary.col
    else:
        path, line, col = "", None, None
    if path:
        line_text = files.line(path, line) if line else None
        snippet = line_text if line_text is not None and not col and len(line_text) <= 4000 else None  # whole-line region
        res["locations"] = [_location(path, line, col, base, _evidence_message(primary) if primary else "", snippet)]
        fp_path = path
        if line_text is None and primary is not None:
            line_text = primary.what
    else:
        res["locations"] = [{"logicalLocations": [{"name": f.section, "fullyQualifiedName": f"{command}/{f.section}",
                                                   "kind": "module"}],
                             "message": {"text": f"dsdoctor {command}: {f.section}"}}]
    related = []
    for n, e in enumerate(located, 1):
        if e is primary or not e.path:
            continue  # the primary location already shows it
        loc = _location(e.path, e.line, e.col, base, _evidence_message(e)[:2000])
        loc["id"] = n
        related.append(loc)
    if related:
        res["relatedLocations"] = related
    fixes = _fixes(f, edits, base, files)
    if fixes:
        res["fixes"] = fixes
    uri = artifact_location(fp_path, base)["uri"] if fp_path else ""
    anchor = (line_text or "").strip() or (str(f.line) if f.line else "")
    res["partialFingerprints"] = {FINGERPRINT_KEY: fingerprint(f.name, uri, f.title, anchor)}
    props: Dict[str, Any] = {"code": f.code, "severity": f.severity.value, "section": f.section}
    if f.explanation:
        props["explanation"] = f.explanation
    loose = [e.to_json() for e in f.evidence if not (e.path and _physical(e.path))]
    if loose:
        props["evidence"] = loose
    if f.fixes:
        props["fixes"] = [x.to_json() for x in f.fixes]
    res["properties"] = props
    return res


def fingerprint(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogateescape")).hexdigest()[:32]


# ---------------------------------------------------------------------------------------------------- fixes


def _fixes(f: Finding, edits: Sequence["Edit"], base: str, files: _Files) -> List[Dict[str, Any]]:
    """SARIF fixes for lint's edits: the safe edits as one fix (what ``--fix`` applies) and, when there are
    unsafe ones, all edits as a second fix (what ``--fix --unsafe-fixes`` applies)."""
    if not edits:
        return []
    from ..lint.edits import selected

    uniq = list(dict.fromkeys(edits))
    safe = selected(uniq, unsafe=False)
    out: List[Dict[str, Any]] = []
    safe_titles = [x.title for x in f.fixes if x.applicability == "safe"]
    unsafe_titles = [x.title for x in f.fixes if x.applicability == "unsafe"]
    if safe:
        fix = _fix(safe, safe_titles[0] if safe_titles else _joined(safe), base, files)
        if fix:
            out.append(fix)
    if len(safe) < len(uniq):
        title = unsafe_titles[0] if unsafe_titles else _joined([e for e in uniq if e.applicability != "safe"])
        fix = _fix(uniq, f"{title} (unsafe: dsdoctor fix --unsafe-fixes)", base, files)
        if fix:
            out.append(fix)
    return out


def _joined(edits: Sequence["Edit"]) -> str:
    return "; ".join(dict.fromkeys(e.title for e in edits if e.title)) or "apply dsdoctor's edit"


def _fix(edits: Sequence["Edit"], description: str, base: str, files: _Files) -> Optional[Dict[str, Any]]:
    """One SARIF fix, or None when the edits cannot be applied (a file changed since, or a Python result that
    would not parse: ``--fix`` refuses those too)."""
    from ..lint.edits import by_file, replacements
    from ..lint.fix import plan

    applied = plan(edits, unsafe=True)
    changes = []
    for path, es in by_file(edits).items():
        if path not in applied:
            return None
        text = files.text(path) or ""
        index = LineIndex(text, universal=True)
        reps = [{"deletedRegion": offsets_region(text, start, end, index), "insertedContent": {"text": new}}
                for start, end, new in replacements(text, es)]
        if reps:
            changes.append({"artifactLocation": artifact_location(path, base), "replacements": reps})
    if not changes:
        return None
    return {"description": {"text": description}, "artifactChanges": changes}


def offsets_region(text: str, start: int, end: int, index: Optional[LineIndex] = None) -> Dict[str, Any]:
    """The region ``[start, end)`` of ``text`` (code-point offsets): 1-based lines and columns (``endColumn`` is one
    past the last character, as SARIF defines it) plus ``charOffset`` / ``charLength``."""
    index = index or LineIndex(text, universal=True)
    sl, sc = index.linecol(start)
    el, ec = index.linecol(end)
    return {"startLine": sl, "startColumn": sc, "endLine": el, "endColumn": ec, "charOffset": start,
            "charLength": end - start}


def linecol(text: str, pos: int) -> Tuple[int, int]:
    """1-based line and column of offset ``pos`` (CR, LF and CR LF end lines)."""
    return LineIndex(text, universal=True).linecol(pos)
