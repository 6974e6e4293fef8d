"""Benchmark: wall time of `dsdoctor smoke --nproc 2` (real ZeRO-3 + both offloads, deepspeed launcher,
CPU/gloo), cold (empty TORCH_EXTENSIONS_DIR: cpu_adam and shm_comm are JIT-built) and warm (cached).
Target: warm <= 60 s on a 2-core machine.

    .venv/bin/python bench/smoke_time.py --python .cache/oracle/venv/bin/python \
        --pythonpath .cache/oracle/hf/tf5.24.0:.cache/oracle/ds/0.19.8 --warm-runs 3

Results are recorded in docs/performance.md ("## smoke").
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import List, Tuple


def once(python: str, pythonpath: str, ext: str, nproc: int) -> Tuple[float, int, float]:
    env = dict(os.environ, PYTHONPATH=pythonpath, TORCH_EXTENSIONS_DIR=ext)
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "smoke", "--python", python, "--nproc", str(nproc),
                        "--format", "json"], capture_output=True, text=True, env=env, timeout=900)
    wall = time.monotonic() - t0
    ranks = json.loads(p.stdout)["facts"].get("ranks", []) if p.stdout.strip() else []
    step = statistics.mean(r["step_seconds"] for r in ranks) if ranks else float("nan")
    return wall, p.returncode, step


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", required=True)
    ap.add_argument("--pythonpath", default="")
    ap.add_argument("--nproc", type=int, default=2)
    ap.add_argument("--warm-runs", type=int, default=3)
    a = ap.parse_args()
    py = os.path.abspath(a.python)
    pp = ":".join(os.path.abspath(p) for p in a.pythonpath.split(":") if p)
    ext = tempfile.mkdtemp(prefix="dsdoctor-bench-ext-")
    try:
        cold = once(py, pp, ext, a.nproc)
        warm: List[Tuple[float, int, float]] = [once(py, pp, ext, a.nproc) for _ in range(a.warm_runs)]
    finally:
        shutil.rmtree(ext, ignore_errors=True)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, python {platform.python_version()}")
    print(f"cold (JIT builds): {cold[0]:.1f}s rc={cold[1]} step={cold[2]:.3f}s")
    for i, w in enumerate(warm):
        print(f"warm #{i + 1}: {w[0]:.1f}s rc={w[1]} step={w[2]:.3f}s")
    walls = [w[0] for w in warm]
    print(f"warm median: {statistics.median(walls):.1f}s (target <= 60 s)")
    return 0 if all(rc == 0 for _, rc, _ in [cold, *warm]) else 1


if __name__ == "__main__":
    sys.exit(main())
