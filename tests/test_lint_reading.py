"""lint/reading.py: each file is read once per lint run (memoized), and read afresh by the next run."""

from __future__ import annotations

from pathlib import Path
from typing import List

from dsdoctor.lint import reading
from dsdoctor.lint.reading import memoized, read_text


def test_one_text_per_file_during_a_run_and_a_fresh_one_after(tmp_path: Path) -> None:
    f = tmp_path / "train.py"
    f.write_bytes(b"import deepspeed\n\xff\n")
    seen: List[str] = []

    @memoized
    def run(inner: bool) -> None:
        seen.append(read_text(str(f)))
        f.write_text("changed\n")
        seen.append(read_text(str(f)))
        seen.append(read_text(str(f), 7))  # another limit is another read
        seen.append(read_text(str(tmp_path / "missing.py")))
        if inner:
            run(False)  # a run inside a run shares its texts

    run(True)
    assert seen[:4] == ["import deepspeed\n\ufffd\n", "import deepspeed\n\ufffd\n", "changed", ""]
    assert seen[4] == seen[0] and reading._memo is None
    assert read_text(str(f)) == "changed\n"
    run(False)
    assert seen[-4] == "changed\n"


def test_per_text_answers_once_per_text_during_a_run() -> None:
    calls: List[str] = []

    @reading.per_text
    def words(text: str) -> int:
        calls.append(text)
        return len(text.split())

    @memoized
    def run() -> List[int]:
        return [words("a b"), words("a b"), words("c"), words("".join(["a", " b"]))]  # an equal text, another object

    assert run() == [2, 2, 1, 2] and calls == ["a b", "c"]
    assert words("a b") == 2 and calls == ["a b", "c", "a b"]  # outside a run: computed each time
    assert run() == [2, 2, 1, 2] and len(calls) == 5  # a new run asks again
