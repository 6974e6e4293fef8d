"""Multi-rank fixtures: real single-process fixture logs interleaved the way launchers mix rank output.

Each output interleaves N copies of a real log (one per rank) line by line in a seeded random order, with
the prefix a real launcher adds (torch ``[rankN]:``, pdsh ``worker-N:``, torchrun ``--tee`` ``[defaultN]:``),
plus ordinary training lines from the healthy ranks. Usage: .venv/bin/python tests/cases/explain/interleave.py
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import List

HERE = Path(__file__).resolve().parent

# name: (source fixture, prefix format, ranks, failing ranks, line ending, expect)
CASES = {
    "multirank-rank-prefix-cuda-mismatch": ("cuda-mismatch-ds0.19.7", "[rank{r}]: ", 8, (0, 5), "\n",
                                            "cuda-version-mismatch"),
    "multirank-pdsh-ninja-0.15.4": ("ninja-missing-ds0.15.4", "worker-{r}: ", 4, (1, 2, 3), "\n", "ninja-missing"),
    "multirank-torchrun-tee-zero3-tf5": ("zero3-device-map-tf5.24.0", "[default{r}]:", 4, (0, 1, 2, 3), "\r\n",
                                         "zero3-device-map-conflict"),
    "multirank-pdsh-rank-batch": ("batch-size-mismatch", "worker-{r}: ", 2, (0, 1), "\n", "batch-size-mismatch"),
}


def build(src: str, prefix: str, ranks: int, failing: tuple, eol: str, seed: int) -> str:
    rng = random.Random(seed)
    lines = (HERE / f"{src}.log").read_text().splitlines()
    queues: List[List[str]] = []
    for r in range(ranks):
        body = [f"\x1b[32m[INFO]\x1b[0m rank {r}: step {i} loss {2.0 - i / 100:.3f}" for i in range(20)]
        if r in failing:
            body = body[:5] + lines
        queues.append([prefix.format(r=r) + ln for ln in body])
    out: List[str] = []
    while any(queues):
        q = rng.choice([q for q in queues if q])
        out.append(q.pop(0))
    return eol.join(out) + eol


def main() -> None:
    for i, (name, (src, prefix, ranks, failing, eol, expect)) in enumerate(sorted(CASES.items())):
        (HERE / f"{name}.log").write_bytes(build(src, prefix, ranks, failing, eol, seed=i).encode())
        (HERE / f"{name}.toml").write_text(
            f'description = "{ranks} ranks, prefix {prefix.strip()!s}, ranks {list(failing)} fail as in {src}.log"\n'
            f'produced = "tests/cases/explain/interleave.py: {src}.log (real) interleaved, seed {i}"\n\n'
            f'[expect]\nprimary = "{expect}"\n')


if __name__ == "__main__":
    main()
