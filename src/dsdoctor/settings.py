"""Configuration shared by every command: ``[tool.dsdoctor]`` in pyproject.toml, or a standalone
``dsdoctor.toml`` with the same keys at top level (``--config FILE`` names either).

Keys (kebab-case; the snake_case spelling is accepted too)::

    select = ["zero3-device-map-conflict", "DS403"]  # only these (names or codes); default: all
    ignore = ["ds-config-auto-without-trainer"]
    per-file-ignores = {"configs/legacy/*.json" = ["ds-config-deprecated-key"]}
    target = ["transformers==4.46.3", "deepspeed==0.15.4"]
    zero-stage = 3          # zero3 = true is the older spelling (kept as an alias)
    world-size = 16
    fail-on = "warning"     # error | warning | info | never

Without ``--config`` the nearest ``dsdoctor.toml``, or ``pyproject.toml`` that has a ``[tool.dsdoctor]`` table,
in the directory of the first path or above it (else the current directory and above) is used. A bad file is a
:class:`SettingsError` (the CLI prints it and exits 2): malformed TOML (with its line), unknown keys (with a
did-you-mean), wrong types, unknown rule names or codes.

:func:`apply` filters a report by select / ignore / per-file-ignores (globs relative to the config file's
directory, like ruff). CLI flags win over the file: the command passes its own ``--world-size`` /
``--target`` / ``--zero-stage`` / ``--fail-on`` first and uses these as defaults.

Kept whole: the keys, their reading and their error messages are one schema read top to bottom; the
:class:`Settings` it builds, the reader and :func:`apply` share the name/code resolution, and splitting them
would only trade a long file for a package of re-exports.
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Dict, Iterable, List, Optional, Pattern, Sequence, Set, Tuple

from . import names
from .errors import UsageError
from .model import Report
from .regular_file import read_bytes

FAIL_ON = ("error", "warning", "info", "never")
KEYS = ("select", "ignore", "per-file-ignores", "target", "zero-stage", "zero3", "world-size", "fail-on")
CONFIG_NAMES = ("dsdoctor.toml", "pyproject.toml")  # looked for in this order in each directory
_SECTION = re.compile(r"""(?m)^\s*\[\s*tool\s*\.\s*["']?dsdoctor\b|^\s*tool\s*\.\s*["']?dsdoctor\b|^\s*dsdoctor\s*[.=]""")


def _has_table(head: str) -> bool:
    """Does a pyproject.toml have a [tool.dsdoctor] table? (A file that cannot be parsed and mentions it: yes, so
    that loading it reports the error.)"""
    if not _SECTION.search(head):
        return False
    toml = _toml()
    if toml is None:
        return True
    try:
        tool = toml.loads(head).get("tool")
    except (toml.TOMLDecodeError, ValueError):
        return True
    return isinstance(tool, dict) and "dsdoctor" in tool


class SettingsError(UsageError):
    """A configuration file dsdoctor cannot use; the message names the file (and line when known)."""


@dataclass(frozen=True)
class Entry:
    """One rule name in ``select`` / ``ignore`` / ``per-file-ignores`` as written (for unused-entry reports)."""

    key: str  # select | ignore | per-file-ignores
    name: str  # the catalog name it resolves to
    token: str  # as written (a name or a code)
    glob: str = ""  # per-file-ignores only
    line: Optional[int] = None


@dataclass
class Settings:
    """What a command reads from the configuration file (empty when there is none).

    ``select`` / ``ignore`` / ``per_file_ignores`` hold catalog names (codes are resolved on load).
    ``source`` is the file read ("" when none); per-file-ignores globs are relative to its directory.
    ``zero3`` is the value of the older ``zero3`` key (``zero3 = true`` also sets ``zero_stage`` 3).
    """

    select: List[str] = field(default_factory=list)
    ignore: List[str] = field(default_factory=list)
    per_file_ignores: Dict[str, List[str]] = field(default_factory=dict)
    target: List[str] = field(default_factory=list)
    zero_stage: Optional[int] = None
    world_size: Optional[int] = None
    fail_on: Optional[str] = None
    source: str = ""
    zero3: Optional[bool] = None
    entries: List[Entry] = field(default_factory=list, repr=False, compare=False)
    section: str = field(default="", repr=False, compare=False)  # "[tool.dsdoctor]" or "" (top level)

    @property
    def root(self) -> str:
        """The directory per-file-ignores globs are relative to."""
        return os.path.dirname(os.path.abspath(self.source)) if self.source else os.getcwd()

    def where(self, key: str) -> str:
        """``key = ...`` in which file, for the ``*_source`` facts (e.g. ``zero-stage in pyproject.toml``)."""
        sec = f" {self.section}" if self.section else ""
        return f"{key} in {self.source}{sec}"

    def zero3_default(self) -> Optional[Tuple[bool, str]]:
        """Does the project run ZeRO-3, as the file says (None: it does not say)."""
        if self.zero3 is not None:
            return self.zero3, self.where(f"zero3 = {'true' if self.zero3 else 'false'}")
        if self.zero_stage is not None:
            return self.zero_stage == 3, self.where(f"zero-stage = {self.zero_stage}")
        return None

    def dropped_by(self, name: str, path: Optional[str]) -> Optional[Entry]:
        """The entry that drops a finding ``name`` at ``path`` (``select`` drops with an Entry of no name)."""
        if self.select and name not in self.select:
            return Entry("select", "", "")
        for e in self.entries:
            if e.name != name:
                continue
            if e.key == "ignore" or (e.key == "per-file-ignores" and path and self.matches(e.glob, path)):
                return e
        return None

    def matches(self, glob: str, path: str) -> bool:
        """Does ``path`` (as a finding gives it: relative to the cwd, or absolute) match a per-file-ignores glob?"""
        neg = glob.startswith("!")
        pat = glob[1:] if neg else glob
        hit = _matches(pat, path, self.root)
        return not hit if neg else hit


def _matches(pat: str, path: str, root: str) -> bool:
    absolute = os.path.abspath(path)
    rel = os.path.relpath(absolute, root).replace(os.sep, "/")
    parts = rel.split("/") if not rel.startswith("../") and rel != ".." else [os.path.basename(absolute)]
    rx = _glob(pat.rstrip("/"))
    if "/" in pat.rstrip("/"):
        if rel.startswith("../"):
            return False
        # the file itself, or a directory above it (``configs/legacy`` covers everything under it)
        return any(rx.match("/".join(parts[:i])) for i in range(1, len(parts) + 1))
    return any(rx.match(p) for p in parts)  # a bare name: any path component (the file's or a directory's)


@lru_cache(maxsize=256)
def _glob(pat: str) -> Pattern[str]:
    """A glob as a regex: ``*`` and ``?`` within one path component, ``**`` across them, ``[...]`` classes."""
    out: List[str] = []
    i = 0
    while i < len(pat):
        if pat.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pat.startswith("**", i):
            out.append(".*")
            i += 2
        elif pat[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pat[i] == "?":
            out.append("[^/]")
            i += 1
        elif pat[i] == "[" and "]" in pat[i + 2:]:
            j = pat.index("]", i + 2)
            body = pat[i + 1:j]
            body = "^" + body[1:] if body.startswith("!") else body
            out.append("[" + body.replace("\\", "\\\\") + "]")
            i = j + 1
        else:
            out.append(re.escape(pat[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


# ---------------------------------------------------------------------------------------------------
# Names and codes
# ---------------------------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _codes() -> Dict[str, str]:
    return {code: name for name, (code, _) in names.CODES.items()}


def resolve(token: str) -> Optional[str]:
    """A finding name from a name or a code (``DS101``, any case); None when dsdoctor has no such rule."""
    t = token.strip()
    if t in names.CODES:
        return t
    return _codes().get(t.upper())


def suggest(token: str) -> str:
    """`` (did you mean 'x'?)`` for an unknown rule name or code, or ""."""
    pool = list(names.CODES) + list(_codes())
    close = difflib.get_close_matches(token.strip(), pool, n=1, cutoff=0.6)
    if not close and token.strip().upper() != token.strip():
        close = difflib.get_close_matches(token.strip().upper(), list(_codes()), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


# ---------------------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------------------

def _toml() -> Any:
    """tomllib (3.11+) or tomli; None when neither is importable."""
    try:
        import tomllib as toml  # type: ignore[import-not-found,unused-ignore]
    except ImportError:  # Python < 3.11
        try:
            import tomli as toml  # type: ignore[import-not-found,no-redef,unused-ignore]
        except ImportError:
            return None
    return toml


def toml_module() -> Any:
    """The TOML reader (``tomllib``, or ``tomli`` before Python 3.11); None when neither is importable."""
    return _toml()


def _parse(path: str, text: str) -> Dict[str, Any]:
    toml = _toml()
    if toml is None:
        raise SettingsError(f"{path}: reading a TOML configuration needs Python 3.11+ or the 'tomli' package "
                            "(pip install tomli)")
    try:
        data: Dict[str, Any] = toml.loads(text)
    except toml.TOMLDecodeError as exc:
        msg = str(exc)
        m = re.search(r"\s*\(at line (\d+), column (\d+)\)\s*$", msg)
        line = getattr(exc, "lineno", None)
        col = getattr(exc, "colno", None)
        if m:
            msg = msg[:m.start()]
            line, col = int(m.group(1)), int(m.group(2))
        elif msg.endswith("(at end of document)"):
            msg, line, col = msg[:-len("(at end of document)")].rstrip() + " at the end of the file", \
                len(text.splitlines()) or 1, None
        loc = f"{path}:{line}:{col}" if line and col else f"{path}:{line}" if line else path
        raise SettingsError(f"{loc}: invalid TOML: {msg}") from None
    return data


def _read_text(path: str, what: str) -> str:
    try:
        raw = read_bytes(path, 2**20 + 1)
    except OSError as exc:
        raise SettingsError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    if len(raw) > 2**20:
        raise SettingsError(f"{path}: larger than 1 MiB; not a configuration file")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SettingsError(f"{path}: not UTF-8 text (TOML files are UTF-8)") from None


def find_config(paths: Sequence[str] = ()) -> Optional[str]:
    """The nearest dsdoctor.toml, or pyproject.toml with a [tool.dsdoctor] table, at or above the first path
    that has one (the current directory when no path is given)."""
    starts: List[str] = []
    for p in paths or [os.getcwd()]:
        a = os.path.abspath(p)
        starts.append(a if os.path.isdir(a) else os.path.dirname(a))
    seen: Set[str] = set()
    for d in starts:
        while d not in seen:
            seen.add(d)
            for name in CONFIG_NAMES:
                f = os.path.join(d, name)
                if not os.path.isfile(f):
                    continue
                if name == "dsdoctor.toml":
                    return f
                try:
                    head = read_bytes(f, 2**20).decode("utf-8", errors="replace")
                except OSError:
                    continue
                if _has_table(head):
                    return f
            parent = os.path.dirname(d)
            if parent == d:
                break
            d = parent
    return None


def _display(path: str) -> str:
    """A found file relative to the cwd when it is below it, else absolute."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def load(config: Optional[str] = None, paths: Sequence[str] = ()) -> Settings:
    """Settings from ``config`` (a pyproject.toml with [tool.dsdoctor], or a dsdoctor.toml with top-level keys),
    else from the nearest configuration file above ``paths`` / the cwd; empty Settings when there is none."""
    if config is not None:
        if os.path.isdir(config):
            raise SettingsError(f"--config {config}: a directory; name a pyproject.toml or dsdoctor.toml file")
        text = _read_text(config, "--config")
        data = _parse(config, text)
        tool = data.get("tool")
        if isinstance(tool, dict) and "dsdoctor" in tool:
            return _settings(tool["dsdoctor"], config, text, "[tool.dsdoctor]")
        if os.path.basename(config) == "pyproject.toml":
            raise SettingsError(f"{config}: no [tool.dsdoctor] table")
        return _settings(data, config, text, "")
    found = find_config(paths)
    if found is None:
        return Settings()
    text = _read_text(found, "configuration file")
    data = _parse(_display(found), text)
    if os.path.basename(found) == "dsdoctor.toml":
        return _settings(data, _display(found), text, "")
    tool = data.get("tool")
    if not isinstance(tool, dict) or "dsdoctor" not in tool:  # the regex saw "dsdoctor" elsewhere
        return Settings()
    return _settings(tool["dsdoctor"], _display(found), text, "[tool.dsdoctor]")


def for_command(config: Optional[str], paths: Sequence[str] = ()) -> Settings:
    """What a command uses: ``--config`` when given, else the file found from its paths (files/directories
    that exist; ``-`` and log paths that are not there fall back to the current directory)."""
    real = [p for p in paths if p != "-" and os.path.exists(p)]
    return load(config, real)


class _Lines:
    """Approximate line numbers of keys and list items in the TOML text (tomllib gives none)."""

    def __init__(self, text: str, section: str) -> None:
        self.lines = text.splitlines()
        self.start = 0
        if section:
            for i, ln in enumerate(self.lines):
                if re.match(r"""\s*\[\s*tool\s*\.\s*["']?dsdoctor["']?\s*[\].]""", ln):
                    self.start = i
                    break

    def key(self, key: str) -> Optional[int]:
        spellings = {key, key.replace("-", "_")}
        alt = "|".join(re.escape(k) for k in spellings)
        rx = re.compile(rf"""^\s*(?:tool\s*\.\s*dsdoctor\s*\.\s*)?["']?(?:{alt})["']?\s*[=.\]]""")
        for i in range(self.start, len(self.lines)):
            if rx.match(self.lines[i]) or re.match(rf"""\s*\[\s*(?:tool\s*\.\s*dsdoctor\s*\.\s*)?["']?(?:{alt})["']?\s*\]""",
                                                   self.lines[i]):
                return i + 1
        return None

    def item(self, after: Optional[int], token: str) -> Optional[int]:
        rx = re.compile(r"""["']""" + re.escape(token) + r"""["']""")
        for i in range((after or self.start + 1) - 1, len(self.lines)):
            if rx.search(self.lines[i]):
                return i + 1
        return after


def _settings(raw: Any, source: str, text: str, section: str) -> Settings:
    """The :class:`Settings` a parsed table holds; a :class:`SettingsError` at the first bad key or value."""
    rd = _Reader(source, text, section)
    if not isinstance(raw, dict):
        raise rd.err(f"{section or 'the file'} must be a table", None)
    values = rd.values(raw)
    s = Settings(source=source, section=section)
    rd.rule_lists(s, values)
    rd.target(s, values)
    rd.stage(s, values)
    if "world-size" in values:
        val = values["world-size"]
        if not _int(val) or val <= 0:
            raise rd.err(f"world-size must be a positive integer, got {_show(val)}", rd.where.key("world-size"))
        s.world_size = val
    if "fail-on" in values:
        val = values["fail-on"]
        if val not in FAIL_ON:
            raise rd.err(f"fail-on must be one of {', '.join(FAIL_ON)}, got {_show(val)}", rd.where.key("fail-on"))
        s.fail_on = val
    return s


class _Reader:
    """Reads one settings table's keys into a :class:`Settings`, raising errors that name the file and line."""

    def __init__(self, source: str, text: str, section: str) -> None:
        self.source = source
        self.where = _Lines(text, section)
        self.table = f"{section} in {source}" if section else source

    def err(self, msg: str, line: Optional[int]) -> SettingsError:
        return SettingsError(f"{self.source}:{line}: {msg}" if line else f"{self.source}: {msg}")

    def values(self, raw: Dict[str, Any]) -> Dict[str, Any]:
        """The table by canonical (kebab-case) key: unknown keys and a key given in both spellings are errors."""
        values: Dict[str, Any] = {}
        for key, val in raw.items():
            canon = key.replace("_", "-")
            if canon not in KEYS:
                close = difflib.get_close_matches(canon, KEYS, n=1, cutoff=0.5)
                hint = f" (did you mean {close[0]!r}?)" if close else f" (known keys: {', '.join(KEYS)})"
                raise self.err(f"unknown key {key!r} in {self.table}{hint}", self.where.key(key))
            if canon in values:
                raise self.err(f"{canon!r} is given twice in {self.table} (as {canon} and {canon.replace('-', '_')})",
                               self.where.key(key))
            values[canon] = val
        return values

    def names(self, s: Settings, key: str, val: Any, glob: str = "") -> List[str]:
        """A list of rule names or codes as names (each recorded in ``s.entries`` with its line)."""
        line = self.where.key(key)
        if glob:
            line = self.where.item(line, glob)
        label = f"per-file-ignores[{glob!r}]" if glob else key
        if not isinstance(val, list) or not all(isinstance(x, str) for x in val):
            raise self.err(f"{label} must be a list of rule names or codes (strings), got {_tname(val)}", line)
        out: List[str] = []
        for tok in val:
            name = resolve(tok)
            at = self.where.item(line, tok)
            if name is None:
                raise self.err(f"unknown rule {tok!r} in {label}{suggest(tok)}; `dsdoctor rules` lists them", at)
            if name not in out:
                out.append(name)
                s.entries.append(Entry(key, name, tok, glob, at))
        return out

    def rule_lists(self, s: Settings, values: Dict[str, Any]) -> None:
        """select, ignore, per-file-ignores."""
        if "select" in values:
            s.select = self.names(s, "select", values["select"])
        if "ignore" in values:
            s.ignore = self.names(s, "ignore", values["ignore"])
        if "per-file-ignores" in values:
            pfi = values["per-file-ignores"]
            if not isinstance(pfi, dict):
                raise self.err(f"per-file-ignores must be a table of glob = [rule names], got {_tname(pfi)}",
                               self.where.key("per-file-ignores"))
            for glob, val in pfi.items():
                if not glob.strip("!").strip():
                    raise self.err("per-file-ignores: an empty glob", self.where.key("per-file-ignores"))
                s.per_file_ignores[glob] = self.names(s, "per-file-ignores", val, glob)

    def target(self, s: Settings, values: Dict[str, Any]) -> None:
        if "target" in values:
            val = values["target"]
            if not isinstance(val, list) or not all(isinstance(x, str) for x in val):
                raise self.err(f"target must be a list of NAME==VERSION strings, got {_tname(val)}", self.where.key("target"))
            try:
                parse_targets(val)
            except ValueError as exc:
                raise self.err(f"target: {str(exc).replace('--target ', '')}", self.where.key("target")) from None
            s.target = list(val)

    def stage(self, s: Settings, values: Dict[str, Any]) -> None:
        """zero-stage, and its older spelling zero3 (which must agree with it)."""
        if "zero-stage" in values:
            val = values["zero-stage"]
            if not _int(val) or not 0 <= val <= 3:
                raise self.err(f"zero-stage must be 0, 1, 2 or 3, got {_show(val)}", self.where.key("zero-stage"))
            s.zero_stage = val
        if "zero3" in values:
            val = values["zero3"]
            if not isinstance(val, bool):
                raise self.err(f"zero3 must be true or false, got {_tname(val)} (or use zero-stage = 3)",
                               self.where.key("zero3"))
            if s.zero_stage is not None and (s.zero_stage == 3) != val:
                raise self.err(f"zero3 = {str(val).lower()} contradicts zero-stage = {s.zero_stage}",
                               self.where.key("zero3"))
            s.zero3 = val
            if val and s.zero_stage is None:
                s.zero_stage = 3


def parse_targets(targets: Iterable[str]) -> Dict[str, str]:
    """``["transformers==4.46", "peft==0.13"]`` -> {"transformers": "4.46", ...}; ValueError on a bad one."""
    out: Dict[str, str] = {}
    for t in targets:
        m = re.fullmatch(r"\s*([A-Za-z0-9_.\-]+)\s*==\s*([0-9][0-9A-Za-z.+\-]*)\s*", t)
        if not m:
            raise ValueError(f"--target {t!r}: expected NAME==VERSION (e.g. transformers==4.46)")
        out[m.group(1).lower()] = m.group(2)
    return out


def _int(val: Any) -> bool:
    return isinstance(val, int) and not isinstance(val, bool)


def _show(val: Any) -> str:
    """A value as TOML writes it (``true``, ``"8"``, ``4``)."""
    if isinstance(val, bool):
        return "true" if val else "false"
    if isinstance(val, str):
        return '"' + val.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(val) if isinstance(val, (int, float)) else _tname(val)


def _tname(val: Any) -> str:
    return {str: "a string", int: "an integer", float: "a number", bool: "a boolean", list: "a list",
            dict: "a table"}.get(type(val), type(val).__name__)


# ---------------------------------------------------------------------------------------------------
# Applying
# ---------------------------------------------------------------------------------------------------

def apply(report: Report, settings: Settings) -> Report:
    """``report`` without the findings select / ignore / per-file-ignores drop (a new Report; the same facts)."""
    if not (settings.select or settings.entries):
        return report
    kept = [f for f in report.findings if settings.dropped_by(f.name, f.path) is None]
    return Report(kept, report.passed, report.facts, report.predictions)
