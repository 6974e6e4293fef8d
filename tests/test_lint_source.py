"""Reading a Python file for lint (lint/script/source.py): trailing NUL padding cut off, NULs inside code kept."""

from __future__ import annotations

from pathlib import Path
from typing import List

import pytest

from dsdoctor.lint.script.source import cut_padding, read


def test_trailing_nul_padding_is_cut() -> None:
    assert cut_padding("x = 1\nprint(x)" + "\0" * 8 + "\n") == ("x = 1\nprint(x)", (2, 8))
    assert cut_padding("x = 1\n" + "\0\0\n\0 \n") == ("x = 1\n", (2, 3))


def test_nul_inside_code_or_none_left_as_is() -> None:
    assert cut_padding("x = 1\0\nprint(x)\n") == ("x = 1\0\nprint(x)\n", None)
    assert cut_padding("x = 1\n") == ("x = 1\n", None)


def test_padded_file_parses_and_says_so(tmp_path: Path) -> None:
    p = tmp_path / "a.py"
    p.write_bytes(b"from transformers import AutoModel\nm = AutoModel.from_pretrained('x')" + b"\0" * 100)
    src = read(str(p))
    assert src.error is None and src.module is not None and src.padding == (2, 100)
    q = tmp_path / "b.py"
    q.write_bytes(b"x = 1\0\ny = 2\n")
    bad = read(str(q))
    assert bad.error is not None and bad.padding is None


def _python_files() -> List[Path]:
    root = Path(__file__).resolve().parents[1]
    return sorted([*root.glob("src/dsdoctor/lint/script/*.py"), *root.glob("tests/cases/**/*.py")])


def test_a_parse_without_validation_builds_the_same_valid_tree() -> None:
    """source.parsed_module skips each node's validation: on every Python fixture file and dsdoctor's script
    rules, the tree is libcst's own (deep-equal), every node passes the validation skipped, the code round-trips."""
    import libcst as cst

    from dsdoctor.lint.script.source import parsed_module
    from dsdoctor.lint.script.walk import descendants

    checked = 0
    for f in _python_files():
        try:
            text = f.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # a fixture of an undecodable file
            continue
        try:
            want = cst.parse_module(text)
        except cst.ParserSyntaxError:
            with pytest.raises(cst.ParserSyntaxError):
                parsed_module(text)
            continue
        got = parsed_module(text)
        assert got.code == text and got.deep_equals(want), f
        for node in descendants(got):
            node._validate()
        checked += 1
    assert checked > 500
    with pytest.raises(cst.CSTValidationError):  # nodes built outside the parse are validated as before
        cst.Name("not a name")
