"""Benchmark: what ``dsdoctor.preflight()`` costs a training script, cold and warm (probe cache), against
``import deepspeed`` in the same environment and the same run.

Every sample is a fresh process of the target interpreter (torch + deepspeed installed), alternating so that
machine noise hits every kind alike. Kinds:

  bare              python -c pass
  stdlib            python -c "import <the standard-library modules `import deepspeed` loads>"
  cold / warm       python -c "import dsdoctor; dsdoctor.preflight(CONFIG)"; cold = empty probe cache
  stdlib+cold/warm  the stdlib imports first, then the preflight: the marginal cost inside a training
                    script, which loads those modules anyway (torch imports typing, logging, subprocess, ...)
  import deepspeed  python -c "import deepspeed"

Each dsdoctor child also reports, with time.perf_counter, its own `import dsdoctor` and the preflight()
call (which imports the checks and lint rules on first use). Bytecode is compiled once into a private
PYTHONPYCACHEPREFIX before sampling (an installed dsdoctor ships .pyc files). With --drop-caches (root) the OS
page cache is emptied before every sample: nvcc, the compiler and every module are read from disk, as on the
first run of a job on a node.

    .venv/bin/python bench/preflight_time.py --python .cache/oracle/venv/bin/python \
        --pythonpath .cache/oracle/ds/0.19.8 --cuda-home /usr/local/cuda-13.0 --runs 15 [--drop-caches]

Results are recorded in docs/performance.md.
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
from pathlib import Path
from typing import Dict, List, Optional, Tuple

REPO = Path(__file__).resolve().parents[1]

CONFIG = {"train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 1,
          "bf16": {"enabled": True},
          "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}, "offload_param": {"device": "cpu"}}}

CHILD = """
import json, sys, time
t0 = time.perf_counter()
import dsdoctor
t1 = time.perf_counter()
try:
    rep = dsdoctor.preflight(sys.argv[1])
    ok, hits, misses = True, rep.facts["preflight"]["cache"]["hits"], rep.facts["preflight"]["cache"]["misses"]
except dsdoctor.DsDoctorError as exc:
    ok, hits, misses = False, exc.report.facts["preflight"]["cache"]["hits"], exc.report.facts["preflight"]["cache"]["misses"]
t2 = time.perf_counter()
heavy = sorted(m for m in ("torch", "deepspeed", "transformers") if m in sys.modules)
print("BENCH " + json.dumps({"import": t1 - t0, "call": t2 - t1, "ok": ok, "hits": hits, "misses": misses, "heavy": heavy}))
"""

STDLIB_OF_DEEPSPEED = """
import sys, json
import deepspeed
names = sorted({m.split(".")[0] for m in sys.modules} & set(sys.stdlib_module_names) - {"__main__", "sys", "builtins"})
print("MODS " + json.dumps(names))
"""


def drop_caches() -> None:
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as fh:
        fh.write("3\n")


def run(argv: List[str], env: Dict[str, str], cold_disk: bool = False) -> Tuple[float, Optional[dict]]:  # type: ignore[type-arg]
    if cold_disk:
        drop_caches()
    t0 = time.perf_counter()
    p = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit(f"child failed ({p.returncode}): {p.stderr[-2000:]}")
    line = next((ln for ln in p.stdout.splitlines() if ln.startswith("BENCH ")), None)
    return wall, (json.loads(line[6:]) if line else None)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--python", required=True, help="interpreter of the environment with torch + deepspeed")
    ap.add_argument("--pythonpath", default="", help="extra PYTHONPATH for that environment (e.g. a --target DeepSpeed)")
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--cuda-home", default="", help="CUDA_HOME for the children (default: as in this environment)")
    ap.add_argument("--drop-caches", action="store_true", help="drop the page cache before every sample (root)")
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="dsdoctor-bench-"))
    try:
        cfg = work / "ds_config.json"
        cfg.write_text(json.dumps(CONFIG, indent=2))
        xdg = work / "xdg"
        env = dict(os.environ)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.update(PYTHONPATH=os.pathsep.join(p for p in (str(REPO / "src"), args.pythonpath) if p),
                   XDG_CACHE_HOME=str(xdg), PYTHONPYCACHEPREFIX=str(work / "pyc"))
        env.pop("DSDOCTOR_NO_CACHE", None)
        if args.cuda_home:
            env["CUDA_HOME"] = args.cuda_home
        p = subprocess.run([args.python, "-c", STDLIB_OF_DEEPSPEED], env=env, capture_output=True, text=True, check=True)
        mods = json.loads(next(ln for ln in p.stdout.splitlines() if ln.startswith("MODS "))[5:])
        stdlib_imports = "import " + ", ".join(m for m in mods if not m.startswith("_") or m in ("_thread",))
        child = [args.python, "-c", CHILD, str(cfg)]
        kinds: Dict[str, List[str]] = {
            "bare": [args.python, "-c", "pass"],
            "stdlib": [args.python, "-c", stdlib_imports],
            "cold": child,
            "warm": child,
            "stdlib+cold": [args.python, "-c", stdlib_imports + "\n" + CHILD, str(cfg)],
            "stdlib+warm": [args.python, "-c", stdlib_imports + "\n" + CHILD, str(cfg)],
            "import deepspeed": [args.python, "-c", "import deepspeed"],
        }
        for argv in kinds.values():  # compile bytecode, fill the page cache (not counted)
            run(argv, env)
        wall: Dict[str, List[float]] = {k: [] for k in kinds}
        inner: Dict[str, List[dict]] = {k: [] for k in kinds}  # type: ignore[type-arg]
        for _ in range(args.runs):
            for name, argv in kinds.items():
                if name.endswith("cold"):
                    shutil.rmtree(xdg, ignore_errors=True)
                w, rep = run(argv, env, args.drop_caches)
                wall[name].append(w)
                if rep:
                    inner[name].append(rep)
        ds_ver = subprocess.run([args.python, "-c", "import importlib.metadata as m; print(m.version('deepspeed'))"],
                                env=env, capture_output=True, text=True).stdout.strip()
        load = os.getloadavg()[0]
        print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load average {load:.1f}, Python "
              f"{platform.python_version()}; deepspeed {ds_ver}; CUDA_HOME {env.get('CUDA_HOME', '(unset)')}; "
              f"{args.runs} samples per kind, interleaved; "
              f"{'page cache dropped before every sample' if args.drop_caches else 'page cache warm'}")
        print(f"stdlib modules `import deepspeed` loads: {len(mods)}")
        print("\n| process | wall median ms | min ms |\n|---|---|---|")
        for k, v in wall.items():
            print(f"| {k} | {statistics.median(v) * 1e3:.1f} | {min(v) * 1e3:.1f} |")
        med = {k: statistics.median(v) for k, v in wall.items()}
        print(f"\nmarginal wall, standalone:   cold {1e3 * (med['cold'] - med['bare']):.1f} ms, "
              f"warm {1e3 * (med['warm'] - med['bare']):.1f} ms (over `python -c pass`)")
        print(f"marginal wall, in a script:  cold {1e3 * (med['stdlib+cold'] - med['stdlib']):.1f} ms, "
              f"warm {1e3 * (med['stdlib+warm'] - med['stdlib']):.1f} ms (over the stdlib modules deepspeed loads)")
        print(f"import deepspeed:            {1e3 * (med['import deepspeed'] - med['bare']):.1f} ms over `python -c pass`")
        print("\n| in-process (perf_counter) | import dsdoctor median ms | preflight() median ms | min ms | cache hits/misses |"
              "\n|---|---|---|---|---|")
        for k in ("cold", "warm", "stdlib+cold", "stdlib+warm"):
            reps = inner[k]
            calls = [r["call"] for r in reps]
            print(f"| {k} | {statistics.median(r['import'] for r in reps) * 1e3:.1f} | {statistics.median(calls) * 1e3:.1f} | "
                  f"{min(calls) * 1e3:.1f} | {reps[-1]['hits']}/{reps[-1]['misses']} |")
        heavy = {m for r in (x for v in inner.values() for x in v) for m in r["heavy"]}
        print(f"\npreflight ok: {all(r['ok'] for v in inner.values() for r in v)}; heavy modules imported by preflight: "
              f"{sorted(heavy) or 'none'}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
