"""Log explanations (``dsdoctor explain``, DS3xx): derived from the cause specs (``explain/causes``), where each
cause's What / Why / Fix and log examples are written. Each example is an excerpt (lines kept in order) of a
fixture log under ``tests/cases/explain/``; ``tests/test_ruledocs.py`` checks that and runs ``dsdoctor explain`` on
it. Names another command documents (a lint rule, an environment check) get explain's log examples as ``ALSO``."""

from __future__ import annotations

from typing import Tuple

from ..explain.causes import CAUSES
from .spec import Also, Entry

ENTRIES: Tuple[Entry, ...] = tuple(
    Entry(c.name, c.severity, ("explain",), "log", c.docs.what, c.docs.why, c.docs.fix, c.docs.examples)
    for c in CAUSES if c.docs is not None)

ALSO: Tuple[Also, ...] = tuple(Also(c.name, "explain", c.log_examples) for c in CAUSES if c.docs is None and c.log_examples)
