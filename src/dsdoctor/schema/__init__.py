"""The JSON Schema of ``--format json`` (``dsdoctor-output.schema.json``, shipped in the package).

``SCHEMA_VERSION`` is the value of the ``"schema"`` key every JSON output carries; see docs/output.md.
"""

from __future__ import annotations

import json
from typing import Any, Dict

SCHEMA_VERSION = 1
SCHEMA_FILE = "dsdoctor-output.schema.json"


def load() -> Dict[str, Any]:
    """The output schema as a dict (JSON Schema draft 2020-12)."""
    from importlib.resources import files

    data: Dict[str, Any] = json.loads(files(__name__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8"))
    return data
