"""Oracle for ``knowledge.transformers.MODEL_ATTRIBUTES`` (explain's model-attribute version answer): the real
Transformers releases already provisioned for tests/oracle/test_explain_oracle.py (``hf/tf4.46.3``, ``hf/tf5.24.0``,
the shared ``venv``'s torch) build a ``LlamaAttention`` and read ``rope_theta``: 4.46.3 (inside the row's range) has
it, 5.24.0 (after it) raises the AttributeError, and ``dsdoctor explain`` on that real output names the versions.
The DeepSpeed side is read in the provisioned DeepSpeed releases (``ds/0.15.4`` reads the attention's attribute,
``ds/0.19.8`` the config first). Nothing is downloaded here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from envfixture import need_oracle

from dsdoctor.knowledge import transformers as TK
from dsdoctor.knowledge.versions import parse

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
ROW = TK.LLAMA_ROPE_THETA
_READ = ("import torch\nfrom transformers import LlamaConfig\nfrom transformers.models.llama.modeling_llama import "
         "LlamaAttention\ncfg = LlamaConfig(hidden_size=32, intermediate_size=64, num_attention_heads=4, "
         "num_key_value_heads=4, num_hidden_layers=1, vocab_size=64)\nattn = LlamaAttention(cfg, layer_idx=0)\n"
         "print('rope_theta', attn.rope_theta)\n")




def _read_attr(hf: str, tmp: Path) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    py = need_oracle(ORACLE / "venv" / "bin" / "python")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(PYTHONPATH=str(need_oracle(ORACLE / "hf" / hf)), OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1",
               TRANSFORMERS_NO_ADVISORY_WARNINGS="1")
    (tmp / "train.py").write_text(_READ)
    return subprocess.run([str(py), "train.py"], cwd=tmp, env=env, capture_output=True, text=True, timeout=300)


def test_a_release_inside_the_range_sets_the_attribute(tmp_path: Path) -> None:
    """4.46.3 sets LlamaAttention.rope_theta, and the row's range holds it."""
    p = _read_attr("tf4.46.3", tmp_path)
    assert p.returncode == 0 and "rope_theta" in p.stdout, p.stderr[-2000:]
    assert parse(ROW.first) <= parse("4.46.3") <= parse(ROW.last)  # type: ignore[operator]


def test_a_release_after_the_range_raises_and_explain_names_the_versions(tmp_path: Path) -> None:
    """5.24.0 (after the range) raises the real AttributeError; explain answers with the row's releases."""
    p = _read_attr("tf5.24.0", tmp_path)
    assert p.returncode != 0 and f"object has no attribute '{ROW.attr}'" in p.stderr, p.stderr[-2000:]
    assert parse("5.24.0") > parse(ROW.last)  # type: ignore[operator]
    log = tmp_path / "run.log"
    log.write_text(p.stdout + p.stderr)
    out = subprocess.run([sys.executable, "-m", "dsdoctor", "explain", "-f", "json", str(log)], capture_output=True,
                         text=True, timeout=300)
    d = json.loads(out.stdout)["diagnoses"][0]
    assert d["name"] == "package-versions-incompatible", d
    assert f"{ROW.first}-{ROW.last}" in d["summary"] and ROW.before in d["summary"], d["summary"]


def test_the_deepspeed_releases_read_it_as_the_row_says() -> None:
    """0.15.4 (after ``reader_from``) reads the attention's attribute; 0.19.8 (after ``reader_fallback``) reads the
    model config first."""
    rel = Path("deepspeed") / "module_inject" / "containers" / "llama.py"
    old = need_oracle(ORACLE / "ds" / "0.15.4" / rel).read_text(encoding="utf-8")
    new = need_oracle(ORACLE / "ds" / "0.19.8" / rel).read_text(encoding="utf-8")
    assert "self.policy.client_module.self_attn.rope_theta" in old and "_get_rope_theta" not in old
    assert "_get_rope_theta" in new and "config.rope_theta" in new
    assert parse(ROW.reader_from) <= parse("0.15.4") < parse(ROW.reader_fallback) <= parse("0.19.8")  # type: ignore[operator]
