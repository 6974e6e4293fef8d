"""A Git LFS pointer checked out in place of its file (lint/text_link.py: lfs_pointer)."""

from dsdoctor.lint.text_link import lfs_pointer

OID = "0123456789abcdef" * 4


def test_pointer_is_recognised_with_its_size() -> None:
    text = f"version https://git-lfs.github.com/spec/v1\noid sha256:{OID}\nsize 882\n"
    said = lfs_pointer(text)
    assert said is not None and "882-byte" in said and "git lfs pull" in said


def test_pointer_with_crlf_and_extension_lines() -> None:
    text = f"version https://git-lfs.github.com/spec/v1\r\next-0-foo sha256:{OID}\r\noid sha256:{OID}\r\nsize 7\r\n"
    assert lfs_pointer(text) is not None


def test_other_text_is_not_a_pointer() -> None:
    assert lfs_pointer('{"zero_optimization": {"stage": 3}}') is None
    # the spec line followed by something else: a file that quotes a pointer, not one
    assert lfs_pointer(f"version https://git-lfs.github.com/spec/v1\noid sha256:{OID}\nsize 12\nprint(1)\n") is None
    assert lfs_pointer(f"version https://git-lfs.github.com/spec/v1\noid sha256:{OID[:-1]}\nsize 12\n") is None
