"""How lint reads a project file's text: UTF-8 with bad bytes replaced, at most ``limit`` bytes, "" where it cannot be
read. Its own module so that modules :mod:`.discover` calls can read files without importing it back.

During one lint run (:func:`memoized`) each (path, limit) is read once, and what :func:`per_text` wraps is
computed once per text: some fifteen readers (discovery, the
import graph, the recipes, the project model's searches, the script rules' context) each ask for every Python
file's text, and reading and decoding it again was about a twentieth of a whole-repository lint (issue 18)."""

from __future__ import annotations

import functools
from typing import Any, Callable, Dict, Optional, Tuple, TypeVar

from ..regular_file import read_bytes

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")
_memo: Optional[Dict[Tuple[str, int], str]] = None  # the texts read in the current run, while one is active
_derived: Optional[Dict[Tuple[Any, str], Any]] = None  # per_text's answers in the current run


def read_text(path: str, limit: int = 2 * 2**20) -> str:
    """The text of ``path`` (module doc)."""
    memo = _memo
    if memo is None:
        return _read(path, limit)
    got = memo.get((path, limit))
    if got is None:
        got = memo[(path, limit)] = _read(path, limit)
    return got


def _read(path: str, limit: int) -> str:
    try:
        return read_bytes(path, limit).decode("utf-8", errors="replace")
    except OSError:
        return ""


def per_text(fn: Callable[[str], T]) -> Callable[[str], T]:
    """``fn(text)``, a pure function of a file's text, computed once per text during a lint run (:func:`memoized`;
    several readers ask it of the same file)."""

    @functools.wraps(fn)
    def run(text: str) -> T:
        memo = _derived
        if memo is None:
            return fn(text)
        key = (fn, text)
        if key not in memo:
            memo[key] = fn(text)
        got: T = memo[key]
        return got

    return run


def memoized(fn: F) -> F:
    """``fn`` reads each file once per call (a call inside a memoized call shares its texts): a lint run, which
    writes no file, sees one text per file throughout."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        global _memo, _derived
        if _memo is not None:
            return fn(*args, **kwargs)
        _memo, _derived = {}, {}
        try:
            return fn(*args, **kwargs)
        finally:
            _memo = _derived = None

    return run  # type: ignore[return-value]
