"""Oracle for the ranges other pins imply (lint/pin_implied.py, knowledge/requires.py): pip's own resolution of an
unpinned transformers beside ``huggingface-hub==0.17.3`` or ``tokenizers==0.13.3`` (dry-run reports made by
scripts/provision-oracle.sh, step 11) picks the newest release the derived requirements leave installable, and
``dsdoctor lint`` judges a project with that pin for a range whose top is that release."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from envfixture import need_oracle

from dsdoctor.knowledge.requires import installable

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")


def _picked(report: Path, name: str) -> str:
    got = json.loads(report.read_text(encoding="utf-8"))["install"]
    return next(i["metadata"]["version"] for i in got if i["metadata"]["name"].lower() == name)


@pytest.mark.parametrize("case, dep, release", [("hub0.17.3", "huggingface-hub", "0.17.3"),
                                                ("tokenizers0.13.3", "tokenizers", "0.13.3")])
def test_pip_picks_the_top_of_the_implied_range(case: str, dep: str, release: str, tmp_path: Path) -> None:
    report = need_oracle(ORACLE / "resolve" / f"{case}.json")
    picked = _picked(report, "transformers")
    assert installable("transformers", {dep: release})[-1] == picked
    (tmp_path / "requirements.txt").write_text(f"torch\n{dep}=={release}\ntransformers\n", encoding="utf-8")
    (tmp_path / "train.py").write_text("from transformers.deepspeed import HfDeepSpeedConfig\n", encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "lint", ".", "--format", "json", "--exit-zero"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300)
    out = json.loads(p.stdout)
    assert out["facts"]["pins"]["transformers"]["text"] == \
        f"transformers<={picked} (implied by {dep}=={release}; requirements.txt:2)"
    # every release it allows still has transformers.deepspeed (removed in 4.46.0): nothing above info
    assert [f["severity"] for f in out["findings"] if f["name"] == "removed-transformers-deepspeed-import"] == ["info"]
