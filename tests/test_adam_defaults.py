"""The Adam defaults (``knowledge/adam_defaults``, from ``scripts/upstream/derive_adam_defaults.py``): per class and
release read. The real optimizers DeepSpeed builds under the Trainer are compared in
tests/oracle/test_optimizer_defaults_oracle.py."""

from __future__ import annotations

from dsdoctor.knowledge import adam_defaults as AD


def test_data_and_provenance() -> None:
    rel = AD.releases()
    assert rel[0] == "0.3.1" and "0.19.8" in rel and len(rel) >= 100
    for cls in (AD.GPU, AD.OFFLOAD):
        assert AD.default(cls, "lr", None) == 0.001
        assert AD.default(cls, "betas", "0.19.8") == [0.9, 0.999]
        assert AD.default(cls, "eps", "0.15.4") == 1e-8
        assert AD.default(cls, "weight_decay", None) == 0
    assert AD.default(AD.GPU, "lr", "0.2.0") is None  # before the releases read
    assert AD.default(AD.GPU, "amsgrad", None) is None  # not a key read
    assert AD.default("Lamb", "lr", None) is None
    prov = AD.provenance()
    assert prov["script"].endswith("derive_adam_defaults.py") and len(prov["releases"]) == len(rel)
