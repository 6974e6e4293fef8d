"""Oracle for explain's install / op-build causes: re-run some scenarios of tests/cases/explain/produce_build.py with
the real libraries (.cache/oracle) and check that explain names the cause from their live output."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from dsdoctor.explain import diagnose_log

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "cases" / "explain"))
import produce  # noqa: E402
import produce_build  # noqa: E402

# the cheap ones (no pip build): a loader error, an import from a source tree, an op the cpu accelerator lacks
LIVE = ("op-builder-bug-curand-unlinked", "source-tree-shadows-install", "op-not-implemented-cpu-inject")


@pytest.mark.parametrize("name", LIVE)
def test_live_build_failure_is_explained(name: str, tmp_path: Path) -> None:
    if not (produce.ORACLE / "venv" / "bin" / "python").exists():
        pytest.skip(f"no oracle at {produce.ORACLE} (scripts/provision-oracle.sh)")
    s = produce_build.BY_NAME[name]
    rc, out = produce.run(s, tmp_path)
    assert rc != 0, out[-2000:]
    first = diagnose_log(out, source="run.log").findings[0]
    assert first.name == s.expect, (first.name, out[-3000:])
    assert any(s.evidence in e.what for e in first.evidence), first.evidence
