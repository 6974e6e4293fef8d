"""ds-config-trainer-mismatch against the real Trainer: each launch of tests/cases/lint/project/trainer-args-mismatch
runs its own command line through Transformers 4.46.3 (with DeepSpeed 0.19.8, one CPU rank; the accelerate launch
through the real `accelerate launch` and its YAML), and the config keys the Trainer refuses are exactly those lint
reports for that launch."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
from pathlib import Path
from typing import Dict, List, Set

import pytest

from dsdoctor.lint import lint

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
VPY = ORACLE / "venv" / "bin" / "python"
CASE = REPO / "tests" / "cases" / "lint" / "project" / "trainer-args-mismatch"
PROBE = Path(__file__).parent / "trainer_mismatch_probe.py"
LAUNCHES = ("run_micro4.sh", "run_auto.sh", "run_accelerate.sh", "run_accelerate_bf16.sh")  # run_extra.sh's $EXTRA_ARGS: lint assumes nothing


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _refused(root: Path, script: str) -> Set[str]:
    """The config keys the Trainer refuses when the launch in ``script`` runs (its arguments after train.py)."""
    line = next(x for x in (root / script).read_text().splitlines() if "train.py" in x)
    words = shlex.split(line)
    at = words.index("train.py")
    cmd: List[str] = [str(VPY), str(PROBE), *words[at + 1:]]
    if words[0] == "accelerate":  # the real launcher reads the YAML; one process on this machine
        cmd[1:1] = ["-m", "accelerate.commands.launch", *words[2:at], "--num_processes", "1"]
    env = dict(os.environ, PYTHONPATH=f"{ORACLE / 'hf' / 'tf4.46.3'}:{ORACLE / 'ds' / '0.19.8'}", DS_ACCELERATOR="cpu",
               MASTER_ADDR="127.0.0.1", MASTER_PORT=str(_free_port()), OMP_NUM_THREADS="1")
    if words[0] != "accelerate":
        env.update(RANK="0", LOCAL_RANK="0", WORLD_SIZE="1")
    p = subprocess.run(cmd, cwd=root, capture_output=True, text=True, env=env, timeout=600)
    got = [x for x in p.stdout.splitlines() if x.startswith("RESULT ")]
    assert got, (p.stdout + p.stderr)[-4000:]
    message = json.loads(got[-1][len("RESULT "):])
    return set(re.findall(r"^- ds ([\w.]+)=", message, re.M))


def test_the_trainer_refuses_exactly_what_lint_reports(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    shutil.copytree(CASE, root)
    predicted: Dict[str, Set[str]] = {s: set() for s in LAUNCHES}
    for f in lint([str(root)]).report.findings:
        if f.name == "ds-config-trainer-mismatch":
            launch = re.search(r"launch at (\S+?):\d+", f.title)
            assert launch is not None, f.title
            predicted[Path(launch.group(1)).name] |= set(re.findall(r"([\w.]+)=(?:\[[^\]]*\]|\S+) vs ", f.title))
    assert predicted["run_micro4.sh"] and predicted["run_accelerate.sh"] and not predicted["run_auto.sh"], predicted
    for script in LAUNCHES:
        assert _refused(root, script) == predicted[script], script
