"""The version-case benchmark's criterion (``bench/version_cases.py``), on made-up answers: which (package, version)
pairs an answer states, when a version is consistent with the case's, and the exact verdict (no corpus needed)."""

from __future__ import annotations

from typing import Any, Dict

from envfixture import load_bench

B = load_bench("version_cases")


def test_pairs() -> None:
    said = B.pairs("deepspeed removed it in 0.16.4; torch<2.4.0 and Transformers 4.37.0. numpy 2")
    assert ("deepspeed", "0.16.4") in said and ("torch", "2.4") in said and ("transformers", "4.37") in said
    assert not any(p == "numpy" for p, _ in said)  # no version after it
    assert ("deepspeed", "0.12..0.19.7") in B.pairs("A bug of DeepSpeed 0.12.0-0.19.7, fixed in 0.19.8")


def test_consistent() -> None:
    assert B.consistent("0.14", "0.14.4") and B.consistent("2.4", "2.4")
    assert not B.consistent("0.9.1", "0.8")
    assert B.consistent("0.12..0.19.7", "0.15.4") and not B.consistent("0.12..0.19.7", "0.19.8")


def test_score() -> None:
    case: Dict[str, Any] = {"cause": "new:transformers-too-old-for-model", "acceptable": [],
                            "fix": "Upgrade transformers to >= 4.37", "versions": {"transformers": "< 4.37"}, "notes": ""}
    right = {"name": "transformers-too-old-for-model", "summary": "Transformers maps it from 4.37.0"}
    assert B.score(case, right, "transformers-too-old-for-model", {})["exact"]
    wrong = {"name": "user-code-error", "summary": "transformers 4.37.0"}
    assert not B.score(case, wrong, "transformers-too-old-for-model", {})["exact"]
    vague = {"name": "transformers-too-old-for-model", "summary": "upgrade transformers"}
    assert not B.score(case, vague, "transformers-too-old-for-model", {})["exact"]
