"""The launch commands a Python file gives as its usage (lint/py_usage.py): comment and docstring lines that start a
launcher, with the lines their backslashes continue; never code, a test file, or a bundled library's file."""

from __future__ import annotations

from pathlib import Path

import pytest

from dsdoctor.lint.py_usage import usage_lines


def _lines(tmp_path: Path, text: str, name: str = "train.py") -> "list[tuple[int, str]]":
    """``name`` (relative to ``tmp_path``, the linted root and working directory, as under ``dsdoctor lint .``)."""
    p = tmp_path / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    return usage_lines(name, ".")


def test_comment_and_docstring_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = ('"""Usage:\n    $ deepspeed --num_gpus 8 train.py --deepspeed ds.json\n"""\n'
            "import deepspeed\n"
            "# CUDA_VISIBLE_DEVICES=0,1 uv run accelerate launch \\\n"
            "#     --config_file z3.yaml train.py\n"
            "engine = deepspeed.initialize(model=None)\n"
            "deepspeed = None\n"
            "# torchrun is what we use\n")
    assert _lines(tmp_path, text) == [
        (2, "$ deepspeed --num_gpus 8 train.py --deepspeed ds.json"),
        (5, "CUDA_VISIBLE_DEVICES=0,1 uv run accelerate launch \\\n--config_file z3.yaml train.py")]


def test_no_usage_in_tests_or_bundled_libraries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    line = "# deepspeed train.py --deepspeed ds.json\n"
    assert _lines(tmp_path, line, "tests/test_train.py") == []
    (tmp_path / "third_party" / "transformers" / "setup.py").parent.mkdir(parents=True)
    (tmp_path / "third_party" / "transformers" / "setup.py").write_text(
        'from setuptools import setup\n\nsetup(\n    name="transformers",\n    version="4.40.0",\n)\n')
    (tmp_path / "third_party" / "transformers" / "src" / "transformers").mkdir(parents=True)
    assert _lines(tmp_path, line, "third_party/transformers/examples/run.py") == []
    assert _lines(tmp_path, line) == [(1, "deepspeed train.py --deepspeed ds.json")]
