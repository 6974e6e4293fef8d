"""``dsdoctor lint`` on the development corpus' real configs (``../shared/corpus/configs``; CI has it): no false
errors, no false positives, and >= 90% of the labelled defects found by name, ``new:<name>`` labels included
(bench/lint_corpus_configs.py)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from envfixture import load_bench

REPO = Path(__file__).resolve().parents[1]


def _bench() -> ModuleType:
    return load_bench("lint_corpus_configs")


def test_configs_corpus() -> None:
    bench = _bench()
    corpus = bench.corpus_configs()
    if not corpus.is_dir():
        pytest.skip(f"no config corpus at {corpus} (set DSDOCTOR_CORPUS to the corpus root)")
    s = bench.score_configs(corpus)
    bad = [c for c in s["cases"] if c["false_errors"] or c["false_positives"]]
    assert s["false_errors"] == 0 and s["false_positives"] == 0, bad
    missed = [(c["id"], m) for c in s["cases"] for m in c["missed"]]
    assert s["recall"] >= 0.9 and s["recall_named"] >= 0.9, missed  # all labels, and those naming an existing rule


def test_configs_corpus_through_the_cli() -> None:
    """As a user runs it: ``dsdoctor lint FILE --format json`` on each config alone, no context from the corpus
    (issue 18: 0 false errors, recall >= 90%; the "auto" values and --loaded-by's default carry the context)."""
    bench = _bench()
    corpus = bench.corpus_configs()
    if not corpus.is_dir():
        pytest.skip(f"no config corpus at {corpus} (set DSDOCTOR_CORPUS to the corpus root)")
    s = bench.score_configs(corpus, cli=True)
    bad = [c for c in s["cases"] if c["false_errors"] or c["false_positives"]]
    assert s["false_errors"] == 0 and s["false_positives"] == 0, bad
    missed = [(c["id"], m) for c in s["cases"] for m in c["missed"]]
    assert s["recall"] >= 0.9, missed


def test_world_size_field() -> None:
    bench = _bench()
    assert bench.world_size("8 (num_processes: 8)") == 8
    assert bench.world_size("8 per node (NUM_GPUS_PER_WORKER=8)") is None
    assert bench.world_size(None) is None
