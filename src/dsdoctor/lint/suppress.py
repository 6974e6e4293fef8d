"""Inline suppressions in every file kind lint reads, and the ``unused-suppression`` finding.

A suppression is a comment ``dsdoctor: ignore[name-or-code, ...]`` right after the comment marker (``#``;
also ``//`` and ``/* */`` in HJSON ds_configs). Bare ``dsdoctor: ignore`` silences every finding on its line;
``dsdoctor: ignore-file[...]`` anywhere in the file silences those names in the whole file. Where a comment can
be, per kind:

- Python: any comment (found with ``tokenize``, so a ``#`` inside a string is not one).
- ds_config (HJSON, as DeepSpeed reads it): ``#``, ``//`` or ``/* */`` comments as the reader sees them; after
  a *quoteless* string value ``#`` is part of the value, not a comment, so it suppresses nothing there. A file
  loaded with ``json.load`` (HF Trainer, accelerate) cannot hold comments: use per-file-ignores.
- shell scripts: ``#`` at the start of a word, outside quotes. The comment covers its whole command, so a
  command continued with ``\\`` takes the comment on its last line.
- hostfile: ``#`` at the start of a line or after whitespace (the launcher ignores text after ``slots=N``).
- accelerate YAML: ``#`` at the start of a line or after whitespace, outside quotes.
- ``.deepspeed_env``: none. The launcher has no comment syntax (a ``#`` line becomes a variable, and before
  0.16.5 a trailing ``# ...`` is pasted into the remote shell command): use per-file-ignores.

A finding inside the suppression comment itself (e.g. strict-JSON ``ds-config-invalid`` *at* the comment) is
never silenced by it.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from .. import names as N
from ..model import Finding, Fix, Severity
from ..textpos import LineIndex
from .rule import Edit, Example, Hit, Rule, spec

if TYPE_CHECKING:
    from ..hjsondoc import Document
    from .target import Target

NAME = N.UNUSED_SUPPRESSION
DIRECTIVE = re.compile(r"(?:#|//|/\*)[ \t]*dsdoctor:[ \t]*(?P<kind>ignore-file|ignore)(?![\w-])"
                       r"(?:\[(?P<names>[^\]\n]*)\])?")
Span = Tuple[int, int]


@dataclass
class Directive:
    """One ``dsdoctor: ignore[...]`` comment."""

    file_level: bool
    tokens: Optional[List[str]]  # as written; None = every rule
    first: int  # lines it covers (1-based, inclusive); the whole file when file_level
    last: int
    start: int  # offset of the directive (its comment marker)
    end: int
    comment: Span  # the comment holding it
    names_span: Optional[Span] = None  # offsets of the text between [ and ]
    used: Set[str] = field(default_factory=set)  # names it silenced

    def covers(self, line: Optional[int]) -> bool:
        return self.file_level or (line is not None and self.first <= line <= self.last)

    def names(self) -> Optional[Set[str]]:
        from ..settings import resolve

        if self.tokens is None:
            return None
        return {n for n in (resolve(t) for t in self.tokens) if n}

    def silences(self, name: str) -> bool:
        names = self.names()
        return name != NAME if names is None else name in names


# ---------------------------------------------------------------------------------------------------
# Comments per file kind
# ---------------------------------------------------------------------------------------------------

def python_comments(text: str) -> List[Span]:
    index = LineIndex(text)
    out: List[Span] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                s = index.line_offset(tok.start[0]) + tok.start[1]
                out.append((s, s + len(tok.string)))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        # a file Python cannot tokenize (it is reported as script-unparseable): '#' to the end of the line, as
        # long as it is not after an opening quote on that line
        seen = {s for s, _ in out}
        for m in re.finditer(r"(?m)^[^#'\"\n]*(#[^\n]*)", text):
            if m.start(1) not in seen:
                out.append((m.start(1), m.end(1)))
    return out


def hash_comments(text: str, quotes: str = "", shell: bool = False) -> List[Span]:
    """``#`` comments that start a word (line start or after whitespace), outside ``quotes``.

    Shell: quotes may span lines, a backslash escapes the next character outside single quotes, and here-document
    bodies (``<<EOF`` ... ``EOF``) are text, not comments. Otherwise (YAML) a quote opens a quoted scalar only at
    the start of a value (``it's`` is plain text) and ends at the end of the line at the latest."""
    out: List[Span] = []
    q = ""
    i, n = 0, len(text)
    heredocs: List[str] = []  # delimiters of here-documents that start after the current line
    while i < n:
        ch = text[i]
        if q:
            if shell and q == '"' and ch == "\\":
                i += 2
                continue
            if ch == q:
                q = ""
            elif ch == "\n" and not shell:
                q = ""
        elif shell and ch == "\\":
            i += 2
            continue
        elif ch in quotes and (shell or i == 0 or text[i - 1] in " \t\n:[{,-"):
            q = ch
        elif ch == "#" and (i == 0 or text[i - 1] in (" \t\n;&|()" if shell else " \t\n")):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append((i, end))
            i = end
            continue
        elif shell and ch == "<" and text.startswith("<<", i) and not text.startswith("<<<", i):
            m = _HEREDOC.match(text, i)
            if m:
                heredocs.append(m.group(3))
                i = m.end()
                continue
        elif shell and ch == "\n" and heredocs:
            i = _skip_heredocs(text, i + 1, heredocs)
            heredocs = []
            continue
        i += 1
    return out


_HEREDOC = re.compile(r"<<(-?)[ \t]*(['\"]?)([A-Za-z_][\w.-]*)\2")


def _skip_heredocs(text: str, i: int, delimiters: List[str]) -> int:
    """The offset after the bodies of the here-documents opened on the previous line (one after another)."""
    for d in delimiters:
        while i < len(text):
            nl = text.find("\n", i)
            line_end = len(text) if nl < 0 else nl
            line = text[i:line_end]
            i = line_end + 1
            if line.strip("\t") == d or line.rstrip("\r").lstrip("\t") == d:
                break
    return min(i, len(text))


def comments(kind: str, text: str, doc: "Optional[Document]" = None) -> List[Span]:
    if kind == "python":
        return python_comments(text)
    if kind == "ds_config":
        return list(doc.comments) if doc is not None else []
    if kind == "shell":
        return hash_comments(text, "'\"", shell=True)
    if kind == "accelerate":
        return hash_comments(text, "'\"")
    if kind == "hostfile":
        return hash_comments(text)
    return []  # .deepspeed_env: no comment syntax


def _logical_lines(text: str) -> Dict[int, Tuple[int, int]]:
    """Shell: physical line -> (first, last) line of the command it belongs to (``\\`` continuations)."""
    out: Dict[int, Tuple[int, int]] = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        j = i
        while j + 1 < len(lines) and lines[j].rstrip().endswith("\\"):
            j += 1
        for k in range(i, j + 1):
            out[k + 1] = (i + 1, j + 1)
        i = j + 1
    return out


def directives(kind: str, text: str, doc: "Optional[Document]" = None) -> List[Directive]:
    if "dsdoctor:" not in text:
        return []
    index = LineIndex(text)
    logical = _logical_lines(text) if kind == "shell" else {}
    out: List[Directive] = []
    for cs, ce in comments(kind, text, doc):
        body = text[cs:ce]
        for m in DIRECTIVE.finditer(body):
            line, _ = index.linecol(cs + m.start())
            first, last = logical.get(line, (line, line))
            names = m.group("names")
            tokens = None if names is None else [t for t in re.split(r"[\s,]+", names) if t]
            nspan = (cs + m.start("names"), cs + m.end("names")) if names is not None else None
            out.append(Directive(m.group("kind") == "ignore-file", tokens, first, last, cs + m.start(), cs + m.end(),
                                 (cs, ce), nspan))
    return out


# ---------------------------------------------------------------------------------------------------
# Applying them
# ---------------------------------------------------------------------------------------------------

def suppress(path: str, kind: str, text: str, hits: Sequence[Hit], doc: "Optional[Document]" = None) -> List[Hit]:
    """``hits`` without those an inline suppression silences, plus an ``unused-suppression`` hit for each
    suppression (or name in one) that silenced nothing."""
    ds = directives(kind, text, doc)
    if not ds:
        return list(hits)
    starts = LineIndex(text).starts
    kept: List[Hit] = []
    for h in hits:
        f = h.finding
        if f.path != path:
            kept.append(h)
            continue
        off = None
        if f.line is not None and 0 < f.line <= len(starts):
            off = starts[f.line - 1] + max((f.col or 1) - 1, 0)
        silenced = [d for d in ds if d.covers(f.line) and d.silences(f.name)
                    and not (off is not None and d.comment[0] <= off < d.comment[1])]
        for d in silenced:
            d.used.add(f.name)
        if not silenced:
            kept.append(h)
    return kept + unused(path, text, ds)


def unused(path: str, text: str, ds: Sequence[Directive]) -> List[Hit]:
    from ..settings import resolve, suggest

    index = LineIndex(text)
    on_disk: List[Optional[str]] = []  # read once, when the first edit is made
    out: List[Hit] = []
    for d in ds:
        tokens = d.tokens
        if tokens is not None and any(resolve(t) == NAME for t in tokens):
            continue  # "ignore[..., unused-suppression]": the author keeps it on purpose
        quiet = [e for e in ds if e is not d and e.covers(d.first) and e.tokens and any(resolve(t) == NAME for t in e.tokens)]
        if quiet:
            for e in quiet:
                e.used.add(NAME)
            continue
        form = "ignore-file" if d.file_level else "ignore"
        scope = "in this file" if d.file_level else "on this line"
        if tokens is None:
            if d.used:
                continue
            title = f"`dsdoctor: {form}` suppresses nothing {scope}"
            keep: List[str] = []
        else:
            dead = [t for t in tokens if resolve(t) is None or resolve(t) not in d.used]
            if not dead:
                continue
            keep = [t for t in tokens if t not in dead]
            parts = []
            unknown = [t for t in dead if resolve(t) is None]
            known = [t for t in dead if resolve(t) is not None]
            if known:
                parts.append(f"{', '.join(known)} suppress{'es' if len(known) == 1 else ''} nothing {scope}")
            parts += [f"{t!r} is not a dsdoctor rule{suggest(t)}" for t in unknown]
            title = f"`dsdoctor: {form}[{', '.join(tokens)}]`: " + "; ".join(parts)
        if not on_disk:
            on_disk.append(_disk_text(path))
        edit = _edit(path, index, on_disk[0], d, keep)
        line, col = index.linecol(d.start)
        what = "remove the suppression comment" if not keep else f"keep only {', '.join(keep)} in the suppression"
        f = Finding(NAME, Severity.WARNING, title, RULE.why, (), (Fix(what, "safe"),) if edit else (), RULE.section,
                    path, line, col)
        out.append(Hit(f, (edit,) if edit else ()))
    return out


def _disk_text(path: str) -> Optional[str]:
    """The file as ``dsdoctor fix`` reads it (edits are offsets into that text)."""
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError):
        return None


def _edit(path: str, index: LineIndex, on_disk: Optional[str], d: Directive, keep: List[str]) -> Optional[Edit]:
    text = index.text
    if on_disk != text:  # a BOM, another encoding, undecodable bytes: offsets would not match the file
        return None
    if keep and d.names_span is not None:
        s, e = d.names_span
        return Edit(path, s, e, ", ".join(keep), "safe", "drop unused names from the suppression")
    cs, ce = d.comment
    block = text.startswith("/*", cs)
    body_end = ce - 2 if block else ce
    if text[cs:d.start].strip() in ("", "#", "//", "/*"):  # the comment is the directive (and its reason)
        s, e = cs, ce
    else:  # a comment with other text first: remove the directive and what follows it in the comment
        s, e = d.start, body_end
    while s > 0 and text[s - 1] in " \t":
        s -= 1
    line_start = index.line_start(s)
    nl = text.find("\n", e)
    line_end = len(text) if nl < 0 else nl
    if s == line_start and not text[e:line_end].strip():  # nothing else on the line: delete the line
        e = line_end + 1 if nl >= 0 else line_end
        if nl < 0 and s > 0:
            s -= 1  # the last line: take the newline before it
    return Edit(path, s, e, "", "safe", "remove the unused suppression")


def apply_to_findings(path: str, kind: str, text: str, findings: Iterable[Finding]) -> List[Hit]:
    """:func:`suppress` for findings without edits (accelerate YAML, whose findings come from a built config)."""
    return suppress(path, kind, text, [Hit(f) for f in findings])


def _check(t: "Target") -> Iterable[Hit]:
    return ()  # lint_target reports it after every other rule has run on the file (see suppress())


RULE = Rule(
    spec(NAME, "python", Severity.WARNING, section="Suppressions",
    summary="A dsdoctor: ignore comment (or config entry) that suppresses nothing",
    what="An inline `dsdoctor: ignore[...]` / `ignore-file[...]` comment, in any file kind lint reads, whose names "
         "(or, bare, the whole comment) silenced no finding on their line or file, or that names no dsdoctor rule; and "
         "an `ignore` / `per-file-ignores` entry of the configuration that dropped nothing although a file it applies "
         "to was linted. Reported for Python, ds_config, shell, hostfile and accelerate YAML files alike.",
    why="A suppression that matches nothing is stale (the problem was fixed, or the name is misspelled) and will "
        "silently hide the next real finding on that line.",
    fix="Delete the comment, or the unused names in it (safe fix: `dsdoctor fix` removes it); for a configuration "
        "entry, delete it from the file. Keep one on purpose with `dsdoctor: ignore[name, unused-suppression]`."),
    check=_check,
    valid=(Example('from transformers import AutoModelForCausalLM, TrainingArguments\n'
                   'args = TrainingArguments("out", deepspeed={"zero_optimization": {"stage": 3}})\n'
                   'model = AutoModelForCausalLM.from_pretrained("m", device_map="auto")  '
                   '# dsdoctor: ignore[zero3-device-map-conflict]\n'),
           Example("x = 1  # dsdoctor: ignore[DS307, unused-suppression]\n")),
    invalid=(Example('from transformers import AutoModelForCausalLM, TrainingArguments\n'
                     'args = TrainingArguments("out", deepspeed={"zero_optimization": {"stage": 3}})\n'
                     'model = AutoModelForCausalLM.from_pretrained("m")  # dsdoctor: ignore[zero3-device-map-conflict]\n',
                     fixed='from transformers import AutoModelForCausalLM, TrainingArguments\n'
                           'args = TrainingArguments("out", deepspeed={"zero_optimization": {"stage": 3}})\n'
                           'model = AutoModelForCausalLM.from_pretrained("m")\n'),
             Example("import os  # dsdoctor: ignore\n", fixed="import os\n"),
             Example("x = 1  # dsdoctor: ignore[zero3-device-map-conflit]\n", fixed="x = 1\n")),
)
