"""`dsdoctor explain` on the development corpus of real failure logs (``../shared/corpus/logs``, or
``$DSDOCTOR_CORPUS``): >= 95% top-1 on the first 200 cases (prefixes a, b, c, e; new causes included), the
whole corpus (455 since the long-tail ``g``/``h``/``p`` logs were added) held at least at its measured figure (a
ratchet, not the goal: issue 19's goal is 90%), no wrong advice and no dsdoctor traceback. Scored by
``bench/explain_corpus.py`` (run it for the per-cause table). Skipped, with a message, where the corpus is absent
(a fresh clone)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any, List

import pytest
from envfixture import load_bench

BENCH = Path(__file__).resolve().parents[1] / "bench" / "explain_corpus.py"
GOAL_PCT = 95.0
FIRST_200 = ("a", "b", "c", "e")  # the corpus's first 200 cases, which the 95% goal was set on
WHOLE_FLOOR = 409  # top-1 over all 455 (bench/explain_corpus.py): 305 when the long tail was added; only ever raise it


def _bench() -> ModuleType:
    return load_bench("explain_corpus")


@pytest.fixture(scope="module")
def results() -> List[Any]:
    bench = _bench()
    corpus = bench.default_corpus()
    if not any(corpus.glob("*.json")):
        pytest.skip(f"no corpus at {corpus} (../shared/corpus/logs beside the repository, or set DSDOCTOR_CORPUS)")
    got: List[Any] = bench.run(corpus)
    return got


def test_no_traceback_and_no_wrong_advice(results: List[Any]) -> None:
    assert [r.case for r in results if r.error] == []
    assert [(r.case, r.wrong_advice) for r in results if r.wrong_advice] == []


# top-1 on the first 200: 53/200 (26.5%) before the cause specs, 190/200 (95.0%) with them
def test_top1_goal(results: List[Any]) -> None:
    first = [r for r in results if r.case.startswith(FIRST_200)]
    ok = sum(r.ok for r in first)
    misses = [f"{r.case}: {r.cause} -> {r.got}" for r in first if not r.ok]
    assert len(first) >= 200 and 100.0 * ok / len(first) >= GOAL_PCT, f"top-1 {ok}/{len(first)}; misses:\n" + "\n".join(misses)


def test_whole_corpus_does_not_regress(results: List[Any]) -> None:
    ok = sum(r.ok for r in results)
    assert len(results) >= 455 and ok >= WHOLE_FLOOR, f"top-1 {ok}/{len(results)} fell below {WHOLE_FLOOR}"


# the corpus logs as other launchers, log collectors and terminals show them (bench/explain_corpus.py --transform):
# a case diagnosed right stays right (bench HELD: every rewrite but the hard wrap, which the bench measures).
@pytest.mark.parametrize("transform", _bench().HELD)
def test_right_cases_stay_right_through_other_writers(results: List[Any], transform: str) -> None:
    bench = _bench()
    right = {r.case for r in results if r.ok}
    lost = [f"{r.case}: {r.cause} -> {r.got}" for r in bench.run(bench.default_corpus(), transform=bench.TRANSFORMS[transform])
            if r.case in right and not r.ok]
    assert lost == []
