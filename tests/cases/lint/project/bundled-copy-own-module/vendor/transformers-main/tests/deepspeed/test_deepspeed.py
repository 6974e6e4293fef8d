from transformers.deepspeed import HfDeepSpeedConfig


def test_config() -> None:
    assert HfDeepSpeedConfig is not None
