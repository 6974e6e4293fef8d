"""dsdoctor.literal_gate: the strings a pattern's every match holds, and the gate that skips searches without
them. The oracle is ``re`` itself: wherever the gate answers "no match" without searching, the plain pattern finds
none either, over dsdoctor's own gated patterns and every text of its sources and test fixtures."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path
from typing import List, Set, Tuple

import pytest

import dsdoctor
from dsdoctor.literal_gate import GatedPattern, gated, needles

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("pattern,flags,want", [
    (r"\bdeepspeed\.initialize\s*\(", 0, [{"deepspeed.initialize"}]),
    (r"\bdeepspeed\b|\w*Trainer\b", 0, [{"deepspeed", "Trainer"}]),
    # a sequence: each part required; Python keywords select nothing (``import`` is in nearly every file)
    (r"^[ \t]*(?:from|import)[ \t]+(?:deepspeed|accelerate)\b", re.M, [{"deepspeed", "accelerate"}]),
    (r"from_pretrained\((?:[^()])*device_map", 0, [{"from_pretrained("}, {"device_map"}]),
    (r"(?:abc)+xyz", 0, [{"abc"}, {"xyz"}]),
    (r"(?:abc)*xyz", 0, [{"xyz"}]),  # a part that may repeat zero times is not required
    (r"abc|x", 0, []),  # one alternative with no 3-character literal: nothing can be skipped
    (r"deepspeed", re.I, []),  # case-insensitive: no literal gate
    (r"(?i:deep)speed", 0, [{"speed"}]),  # the scoped case-insensitive part is left out
])
def test_needles(pattern: str, flags: int, want: List[Set[str]]) -> None:
    got = needles(pattern, flags)
    assert sorted(map(sorted, got)) == sorted(map(sorted, want))


def test_gate_answers_as_re() -> None:
    """Search, finditer and findall give what the compiled pattern gives, on texts with and without the needles."""
    p = gated(r"\bdeepspeed\.initialize\s*\((\w*)")
    for text in ("x = deepspeed.initialize(model)", "import deepspeed\nnothing", "", "deepspeed.initialize (a)"):
        plain = re.compile(p.pattern)
        m, n = p.search(text), plain.search(text)
        assert (m and m.span()) == (n and n.span())
        assert [x.span() for x in p.finditer(text)] == [x.span() for x in plain.finditer(text)]
        assert p.findall(text) == plain.findall(text)


def _gated_patterns() -> List[Tuple[str, GatedPattern]]:
    out = []
    for mod in pkgutil.walk_packages(dsdoctor.__path__, "dsdoctor."):
        if not mod.name.startswith("dsdoctor.lint"):
            continue
        module = importlib.import_module(mod.name)
        out += [(f"{mod.name}.{k}", v) for k, v in vars(module).items() if isinstance(v, GatedPattern)]
    return out


def test_project_patterns_never_skip_a_match() -> None:
    """Every gated pattern of lint, over every source and fixture text here: where the gate skips the search, the
    plain pattern has no match; and the gate does skip (the patterns are gated for speed)."""
    pats = _gated_patterns()
    assert len(pats) >= 30
    texts = [p.read_text(errors="replace") for d in ("src", "tests/cases") for p in (ROOT / d).rglob("*")
             if p.is_file() and p.suffix in (".py", ".sh", ".json", ".yaml", ".yml", ".md") and p.stat().st_size < 2**20]
    assert len(texts) > 500
    skipped = 0
    for name, p in pats:
        for text in texts:
            if not p._may(text):
                skipped += 1
                assert p.regex.search(text) is None, (name, text[:200])
    assert skipped > len(texts)


def test_project_patterns_search_as_re() -> None:
    """The faster search (each alternative gated, candidates found without a leading \\b / ^) gives the match
    ``re`` gives, span and text, for every gated pattern of lint over every source and fixture text here."""
    texts = [p.read_text(errors="replace") for d in ("src", "tests/cases") for p in (ROOT / d).rglob("*")
             if p.is_file() and p.suffix in (".py", ".sh", ".yaml", ".md") and p.stat().st_size < 2**18]
    split = fast = 0
    for name, p in _gated_patterns():
        split += bool(p._parts)
        fast += p._fast is not None
        for text in texts:
            m, n = p.search(text), p.regex.search(text)
            assert (m and (m.span(), m.group(0))) == (n and (n.span(), n.group(0))), (name, text[:200])
    assert split >= 5 and fast >= 5


@pytest.mark.parametrize("pattern,flags,text", [
    (r"\bTrainer\b", 0, "MyTrainer(x); Trainer.x"),  # the candidate inside a word fails, the next one matches
    (r"\bab", 0, "xab abab"),
    (r"^[ \t]*import[ \t]+deepspeed\b", re.M, "x = 1  import deepspeed\n  import deepspeed"),
    (r"\bfoo\b|bar|\bfoobar", 0, "xfoobar foo"),  # leftmost wins: `bar` at 4 before `foo` at 8
    (r"abc|abcd|ab", 0, "zabcd ab"),  # the same start: the first alternative, as re
    (r"(?m)^abc|xyz", 0, "q\nabc xyz"),  # a global flag at the start: not split
    (r"[|(]abc|def", 0, "x|abc def"),  # `|` and `(` in a class do not split
])
def test_fast_search_as_re(pattern: str, flags: int, text: str) -> None:
    p, plain = gated(pattern, flags), re.compile(pattern, flags)
    for pos in range(len(text) + 1):
        m, n = p.search(text, pos), plain.search(text, pos)
        assert (m and m.span()) == (n and n.span()), (pattern, pos)
