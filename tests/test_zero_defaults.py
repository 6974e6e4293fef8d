"""The zero_optimization defaults (``knowledge/zero_defaults``, from ``scripts/upstream/derive_zero_defaults.py``):
per release read, and what "says the default" means for values as configs and YAMLs write them. The real
DeepSpeedConfig is compared in tests/oracle/test_lint_key_tables.py."""

from __future__ import annotations

from dsdoctor.knowledge import zero_defaults as Z


def test_data_and_provenance() -> None:
    rel = Z.releases()
    assert rel[0] == "0.7.0" and "0.19.8" in rel and len(rel) >= 80  # the pydantic model, from 0.7.0
    assert Z.default("reduce_bucket_size", "0.19.8") == (True, 500000000)
    assert Z.default("stage3_prefetch_bucket_size", "0.19.8") == (True, 50000000)  # an alias names its field
    assert Z.default("overlap_comm", "0.19.8")[0] is False  # None, set by a validator from the stage
    assert Z.default("reduce_bucket_size", "0.6.0")[0] is False  # before the releases read
    prov = Z.provenance()
    assert prov["script"].endswith("derive_zero_defaults.py") and len(prov["releases"]) == len(rel)


def test_same_as_default() -> None:
    assert Z.same_as_default("reduce_bucket_size", "5e8", "0.19.8")  # PyYAML reads 5e8 as a string
    assert Z.same_as_default("allgather_bucket_size", 500000000.0, "0.9.5")
    assert Z.same_as_default("contiguous_gradients", True, "0.19.8")
    assert Z.same_as_default("contiguous_gradients", "true", "0.19.8")
    assert not Z.same_as_default("contiguous_gradients", False, "0.19.8")
    assert not Z.same_as_default("reduce_bucket_size", 2e8, "0.19.8")
    assert not Z.same_as_default("overlap_comm", True, "0.19.8")
    assert not Z.same_as_default("train_batch_size", 32, "0.19.8")  # not a zero_optimization field
