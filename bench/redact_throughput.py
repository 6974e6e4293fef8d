"""Benchmark: the secret redactor (src/dsdoctor/redact.py) on a 38 MiB training log.

The log is explain_throughput's 64-rank ZeRO-3 log (pdsh/torch rank prefixes, loss dicts, log_dist lines, tqdm
``\\r`` bars, ANSI warnings, a CUDA-mismatch traceback) with a secret-bearing line every 2,000 lines (an HF token,
``--password``, a URL with credentials, a Bearer header, an environment secret's value), so the slow path runs
too. Measured in-process, page cache warm, with a redactor built from an environment holding 6 secrets:

- ``redact(text)`` on the whole log (how ``report`` redacts its document);
- the same text written line by line through :class:`RedactingStream` (how every command's output goes);
- the whole-text regex alone (``pattern.sub``), the design the trigger scan replaces.

    .venv/bin/python bench/redact_throughput.py [--size-mb 38] [--runs 3]

Results are recorded in docs/performance.md ("## redaction").
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from explain_throughput import generate  # noqa: E402

from dsdoctor.redact import MASK, Redactor  # noqa: E402
from dsdoctor.redact_streams import RedactingStream  # noqa: E402

ENV = {
    "HF_TOKEN": "hf_QzX7wYp2LmN4kR8sT1vB6cD9fG3hJ5aE0u",
    "WANDB_API_KEY": "4f9d2c7a1e8b3f6d0a5c9e2b7f1d4a8c3e6b9f0d",
    "AWS_SECRET_ACCESS_KEY": "wJ8rXuTnF2Emk7MDeNG/bPxRfiCYq3Kz9LaV1oHs",
    "AWS_ACCESS_KEY_ID": "AKIAZ7Q3XRW5MP2LKD8N",
    "DB_PASSWORD": 'pa"ss\\word!',
    "HTTPS_PROXY": "http://proxy:Pr0xyPassw0rd@proxy:3128",
}
SECRET_LINES = [
    "worker-0: [rank0]: login with hf_QzX7wYp2LmN4kR8sT1vB6cD9fG3hJ5aE0u",
    "worker-1: [rank9]: + python train.py --db_password hunter2hunter2 --bf16",
    "worker-2: [rank17]: pip install --index-url https://u:S3cretPw@pypi.example.com/simple x",
    "worker-3: [rank25]: curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123' https://x",
    "worker-4: [rank33]: creds 4f9d2c7a1e8b3f6d0a5c9e2b7f1d4a8c3e6b9f0d",
]


def plant(text: str, every: int = 2000) -> "tuple[str, int]":
    lines = text.split("\n")
    n = 0
    for i in range(every, len(lines), every):
        lines[i] = SECRET_LINES[n % len(SECRET_LINES)]
        n += 1
    return "\n".join(lines), n


def timed(fn: "object", runs: int) -> float:
    walls = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        walls.append(time.perf_counter() - t0)
    return statistics.median(walls)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--size-mb", type=int, default=38)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--skip-regex", action="store_true", help="do not time the whole-text regex (slow)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "log"
        generate(path, a.size_mb << 20)
        text, planted = plant(path.read_bytes().decode("utf-8", "replace"))
    mb = len(text.encode()) / 1e6
    t0 = time.perf_counter()
    r = Redactor(env=ENV)
    build_ms = (time.perf_counter() - t0) * 1e3
    out = r.redact(text)
    assert out.count(MASK) >= planted and not any(v in out for v in ("hunter2hunter2", "S3cretPw", ENV["HF_TOKEN"]))
    whole = timed(lambda: r.redact(text), a.runs)
    lines = text.splitlines(keepends=True)

    def stream() -> None:
        s = RedactingStream(io.StringIO(), lambda: r)
        for ln in lines:
            s.write(ln)
        s.flush()

    per_line = timed(stream, a.runs)
    result = {"bytes": int(mb * 1e6), "lines": len(lines), "secret_lines": planted, "build_ms": round(build_ms, 1),
              "whole_s": round(whole, 3), "whole_mb_s": round(mb / whole, 1),
              "stream_s": round(per_line, 3), "stream_mb_s": round(mb / per_line, 1)}
    if not a.skip_regex:
        regex = timed(lambda: r.pattern.sub(r._sub, text), 1)
        result.update(regex_s=round(regex, 2), regex_mb_s=round(mb / regex, 1))
    result.update(python=sys.version.split()[0], cpus=os.cpu_count())
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
