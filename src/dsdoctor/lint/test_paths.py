"""The project's test files: what its test runner reads, not what its launches run."""

from __future__ import annotations

import os

from .discover import TEST_DIRS


def is_test(path: str, root: str) -> bool:
    """A test file of the project (below ``root``): in a tests/test/testing directory, test_*.py, *_test.py,
    conftest.py."""
    rel = os.path.relpath(path, root).split(os.sep)
    base = rel[-1]
    return any(p in TEST_DIRS for p in rel[:-1]) or base.startswith("test_") or base.endswith("_test.py") or \
        base == "conftest.py"
