"""The derived upstream data files shipped in ``knowledge/data/`` (gzip'd JSON made by ``scripts/upstream/``): one
reader for them all. A missing or unreadable file reads as the caller's empty document, so a broken install answers
"unknown", never a crash. ``os.path``, not pathlib: importing pathlib would cost check's start-up."""

from __future__ import annotations

import gzip
import json
import os
from typing import Any, Dict

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def path(name: str) -> str:
    """The shipped data file ``name`` (e.g. ``"api.json.gz"``)."""
    return os.path.join(DATA_DIR, name)


def load(file: str, empty: Dict[str, Any]) -> Dict[str, Any]:
    """The JSON document in the gzip file ``file``; ``empty`` when it is missing or unreadable."""
    try:
        with open(file, "rb") as fh:
            doc: Dict[str, Any] = json.loads(gzip.decompress(fh.read()))
    except (OSError, ValueError):
        return empty
    return doc
