"""Oracle for the API history: a venv with two real releases that disagree (Transformers 4.36.2 + Accelerate 1.0.0,
scripts/provision-oracle.sh step 8) makes the real failure happen (building a Trainer raises Accelerate's
TypeError), `dsdoctor explain` on that real output names Accelerate's release that removed the keyword and the pin,
and `dsdoctor check --python` reports the incompatible pair before launch; a compatible pair (Transformers 4.46.3 +
Accelerate 1.1.1, hf/tf4.46.3) gives no error and nothing between the two."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest

from dsdoctor import names as N

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
PAIR = ORACLE / "venv-tf4.36.2-acc1.0.0" / "bin" / "python"
VENV = ORACLE / "venv" / "bin" / "python"

TRAINER = """
import tempfile
import transformers as T
cfg = T.GPT2Config(n_layer=1, n_embd=8, n_head=2, vocab_size=16, n_positions=8)
args = T.TrainingArguments(output_dir=tempfile.mkdtemp(), report_to=[], use_cpu=True)
T.Trainer(model=T.GPT2LMHeadModel(cfg), args=args)
print("TRAINER BUILT")
"""


def _dsdoctor(*args: str, env: Dict[str, str]) -> Dict[str, Any]:
    r = subprocess.run([sys.executable, "-m", "dsdoctor", *args, "--format", "json"], capture_output=True, text=True,
                       timeout=300, env=env)
    assert r.returncode in (0, 1), r.stderr[-2000:]
    out: Dict[str, Any] = json.loads(r.stdout)
    return out


def _env(**extra: str) -> Dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def pair() -> Path:
    if not PAIR.is_file():
        pytest.skip("venv-tf4.36.2-acc1.0.0 not provisioned: run scripts/provision-oracle.sh")
    return PAIR


@pytest.fixture(scope="module")
def real_log(pair: Path) -> str:
    """What building a Trainer prints with the pair installed (it fails)."""
    r = subprocess.run([str(pair), "-c", TRAINER], capture_output=True, text=True, timeout=600, env=_env(CUDA_VISIBLE_DEVICES=""))
    log = r.stdout + r.stderr
    assert r.returncode != 0 and "TRAINER BUILT" not in log, log[-3000:]
    assert "unexpected keyword argument 'dispatch_batches'" in log, log[-3000:]
    return log


def test_the_real_failure_and_explain(real_log: str, tmp_path: Path) -> None:
    log = real_log
    path = tmp_path / "train.log"
    path.write_text(log)
    rep = _dsdoctor("explain", str(path), env=_env())
    first = rep["diagnoses"][0]
    text = json.dumps(first)
    assert first["name"] == N.PACKAGE_VERSIONS_INCOMPATIBLE, text
    # Accelerate is read from its first release: added in 0.5.0, removed in 1.0.0 (no installed version shown)
    assert "accelerate removed `dispatch_batches`" in text and "1.0.0" in text, text
    assert "accelerate>=0.5.0,<1.0.0" in text, text


def test_the_pasted_line_alone_and_the_environment(pair: Path, real_log: str, tmp_path: Path) -> None:
    """The real failure's exception line alone (what a user pastes in an issue title): explain answers Accelerate's
    side from the history without naming who asked; with ``--env --python`` on the pair's venv it adds the installed
    Accelerate, said as the environment's."""
    line = next(ln for ln in reversed(real_log.splitlines()) if "unexpected keyword argument 'dispatch_batches'" in ln)
    path = tmp_path / "pasted.log"
    path.write_text(line + "\n")
    first = _dsdoctor("explain", str(path), env=_env())["diagnoses"][0]
    text = json.dumps(first)
    assert first["name"] == N.PACKAGE_VERSIONS_INCOMPATIBLE, text
    assert "accelerate>=0.5.0,<1.0.0" in text and "no frame" in text and "environment" not in first["explanation"], text
    first = _dsdoctor("explain", "--env", "--python", str(pair), str(path), env=_env())["diagnoses"][0]
    text = json.dumps(first)
    assert first["name"] == N.PACKAGE_VERSIONS_INCOMPATIBLE, text
    assert "found in the environment: accelerate 1.0.0" in text and "accelerate<1.0.0" in text, text


def _findings(python: Path) -> List[Dict[str, Any]]:
    rep = _dsdoctor("check", "--python", str(python), env=_env())
    return [f for f in rep["findings"] if f["name"] == N.PACKAGE_API_INCOMPATIBLE]


def test_check_reports_the_pair_before_launch(pair: Path) -> None:
    found = [f for f in _findings(pair) if "dispatch_batches" in json.dumps(f)]
    assert found, "no package-api-incompatible finding about dispatch_batches"
    text = json.dumps(found[0])
    assert found[0]["severity"] == "error" and "transformers 4.36.2" in text and "accelerate 1.0.0" in text, text
    assert "accelerate<1.0.0" in text, text


def test_a_compatible_pair_gives_no_finding(tmp_path: Path) -> None:
    stack = ORACLE / "hf" / "tf4.46.3"
    if not (VENV.is_file() and (stack / "transformers").is_dir()):
        pytest.skip("hf/tf4.46.3 not provisioned")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    py = venv / "bin" / "python"
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    vsite = subprocess.run([str(VENV), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                           capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "00-oracle.pth").write_text(f"{stack}\n{vsite}\n")
    found = _findings(py)
    # transformers 4.46.3 and accelerate 1.1.1 agree: no error, nothing between the two (a warning about a torch API
    # called inside a function of one of them is not this pair's)
    assert not [f for f in found if f["severity"] == "error"], found
    assert not [f for f in found if "transformers" in f["title"] and "accelerate" in json.dumps(f["evidence"])], found
