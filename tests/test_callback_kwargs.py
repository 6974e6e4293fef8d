"""The callback keyword history (``knowledge/callback_kwargs``, from ``scripts/upstream/derive_callback_kwargs.py``):
what the HF Trainer hands a TrainerCallback's ``on_*`` methods in each release read, and the one question lint asks
of it (is a key never passed?). The real Trainer is compared in tests/oracle/test_callback_kwargs_oracle.py."""

from __future__ import annotations

from dsdoctor.knowledge import callback_kwargs as CB


def test_data_spans_and_provenance() -> None:
    rel = CB.releases()
    assert rel[0] == "4.0.0" and len(rel) >= 140
    model = CB.span("model")
    assert model is not None and model.added_in() is None and model.removed_in() is None  # every release read
    renamed = CB.span("processing_class")
    assert renamed is not None and renamed.added_in() == "4.46.1"  # the first 4.46 release read
    tok = CB.span("tokenizer")
    assert tok is not None and tok.added_in() == "4.2.0" and tok.removed_in() == "4.46.1"
    prov = CB.provenance()
    assert prov["script"].endswith("derive_callback_kwargs.py") and len(prov["releases"]) == len(rel)
    assert all(r["sha256"] for r in prov["releases"])


def test_never_passed() -> None:
    assert CB.never_passed("trainer") == f"transformers {CB.releases()[0]}–{CB.releases()[-1]}"
    assert CB.never_passed("model") is None and CB.never_passed("logs") is None
