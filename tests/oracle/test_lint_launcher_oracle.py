"""Oracle: the real DeepSpeed 0.19.8 launcher (``python -m deepspeed.launcher.runner``) rejects the command
lines dsdoctor flags as ``deepspeed-export-flag`` / ``launcher-args-conflict``."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from dsdoctor.lint import lint

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
VPY = ORACLE / "venv" / "bin" / "python"
CASES = [("--export DS_SKIP_CUDA_CHECK=1 train.py", "deepspeed-export-flag", 2, "unrecognized arguments: --export"),
         ("--include localhost:0 --num_gpus 1 train.py", "launcher-args-conflict", 1,
          "Cannot specify num_nodes/gpus with include/exclude")]



@pytest.mark.parametrize("args,name,rc,msg", CASES)
def test_launcher_rejects_what_lint_flags(args: str, name: str, rc: int, msg: str, tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text("print('ran')\n")
    (tmp_path / "run.sh").write_text(f"deepspeed {args}\n")
    env = dict(os.environ, PYTHONPATH=str(ORACLE / "ds" / "0.19.8"))
    env.pop("DS_ACCELERATOR", None)
    p = subprocess.run([str(VPY), "-m", "deepspeed.launcher.runner", *args.split()], cwd=tmp_path,
                       capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == rc and msg in p.stderr + p.stdout, p.stderr[-2000:]
    got = {f.name for f in lint([str(tmp_path / "run.sh")], ds_version="0.19.8").report.findings
           if f.severity.value == "error"}
    assert name in got
