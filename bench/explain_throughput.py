"""Benchmark: `dsdoctor explain` on a generated 300 MB log of 64 interleaved ranks, beside `grep -F` (the floor).

The mix (issue #11), by lines: 25% Python warnings (a ``FutureWarning``/``UserWarning`` line and its
``warnings.warn(`` source-line echo, as the ``warnings`` module prints them), 25% tqdm bars redrawn in place
with ``\\r``, 50% training output (the Trainer's loss dicts, DeepSpeed's ``log_dist``/timer lines, ANSI-coloured
``[WARNING]`` lines), every line behind pdsh ``worker-N:`` and torch ``[rankN]:`` prefixes. In the middle rank 13
fails with the real CUDA-mismatch traceback (tests/cases/explain) and every rank then prints the ds_opt_adam
symptom; training output goes on after it. Each sample runs the real CLI in a fresh process (``-f json``); we
report MB/s and the child's peak RSS (targets: >= 100 MB/s, <= 100 MB), and in the same run
``grep -F -c -f NEEDLES`` over the same file, NEEDLES being the explain prefilter's own literals
(``dsdoctor.explain.match.prefilter_needles``): the time any literal scan needs just to read the bytes.

    .venv/bin/python bench/explain_throughput.py [--size-mb 300] [--runs 3] [--keep /tmp/big.log]

Results are recorded in docs/performance.md ("## explain").
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import List

REPO = Path(__file__).resolve().parents[1]
FAILURE = REPO / "tests" / "cases" / "explain" / "cuda-mismatch-ds0.19.7.log"
RANKS = 64
SITE = "/opt/conda/lib/python3.11/site-packages"
# (where, category, message) as the libraries print them through `warnings.warn`; the echo line is the source
# line the warnings module shows under the message.
WARNINGS = (
    (f"{SITE}/transformers/training_args.py:1575", "FutureWarning",
     "`evaluation_strategy` is deprecated and will be removed in version 4.46 of 🤗 Transformers. "
     "Use `eval_strategy` instead", "  warnings.warn("),
    (f"{SITE}/transformers/trainer.py:3421", "FutureWarning",
     "`tokenizer` is deprecated and will be removed in version 5.0.0 for `Trainer.__init__`. "
     "Use `processing_class` instead.", "  warnings.warn("),
    (f"{SITE}/torch/utils/checkpoint.py:464", "UserWarning",
     "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. In version 2.4 we will raise "
     "an exception if use_reentrant is not passed. use_reentrant=False is recommended, but if you need to preserve "
     "the current default behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
     "differences between the two variants.", "  warnings.warn("),
    (f"{SITE}/torch/_dynamo/eval_frame.py:600", "UserWarning",
     "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly.",
     "  return fn(*args, **kwargs)"),
    (f"{SITE}/deepspeed/runtime/zero/stage3.py:1330", "UserWarning",
     "The torch.cuda.*DtypeTensor constructors are no longer recommended. It's best to use methods such as "
     "torch.tensor(data, dtype=*, device='cuda') to create tensors.", "  self.grad_position = torch.cuda.IntTensor("),
    (f"{SITE}/torch/autograd/graph.py:825", "UserWarning",
     "c10d::broadcast_: an autograd kernel was not registered to the Autograd key(s) but we are trying to backprop "
     "through it.", "  return Variable._execution_engine.run_backward("),
)
TRAINING = (
    "{{'loss': {loss:.4f}, 'grad_norm': {g:.3f}, 'learning_rate': 1.9e-05, 'epoch': {e:.2f}}}",
    "[2026-11-29 12:00:{s:02d},{ms:03d}] [INFO] [logging.py:128:log_dist] [Rank {r}] step={step}, skipped=0, "
    "lr=[1.9e-05], mom=[(0.9, 0.999)]",
    "[2026-11-29 12:00:{s:02d},{ms:03d}] [INFO] [timer.py:264:stop] epoch=0/micro_step={step}/global_step={step}, "
    "RunningAvgSamplesPerSec=41.2, CurrSamplesPerSec=40.9, MemAllocated=3.1GB, MaxMemAllocated=9.8GB",
    "\x1b[33m[WARNING]\x1b[0m  [stage3.py:2166:step] 1 pytorch allocator cache flushes since last step. this happens "
    "when there is high memory pressure and is detrimental to performance.",
)


def _bar(rng: random.Random, step: int) -> str:
    """A tqdm bar redrawn in place: several ``\\r`` segments on one line (what a file receives)."""
    segs = []
    for k in range(rng.randint(2, 8)):
        n = step % 8000 + k
        pct = n * 100 // 8000
        fill = "#" * (pct // 10)
        segs.append(f"{pct:3d}%|{fill:<10}| {n}/8000 [01:02<10:11, {11.8 + k / 100:.2f}it/s]")
    return "\r" + "\r".join(segs)


def generate(path: Path, size: int, seed: int = 0) -> None:
    """Write ``size`` bytes of the 64-rank mix (streamed: bounded memory); the failure sits at the middle."""
    rng = random.Random(seed)
    failure = FAILURE.read_text().splitlines()
    fail_at = size // 2
    written, step, failed = 0, 0, False
    with open(path, "wb", buffering=1 << 20) as fh:
        while written < size:
            block: List[str] = []
            for _ in range(2000):
                r = rng.randrange(RANKS)
                pre = f"worker-{r // 8}: [rank{r}]: "
                step += 1
                kind = rng.randrange(7)  # by lines: 2/8 warnings (1 event = 2 lines), 2/8 bars, 4/8 training
                if kind == 0:
                    where, cat, msg, echo = WARNINGS[rng.randrange(len(WARNINGS))]
                    block.append(f"{pre}{where}: {cat}: {msg}")
                    block.append(pre + echo)
                elif kind <= 2:
                    block.append(pre + _bar(rng, step))
                else:
                    tpl = TRAINING[rng.randrange(len(TRAINING))]
                    block.append(pre + tpl.format(loss=2.0 - step * 1e-7, g=rng.random(), e=step / 1e6, s=step % 60,
                                                  ms=step % 1000, r=r, step=step))
            if not failed and written >= fail_at:
                block += [f"worker-1: [rank13]: {ln}" for ln in failure]
                block += [f"worker-{r // 8}: [rank{r}]: AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'"
                          for r in range(RANKS)]
                failed = True
            data = ("\n".join(block) + "\n").encode()
            fh.write(data)
            written += len(data)


def _cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_once(path: Path) -> "tuple[float, float, int, str]":
    """(wall s, CPU s, peak RSS bytes, primary diagnosis) of the real CLI in a fresh process."""
    t0, c0 = time.perf_counter(), _cpu()
    p = subprocess.run([sys.executable, "-c",
                        "import resource, sys; from dsdoctor.cli import main; rc = main(sys.argv[1:]); "
                        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr); sys.exit(rc)",
                        "explain", "-f", "json", str(path)], capture_output=True, text=True)
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    rss_kb = int(p.stderr.strip().splitlines()[-1])
    primary = json.loads(p.stdout)["diagnoses"][0]["name"]
    return wall, cpu, rss_kb * 1024, primary


def grep_once(path: Path, needles: Path) -> "tuple[float, float, int]":
    """``grep -F -c -f needles`` over the file (C locale): the floor for a literal scan of these bytes."""
    t0, c0 = time.perf_counter(), _cpu()
    p = subprocess.run(["grep", "-F", "-c", "-f", str(needles), str(path)], capture_output=True, text=True,
                       env={**os.environ, "LC_ALL": "C"})
    return time.perf_counter() - t0, _cpu() - c0, int(p.stdout.strip() or 0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--size-mb", type=int, default=300, help="log size in MB (10^6 bytes)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep", help="write the log here (and reuse it if it exists)")
    a = ap.parse_args()
    size = a.size_mb * 10**6
    sys.path.insert(0, str(REPO / "src"))
    from dsdoctor.explain.match import prefilter_needles
    from dsdoctor.explain.prefilter import ENGINE

    with tempfile.TemporaryDirectory() as d:
        path = Path(a.keep) if a.keep else Path(d) / "big.log"
        if not (path.exists() and path.stat().st_size >= size):
            t0 = time.perf_counter()
            generate(path, size)
            print(f"generated {path.stat().st_size / 1e6:.0f} MB, {RANKS} ranks in {time.perf_counter() - t0:.1f}s")
        needles = Path(d) / "needles.txt"
        needles.write_bytes(b"\n".join(prefilter_needles()) + b"\n")
        mb = path.stat().st_size / 1e6
        walls, cpus, rss, greps, gcpus = [], [], [], [], []
        for i in range(a.runs):
            wall, cpu, peak, primary = run_once(path)
            gwall, gcpu, glines = grep_once(path, needles)
            walls.append(wall)
            cpus.append(cpu)
            rss.append(peak)
            greps.append(gwall)
            gcpus.append(gcpu)
            print(f"run {i + 1}: explain {wall:.2f}s ({cpu:.2f}s CPU) {mb / wall:.0f} MB/s peak RSS {peak / 2**20:.1f} MiB "
                  f"primary={primary} | grep -F {gwall:.2f}s ({gcpu:.2f}s CPU) {mb / gwall:.0f} MB/s ({glines} lines)")
        med, gmed = statistics.median(walls), statistics.median(greps)
        print(json.dumps({"bytes": int(mb * 1e6), "ranks": RANKS, "median_s": round(med, 2),
                          "mb_per_s": round(mb / med, 1), "mb_per_cpu_s": round(mb / statistics.median(cpus), 1),
                          "peak_rss_mib": round(max(rss) / 2**20, 1), "grep_f_median_s": round(gmed, 2),
                          "grep_f_mb_per_s": round(mb / gmed, 1), "grep_f_mb_per_cpu_s": round(mb / statistics.median(gcpus), 1),
                          "needles": len(prefilter_needles()), "engine": ENGINE, "python": sys.version.split()[0],
                          "machine": platform.machine(), "cpus": os.cpu_count(), "load_1m": round(os.getloadavg()[0], 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
