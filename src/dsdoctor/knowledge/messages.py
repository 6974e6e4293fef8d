"""The message index: every message DeepSpeed, Transformers (its modules but models', other frameworks', tools'),
Accelerate, PEFT, TRL and torch (the Python modules releases.py keeps, but Dynamo's and a few tools') raise or log
at warning level or above, as templates with the module, function and releases that carry them. Derived from the
released sources by ``scripts/upstream/derive_messages.py`` (``data/messages.json.gz``, loaded on the first lookup only).

:func:`lookup` returns the templates a log line shows, best first (most literal characters matched).
"""

from __future__ import annotations

import functools
import gzip
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, FrozenSet, List, Optional, Tuple

from .release_spans import Span

DATA = Path(__file__).resolve().parent / "data" / "messages.json.gz"
CUT_MIN = 30  # a line that ends mid-template matches when this many literal characters matched before the end
_WORD = re.compile(r"\w{3,}")
_SPACE = re.compile(r"\s+")
_TOKEN = re.compile(r"(\{\{|\}\}|\{\})")
# how a package is named to a user
TITLES = {"deepspeed": "DeepSpeed", "transformers": "Transformers", "accelerate": "Accelerate", "peft": "PEFT",
          "trl": "TRL", "torch": "torch"}


@dataclass(frozen=True)
class Message:
    """One template: the package, module and function (``Class.method``) that raise or log it, the exception class
    or log level (``kind``), the text (``{}`` for each dynamic part) and the releases read that carry it."""

    package: str
    module: str
    function: str
    kind: str
    template: str
    span: Span

    def chunks(self) -> Tuple[str, ...]:
        """The literal pieces of the template, in order (``{{``/``}}`` are literal braces)."""
        return _chunks(self.template)

    def where(self) -> str:
        """``TRL's trl.trainer.grpo_trainer GRPOTrainer.__init__ (trl 0.14.0-0.19.1)``."""
        func = "" if self.function == "<module>" else f" {self.function}"
        return f"{TITLES.get(self.package, self.package)}'s {self.module}{func} ({self.span.describe()})"


def union(spans: List[Span]) -> Span:
    """The releases any of ``spans`` (of one package) has."""
    from .release_spans import decode, encode

    idx = sorted({i for sp in spans for lo, hi in sp.ranges for i in range(lo, hi + 1)})
    return Span(spans[0].package, spans[0].read, decode(encode(idx)))


@dataclass(frozen=True)
class Match:
    """A message a line shows: how many literal characters matched, and whether the line ends mid-template."""

    message: Message
    literal: int
    cut: bool


def _chunks(template: str) -> Tuple[str, ...]:
    if "{{" not in template and "}}" not in template:
        return tuple(template.split("{}"))
    out: List[str] = []
    cur: List[str] = []
    for tok in _TOKEN.split(template):
        if tok == "{}":
            out.append("".join(cur))
            cur = []
        else:
            cur.append(tok[0] if tok in ("{{", "}}") else tok)
    out.append("".join(cur))
    return tuple(out)


@dataclass
class _Index:
    rows: List[Tuple[str, Tuple[str, ...], List[Any]]]  # (package, releases read, stored row)
    tables: Dict[str, Tuple[List[str], List[str]]]  # package -> (module names, kinds)
    by_word: Dict[str, List[int]]
    provenance: Dict[str, Any]
    built: Dict[int, Tuple[Message, Tuple[str, ...]]]

    def get(self, i: int) -> Tuple[Message, Tuple[str, ...]]:
        """Row ``i`` as a Message and its literal pieces (built on first use)."""
        if i not in self.built:
            pkg, read, row = self.rows[i]
            mods, kinds = self.tables[pkg]
            text = row[3]
            self.built[i] = (Message(pkg, mods[row[0]], row[1], kinds[row[2]], text, Span.of(pkg, read, row[4])),
                             _chunks(text))
        return self.built[i]


def words(template: str) -> Tuple[List[str], List[str]]:
    """The whole words of a template's literal text, and those in its first ``CUT_MIN`` characters (a word touching
    a dynamic part may be glued to its value: not whole)."""
    chunks = _chunks(template)
    every: List[str] = []
    head: List[str] = []
    seen, last = 0, len(chunks) - 1
    for i, c in enumerate(chunks):
        for m in _WORD.finditer(c):
            if (m.start() == 0 and i > 0) or (m.end() == len(c) and i < last):
                continue
            every.append(m.group())
            if seen + m.start() < CUT_MIN:
                head.append(m.group())
        seen += len(c)
    return every, head


def keys(templates: List[str]) -> List[str]:
    """Each template's index words (space-separated), stored by the derivation: its rarest whole word among
    ``templates``, and the rarest in its first ``CUT_MIN`` characters (a line cut there still has it).
    :func:`lookup` reads only the templates keyed by a word of the line."""
    pools = [words(t) for t in templates]
    freq: Dict[str, int] = {}
    for every, _ in pools:
        for w in set(every):
            freq[w] = freq.get(w, 0) + 1
    out: List[str] = []
    for every, head in pools:
        picked = {min(pool, key=lambda w: (freq[w], -len(w), w)) for pool in (every, head) if pool}
        out.append(" ".join(sorted(picked)))
    return out


@functools.lru_cache(maxsize=1)
def _index() -> _Index:
    with gzip.open(DATA, "rt", encoding="utf-8") as f:
        data = json.load(f)
    rows: List[Tuple[str, Tuple[str, ...], List[Any]]] = []
    tables: Dict[str, Tuple[List[str], List[str]]] = {}
    by_word: Dict[str, List[int]] = {}
    for pkg, table in sorted(data["packages"].items()):
        read = tuple(table["releases"])
        tables[pkg] = (table["modules"], table["kinds"])
        for row in table["messages"]:
            for w in row[5].split():
                by_word.setdefault(w, []).append(len(rows))
            rows.append((pkg, read, row))
    return _Index(rows, tables, by_word, data["provenance"], {})


def provenance() -> Dict[str, Any]:
    """The index's provenance: the script, the packages and releases read (archive, sha256), date, how to refresh."""
    return _index().provenance


# quotes people and releases swap (`x`, 'x', "x", typographic ones): compared as one
_QUOTES = str.maketrans("`\"\u2018\u2019\u201c\u201d", "'" * 6)
# where a person cut a quoted message short ("... not being compatible...` error")
_ELLIPSIS = re.compile(r"\.\.\.|\u2026")


def _match(chunks: Tuple[str, ...], line: str) -> Optional[Tuple[int, bool]]:
    """(literal characters matched, cut) when ``line`` shows the template: its literal pieces in order, or a
    prefix of at least ``CUT_MIN`` literal characters (a piece's own prefix counted) after which the line ends or
    an ellipsis cuts it (within the next piece). Quotes compare as one (``_QUOTES``)."""
    pos, matched, last = 0, 0, len(chunks) - 1
    line = line.translate(_QUOTES)
    for k, c in enumerate(chunks):
        # a space next to a dynamic part goes with it (the part may be empty: "... issue. {}" printed "... issue.")
        c = c.lstrip() if k > 0 else c
        c = (c.rstrip() if k < last else c).translate(_QUOTES)
        if not c:
            continue
        at = line.find(c, pos)
        if at < 0:
            rest = line[pos:]
            cut = _ELLIPSIS.search(rest)
            part = _ends_in((rest[:cut.start()] if cut else rest).rstrip(), c)
            if k > 0 and part >= 0 and matched + part >= CUT_MIN:
                return matched + part, True
            return None
        pos, matched = at + len(c), matched + len(c)
    return matched, False


def _ends_in(rest: str, chunk: str) -> int:
    """How long a prefix of ``chunk`` ``rest`` (the line after the last piece matched) ends in, after a dynamic
    value of at most 200 characters; -1 when none."""
    for j in range(min(len(chunk), len(rest)), -1, -1):
        if rest.endswith(chunk[:j]) and len(rest) - j <= 200:
            return j
    return -1


def lookup(line: str, packages: Optional[FrozenSet[str]] = None) -> List[Match]:
    """The templates ``line`` shows (of ``packages`` when given), best first: complete matches before a line cut
    mid-template, then most literal characters, then those whose exception class the line names."""
    idx = _index()
    text = _SPACE.sub(" ", line).strip()
    cands = {i for w in set(_WORD.findall(text)) for i in idx.by_word.get(w, ())}
    out: List[Match] = []
    for i in cands:
        if packages is not None and idx.rows[i][0] not in packages:
            continue
        m, chunks = idx.get(i)
        got = _match(chunks, text)
        if got is not None:
            out.append(Match(m, got[0], got[1]))
    out.sort(key=lambda x: (x.cut, -x.literal, f"{x.message.kind}:" not in text, x.message.package, x.message.module,
                            x.message.function))
    return out


# a retyped message's typo: a word's inner letters swapped (``Zreo`` for ``Zero``); compared by its first and last
# letter and its inner letters sorted
_LONG = re.compile(r"\w{4,}")
TYPO_MIN = 40  # literal characters a message retyped with a typo must match, whole (not cut)


def _canon(text: str) -> str:
    return _LONG.sub(lambda m: m.group()[0] + "".join(sorted(m.group()[1:-1])) + m.group()[-1], text)


@functools.lru_cache(maxsize=1)
def _by_canon() -> Dict[str, List[int]]:
    out: Dict[str, List[int]] = {}
    for w, ids in _index().by_word.items():
        out.setdefault(_canon(w), []).extend(ids)
    return out


def lookup_typo(line: str, packages: Optional[FrozenSet[str]] = None) -> List[Match]:
    """The templates ``line`` shows when a person retyped it with letters swapped inside words (``DeepSpeed Zreo-3
    is not compatible with ...``), for a line :func:`lookup` finds nothing in: whole matches of at least
    ``TYPO_MIN`` literal characters, each word compared by its first and last letter and its inner letters as a set
    (a transposition). Best first, as :func:`lookup`."""
    idx = _index()
    text = _canon(_SPACE.sub(" ", line).strip())
    cands = {i for w in set(_WORD.findall(text)) for i in _by_canon().get(w, ())}
    out: List[Match] = []
    for i in cands:
        if packages is not None and idx.rows[i][0] not in packages:
            continue
        m, chunks = idx.get(i)
        got = _match(tuple(_canon(c) for c in chunks), text)
        if got is not None and not got[1] and got[0] >= TYPO_MIN:
            out.append(Match(m, got[0], False))
    out.sort(key=lambda x: (-x.literal, x.message.package, x.message.module, x.message.function))
    return out
