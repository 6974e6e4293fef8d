"""lint.edits: which edits apply and how, for --fix/--diff and SARIF fixes alike."""

from __future__ import annotations

from typing import List

from hypothesis import given, settings
from hypothesis import strategies as st

from dsdoctor.lint.edits import apply, by_file, replacements, selected
from dsdoctor.lint.rule import Edit


def _sequential(text: str, edits: List[Edit]) -> str:
    """Reference: in-place edits applied one by one back to front (later wins on overlap), then appends."""
    new, last = text, len(text)
    for e in sorted((e for e in edits if e.start >= 0), key=lambda e: -e.start):
        if e.end > last:
            continue
        new, last = new[:e.start] + e.new + new[e.end:], e.start
    for e in edits:
        if e.start < 0 and e.new.split("=", 1)[0] + "=" not in new:
            new += ("\n" if new and not new.endswith("\n") else "") + e.new
    return new


@st.composite
def _case(draw: st.DrawFn) -> "tuple[str, List[Edit]]":
    text = draw(st.text("ab\n=", max_size=12))
    edits = []
    for _ in range(draw(st.integers(0, 5))):
        if draw(st.booleans()) and draw(st.booleans()):
            edits.append(Edit("f", -1, -1, draw(st.sampled_from(["A=1\n", "A=2", "B=1\n"]))))
        else:
            s = draw(st.integers(0, len(text)))
            e = draw(st.integers(s, len(text) + 1))  # one past the end: stale
            edits.append(Edit("f", s, e, draw(st.sampled_from(["", "x", "yy\n"]))))
    return text, edits


@settings(max_examples=500, deadline=None)
@given(_case())
def test_replacements_apply_like_sequential_edits(case: "tuple[str, List[Edit]]") -> None:
    text, edits = case
    reps = replacements(text, edits)
    assert all(a[1] <= b[0] for a, b in zip(reps, reps[1:]))  # in text order, no overlap
    assert all(0 <= s <= e <= len(text) for s, e, _ in reps)
    assert apply(text, reps) == _sequential(text, edits)


def test_selection_and_grouping() -> None:
    a, b = Edit("x", 0, 1, "A"), Edit("x", 2, 3, "B", "unsafe")
    c = Edit("y", 0, 0, "C")
    assert selected([a, b, c], unsafe=False) == [a, c]
    assert selected([a, b, c], unsafe=True) == [a, b, c]
    assert by_file([a, b, a, c]) == {"x": [a, b], "y": [c]}


def test_overlap_later_wins_and_stale_dropped() -> None:
    text = "0123456789"
    assert apply(text, replacements(text, [Edit("f", 2, 6, "A"), Edit("f", 4, 8, "B")])) == "0123B89"
    assert replacements(text, [Edit("f", 8, 11, "Z")]) == []  # ends past the text: the file changed since
    assert apply("K=1", replacements("K=1", [Edit("f", -1, -1, "K=2\n"), Edit("f", -1, -1, "L=1\n")])) == "K=1\nL=1\n"
