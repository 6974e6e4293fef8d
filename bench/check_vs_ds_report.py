"""Benchmark: cold `dsdoctor check` vs DeepSpeed's own `ds_report`, same environment, same run; and
`dsdoctor --version` against `python -c pass` of the interpreter dsdoctor runs under (its start-up floor).

Each sample is a fresh process (cold interpreter) started in an empty temporary directory (so check's lint of
the current directory finds nothing: the environment check alone); with --drop-caches (root) the OS page cache
is emptied before every sample, so the commands read everything from disk. The commands alternate so machine
noise hits them alike; we report medians, the ratio and the difference.

    .venv/bin/python bench/check_vs_ds_report.py --python .cache/oracle/venv/bin/python \
        --pythonpath .cache/oracle/ds/0.19.8 --runs 9

Results are recorded in docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Dict, List


def drop_caches() -> None:
    """Empty the OS page cache (root only) so a sample reads every file from disk: truly cold."""
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as fh:
        fh.write("3\n")


def timed(argv: List[str], env: Dict[str, str], cwd: str, cold: bool = False) -> float:
    if cold:
        drop_caches()
    t0 = time.perf_counter()
    subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--python", required=True, help="interpreter of the environment with torch + deepspeed")
    ap.add_argument("--pythonpath", default="", help="PYTHONPATH for that environment (e.g. a --target DeepSpeed)")
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--drop-caches", action="store_true", help="drop the page cache before every sample (root)")
    ap.add_argument("--dsdoctor", default=os.path.join(os.path.dirname(sys.executable), "dsdoctor"))
    args = ap.parse_args()
    args.python, args.dsdoctor = os.path.abspath(args.python), os.path.abspath(args.dsdoctor)  # run from a temp dir
    # as an installed package runs: from bytecode (pip compiles it at install; here the warm-up run writes it)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if args.pythonpath:
        env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in args.pythonpath.split(os.pathsep))
    own_env = {k: v for k, v in env.items() if k != "PYTHONPATH"}  # dsdoctor's own interpreter, not the checked env's
    cmds = {
        "dsdoctor check": ([args.dsdoctor, "check", "--python", args.python, "--format", "json"], env),
        "ds_report": ([args.python, "-c", "from deepspeed.env_report import cli_main; cli_main()"], env),
        "dsdoctor --version": ([args.dsdoctor, "--version"], own_env),
        "python -c pass": ([sys.executable, "-c", "pass"], own_env),
    }
    samples: Dict[str, List[float]] = {k: [] for k in cmds}
    with tempfile.TemporaryDirectory(prefix="dsd-bench-") as cwd:
        for argv, e in cmds.values():  # one warm-up each (page cache), not counted
            timed(argv, e, cwd)
        for _ in range(args.runs):
            for name, (argv, e) in cmds.items():
                samples[name].append(timed(argv, e, cwd, args.drop_caches))
    med = {k: statistics.median(v) for k, v in samples.items()}
    ds_ver = subprocess.run([args.python, "-c", "import importlib.metadata as m; print(m.version('deepspeed'))"],
                            env=env, capture_output=True, text=True).stdout.strip()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"deepspeed {ds_ver}; {args.runs} runs each; "
          f"{'page cache dropped before every sample' if args.drop_caches else 'page cache warm'}")
    print("| command | median s | min s | max s |\n|---|---|---|---|")
    for k, v in samples.items():
        print(f"| {k} | {med[k]:.3f} | {min(v):.3f} | {max(v):.3f} |")
    print(f"\nratio ds_report / dsdoctor check: {med['ds_report'] / med['dsdoctor check']:.1f}x")
    print(f"dsdoctor --version over python -c pass: {1000 * (med['dsdoctor --version'] - med['python -c pass']):.0f} ms"
          f"; load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
