"""Benchmark: `dsdoctor explain` on a generated 1 GB log of 64 interleaved ranks.

The log looks like a real multi-node ZeRO-3 run: pdsh ``worker-N:`` and torch ``[rankN]:`` prefixes, the
Trainer's loss dicts, DeepSpeed's ``log_dist`` step lines, tqdm bars redrawn with ``\\r``, ANSI-coloured
warnings; near the end rank 13 fails with the real CUDA-mismatch traceback (tests/cases/explain) and every
rank then prints the ds_opt_adam symptom. Each sample runs the real CLI in a fresh process; we report
MB/s and the child's peak RSS (targets: >= 100 MB/s, <= 100 MB on the 2-core CI machine).

    .venv/bin/python bench/explain_throughput.py [--size-mb 1024] [--runs 3] [--keep /tmp/big.log]

Results are recorded in docs/performance.md ("## explain").
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FAILURE = REPO / "tests" / "cases" / "explain" / "cuda-mismatch-ds0.19.7.log"
RANKS = 64


def generate(path: Path, size: int, seed: int = 0) -> None:
    """Write ``size`` bytes of a 64-rank log (streamed: bounded memory)."""
    rng = random.Random(seed)
    failure = FAILURE.read_text().splitlines()
    noise = [
        "{{'loss': {loss:.4f}, 'grad_norm': {g:.3f}, 'learning_rate': 1.9e-05, 'epoch': {e:.2f}}}",
        "[2026-11-29 12:00:{s:02d},{ms:03d}] [INFO] [logging.py:128:log_dist] [Rank {r}] step={step}, skipped=0, "
        "lr=[1.9e-05], mom=[(0.9, 0.999)]",
        "[2026-11-29 12:00:{s:02d},{ms:03d}] [INFO] [timer.py:264:stop] epoch=0/micro_step={step}/global_step={step}, "
        "RunningAvgSamplesPerSec=41.2, CurrSamplesPerSec=40.9, MemAllocated=3.1GB, MaxMemAllocated=9.8GB",
        " 12%|#2        | {step}/8000 [01:02<10:11, 11.80it/s]\r 12%|#2        | {step}/8000 [01:02<10:11, 11.81it/s]",
        "\x1b[33m[WARNING]\x1b[0m  [stage3.py:2166:step] 1 pytorch allocator cache flushes since last step.",
    ]
    fail_at = int(size * 0.9)
    written, step, failed = 0, 0, False
    with open(path, "wb", buffering=1 << 20) as fh:
        while written < size:
            block = []
            for _ in range(2000):
                r = rng.randrange(RANKS)
                tpl = noise[rng.randrange(len(noise))] if rng.random() < 0.999 else noise[4]
                step += 1
                line = tpl.format(loss=2.0 - step * 1e-7, g=rng.random(), e=step / 1e6, s=step % 60, ms=step % 1000,
                                  r=r, step=step)
                block.append(f"worker-{r // 8}: [rank{r}]: {line}")
            if not failed and written >= fail_at:
                block += [f"worker-1: [rank13]: {ln}" for ln in failure]
                block += [f"worker-{r // 8}: [rank{r}]: AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'"
                          for r in range(RANKS)]
                failed = True
            data = ("\n".join(block) + "\n").encode()
            fh.write(data)
            written += len(data)


def run_once(path: Path) -> "tuple[float, int, str]":
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-c",
                        "import resource, sys; from dsdoctor.cli import main; rc = main(sys.argv[1:]); "
                        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr); sys.exit(rc)",
                        "explain", "-f", "json", str(path)], capture_output=True, text=True)
    wall = time.perf_counter() - t0
    rss_kb = int(p.stderr.strip().splitlines()[-1])
    del before
    primary = json.loads(p.stdout)["diagnoses"][0]["name"]
    return wall, rss_kb * 1024, primary


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--size-mb", type=int, default=1024)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep", help="write the log here (and reuse it if it exists)")
    a = ap.parse_args()
    size = a.size_mb << 20
    with tempfile.TemporaryDirectory() as d:
        path = Path(a.keep) if a.keep else Path(d) / "big.log"
        if not (path.exists() and path.stat().st_size >= size):
            t0 = time.perf_counter()
            generate(path, size)
            print(f"generated {path.stat().st_size / 2**20:.0f} MiB, {RANKS} ranks in {time.perf_counter() - t0:.1f}s")
        mb = path.stat().st_size / 1e6
        walls, rss = [], []
        for i in range(a.runs):
            wall, peak, primary = run_once(path)
            walls.append(wall)
            rss.append(peak)
            print(f"run {i + 1}: {wall:.2f}s  {mb / wall:.0f} MB/s  peak RSS {peak / 2**20:.1f} MiB  primary={primary}")
        med = statistics.median(walls)
        print(json.dumps({"bytes": int(mb * 1e6), "ranks": RANKS, "median_s": round(med, 2),
                          "mb_per_s": round(mb / med, 1), "peak_rss_mib": round(max(rss) / 2**20, 1),
                          "python": sys.version.split()[0], "cpus": os.cpu_count()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
