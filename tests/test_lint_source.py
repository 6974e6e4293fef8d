"""Reading a Python file for lint (lint/script/source.py): trailing NUL padding cut off, NULs inside code kept."""

from __future__ import annotations

from pathlib import Path

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
