"""Every oracle test runs the real libraries provisioned by scripts/provision-oracle.sh: without them the
test skips, and fails when DSDOCTOR_REQUIRE_ORACLE=1 (CI), so a missing oracle is never a silent pass."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")


@pytest.fixture(autouse=True)
def _provisioned() -> None:
    if not (ORACLE / ".provisioned").is_file():
        if os.environ.get("DSDOCTOR_REQUIRE_ORACLE") == "1":
            pytest.fail("oracle not provisioned: run scripts/provision-oracle.sh")
        pytest.skip("oracle not provisioned: run scripts/provision-oracle.sh")
