"""Benchmark: `dsdoctor lint` on Python training scripts (cold processes, medians).

Cases: the fixture scripts (tests/cases/lint-scripts, libcst parse + rules), one 20,000-line script (the
adversarial size), and 200 ordinary .py files that mention nothing a script rule reads (only the fast
ast syntax check runs, libcst is not imported).

    .venv/bin/python bench/script_lint_time.py --runs 5

Results are recorded in docs/performance.md.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import List

REPO = Path(__file__).resolve().parents[1]


def sample(args: List[str], runs: int) -> "tuple[float, float]":
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "dsdoctor", "lint", *args, "--target", "transformers==4.46.3"],
                       capture_output=True, check=False)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    runs = ap.parse_args().runs
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        fx = root / "fixtures"
        shutil.copytree(REPO / "tests" / "cases" / "lint-scripts", fx)
        big = root / "big"
        big.mkdir()
        lines = ["import deepspeed", "from transformers import AutoModelForCausalLM"]
        lines += [f"x{i} = {i}" for i in range(20000)]
        lines.append("m = AutoModelForCausalLM.from_pretrained('m', device_map='auto')")
        (big / "train.py").write_text("\n".join(lines) + "\n")
        plain = root / "plain"
        plain.mkdir()
        for i in range(200):
            (plain / f"m{i}.py").write_text("".join(f"def f{j}(x):\n    return x + {j}\n" for j in range(50)))
        empty = root / "empty"
        empty.mkdir()
        (empty / "e.py").write_text("x = 1\n")
        n_fx = len(list(fx.rglob("*.py")))
        for label, target in (("one trivial .py (process start)", empty), (f"{n_fx} fixture scripts", fx),
                              ("one 20,000-line script", big), ("200 ordinary .py files (100 lines each)", plain)):
            med, low = sample([str(target)], runs)
            print(f"| {label} | {med:.2f} / {low:.2f} s |")


if __name__ == "__main__":
    main()
