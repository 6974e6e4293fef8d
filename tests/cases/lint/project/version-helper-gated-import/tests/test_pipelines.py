from pkg.pipelines.legacy_aligner import LegacyAligner  # a test imports it as such: no DeepSpeed run


def test_legacy_aligner_builds():
    assert LegacyAligner is not None
