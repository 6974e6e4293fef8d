"""Oracle for the torch C++ message data (``knowledge/data/torch_cpp.json.gz``): the provisioned venvs' real torch
releases, run again by ``scripts/upstream/derive_torch_cpp.py``, raise each shipped message from the function and
file the data says, and each release the data names was one of them."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts" / "upstream"))


def test_shipped_rows_are_what_torch_raises() -> None:
    import derive_torch_cpp as D
    from conftest import ORACLE

    pythons = [str(p) for p in sorted(ORACLE.glob("venv*/bin/python"))
               if list(p.parent.parent.glob("lib/python*/site-packages/torch/__init__.py"))]
    if not pythons:
        pytest.skip("no provisioned venv with torch")
    shipped = json.loads(gzip.decompress(D.OUT.read_bytes()))
    fresh = {r["template"]: r for r in D.derive(pythons)["rows"]}
    for row in shipped["rows"]:
        got = fresh[row["template"]]
        assert (got["kind"], got["function"], got["file"]) == (row["kind"], row["function"], row["file"]), row
    ran = {r for row in fresh.values() for r in row["releases"]}
    assert {r for row in shipped["rows"] for r in row["releases"]} <= ran, (ran, shipped["provenance"])
