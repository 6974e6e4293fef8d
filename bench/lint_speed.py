"""Benchmark: whole-repository ``dsdoctor lint`` speed (files/s) and how its time scales with files (issue 18).

CPU seconds of each ``dsdoctor lint . --format json --exit-zero`` process (user + system, its children included:
on a machine shared with other work, wall time mostly measures the wait), never wall time alone:

- ``repos DIR...``: every subdirectory of each DIR (one exported repository each) as a user runs it in its root;
  per repository the files linted (``facts.files``), CPU s and files/s, and over all of them the total files/s
  and a least-squares line CPU s = fixed + files / marginal rate;
- ``synthetic``: a generated project of N Python files (training scripts, model modules, plain helpers, written
  here), for N = 100, 300, 1000, plus ``dsdoctor check`` (its project lint included) in the 1,000-file one.

``--reference REV`` also runs the sources of git revision REV (``git archive`` into a temporary directory, run
with this interpreter), alternating with the current tree run by run, and reports the ratio reference / current
(ratios mean more than absolute seconds on a noisy machine). ``--compare`` asserts that both give the same JSON
report (no decision changed). Every sample runs from bytecode (a private ``PYTHONPYCACHEPREFIX``, one warm-up),
as an installed package runs.

    .venv/bin/python bench/lint_speed.py repos /tmp/repos /tmp/repos2 [--reference main] [--compare]
    .venv/bin/python bench/lint_speed.py synthetic [--sizes 100 300 1000] [--reference main]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

REPO = Path(__file__).resolve().parents[1]
Run = Tuple[float, float, bytes]  # CPU s, wall s, stdout

TRAIN = '''"""Fine-tune a small causal LM, example {i}."""
import argparse

from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

from pkg.m{g}.model_{i} import Head{i}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="gpt2")
    ap.add_argument("--deepspeed", default=None)
    args = ap.parse_args()
    tok = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForCausalLM.from_pretrained(args.model)
    model.head = Head{i}(8)
    targs = TrainingArguments(output_dir="out{i}", deepspeed=args.deepspeed, per_device_train_batch_size=2)
    trainer = Trainer(model=model, args=targs, tokenizer=tok)
    trainer.train()
    trainer.save_model("out{i}/final")


if __name__ == "__main__":
    main()
'''
MODEL = '''"""A small head module, example {i}."""
import torch


class Head{i}(torch.nn.Module):
    def __init__(self, width):
        super().__init__()
        self.proj = torch.nn.Linear(width, width)

    def forward(self, x):
        return self.proj(x).relu()

    def export(self, path):
        torch.save(self.state_dict(), path)
'''
HELPER = '''"""Plain helpers, example {i}."""
import json
import os


def read_rows(path):
    with open(path) as fh:
        return [json.loads(line) for line in fh if line.strip()]


def out_dir(name, base="runs"):
    path = os.path.join(base, f"{{name}}-{i}")
    os.makedirs(path, exist_ok=True)
    return path
'''
ADAPTER = """
class Adapter{j}:
    def load(self, path):
        return AutoModelForCausalLM.from_pretrained(path, low_cpu_mem_usage=True)

"""
ADAPTER_TRAIN = '''"""Train with the adapter a name picks."""
import argparse

from transformers import Trainer, TrainingArguments

from pkg.adapters import ADAPTERS


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--adapter", default="a0")
    ap.add_argument("--deepspeed", default=None)
    args = ap.parse_args()
    targs = TrainingArguments(output_dir="out", deepspeed=args.deepspeed)
    model = ADAPTERS[args.adapter]().load("gpt2")
    Trainer(model=model, args=targs).train()


if __name__ == "__main__":
    main()
'''
CONFIG = {"train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 1,
          "bf16": {"enabled": True}, "zero_optimization": {"stage": 3}}


def _adapters(pkg: Path, k: int) -> None:
    """A module of ``k`` classes, one finding each (FastChat's ``model_adapter.py``: one adapter class per model),
    that a launched script imports and indexes by an option: whether each finding is gated reads where its class
    is used, which must not cost a walk of the launch's files per class (quadratic in ``k`` until 2026-12-07)."""
    body = "".join(ADAPTER.format(j=j) for j in range(k))
    table = ", ".join(f'"a{j}": Adapter{j}' for j in range(k))
    (pkg / "adapters.py").write_text('"""One adapter class per model family."""\nfrom transformers import '
                                     f"AutoModelForCausalLM\n\n{body}\nADAPTERS = {{{table}}}\n")
    (pkg / "adapter_train.py").write_text(ADAPTER_TRAIN)


def make_project(root: Path, n: int) -> None:
    """``n`` Python files in ``root/pkg/m<group>/`` (a third each: training scripts, model modules, helpers; at most
    two levels deep, as ``check`` reads them), a ZeRO-3 ds_config, a launch script for the first script, and
    :func:`_adapters` (two files more, ``n // 10`` classes) launched by it too."""
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "synthetic"\nversion = "0"\n')
    (root / "ds_config.json").write_text(json.dumps(CONFIG, indent=2) + "\n")
    (root / "run.sh").write_text("deepspeed --num_gpus 8 pkg/m0/train_0.py --deepspeed ds_config.json\n"
                                 "deepspeed --num_gpus 8 pkg/adapter_train.py --deepspeed ds_config.json\n")
    _adapters(root / "pkg", max(10, n // 10))
    for i in range(n):
        g = i // 3 // 50
        d = root / "pkg" / f"m{g}"
        d.mkdir(exist_ok=True)
        (d / "__init__.py").touch()
        kind, k = ("train", TRAIN), i // 3
        if i % 3 == 1:
            kind = ("model", MODEL)
        elif i % 3 == 2:
            kind = ("helper", HELPER)
        (d / f"{kind[0]}_{k}.py").write_text(kind[1].format(i=k, g=g))
    (root / "pkg" / "__init__.py").touch()


def _env(pycache: str, src: Optional[Path]) -> Dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = pycache
    if src is not None:
        env["PYTHONPATH"] = str(src)
    return env


def run(cmd: Sequence[str], cwd: Path, env: Dict[str, str]) -> Run:
    """(CPU s of the process and its children, wall s, stdout) of one run."""
    import time

    with tempfile.TemporaryFile() as out:
        t0 = time.monotonic()
        p = subprocess.Popen(list(cmd), cwd=cwd, stdout=out, stderr=subprocess.DEVNULL, env=env)
        _, _, usage = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
        out.seek(0)
        return usage.ru_utime + usage.ru_stime, wall, out.read()


def reference_src(rev: str, into: Path) -> Path:
    """The ``src`` tree of git revision ``rev`` of this repository, extracted under ``into``."""
    data = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", rev, "src"], capture_output=True,
                          check=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into)  # our own repository's sources
    return into / "src"


class Runner:
    """Runs ``dsdoctor`` (this tree, and the reference revision when given), alternating, from bytecode."""

    def __init__(self, tmp: Path, reference: Optional[str]) -> None:
        self.cur = _env(str(tmp / "pyc-cur"), REPO / "src")
        self.ref = _env(str(tmp / "pyc-ref"), reference_src(reference, tmp / "ref")) if reference else None

    def lint(self, cwd: Path, *extra: str) -> Tuple[Run, Optional[Run]]:
        cmd = [sys.executable, "-m", "dsdoctor", *(extra or ("lint", ".", "--format", "json", "--exit-zero"))]
        ref = run(cmd, cwd, self.ref) if self.ref is not None else None
        return run(cmd, cwd, self.cur), ref

    def warm(self, cwd: Path) -> None:
        self.lint(cwd)


def _files(out: bytes) -> int:
    try:
        facts = json.loads(out.decode("utf-8", "replace"))["facts"]
        return len(facts.get("files") or (facts.get("lint") or {}).get("files") or [])  # lint / check
    except (ValueError, KeyError, TypeError):
        return 0


def fit(points: List[Tuple[int, float]]) -> Tuple[float, float]:
    """Least squares CPU s = a + b * files: (fixed s, marginal files/s = 1 / b)."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points) or 1.0
    b = sum((x - mx) * (y - my) for x, y in points) / sxx
    return my - b * mx, (1 / b if b > 0 else float("inf"))


def _row(name: str, files: int, cur: Run, ref: Optional[Run], compare: bool) -> Dict[str, Any]:
    row: Dict[str, Any] = {"name": name, "files": files, "cpu_s": round(cur[0], 2), "wall_s": round(cur[1], 2),
                           "files_per_s": round(files / cur[0], 1) if cur[0] else None}
    if ref is not None:
        row.update(ref_cpu_s=round(ref[0], 2), ratio=round(ref[0] / cur[0], 2) if cur[0] else None)
        if compare:
            row["same_report"] = ref[2] == cur[2]
    return row


def bench_repos(dirs: List[Path], runner: Runner, compare: bool) -> List[Dict[str, Any]]:
    repos = [d for base in dirs for d in sorted(base.iterdir()) if d.is_dir()]
    if repos:
        runner.warm(repos[0])
    rows = []
    for d in repos:
        cur, ref = runner.lint(d)
        rows.append(_row(d.name, _files(cur[2]), cur, ref, compare))
        print(json.dumps(rows[-1]), file=sys.stderr)
    return rows


def bench_synthetic(sizes: List[int], runner: Runner, tmp: Path) -> List[Dict[str, Any]]:
    rows = []
    for n in sizes:
        root = tmp / f"synthetic-{n}"
        make_project(root, n)
        subprocess.run(["git", "init", "-q", str(root)], check=True)  # a project: check lints it
        runner.warm(root)
        cur, ref = runner.lint(root)
        rows.append(_row(f"synthetic {n} .py", _files(cur[2]), cur, ref, True))
        print(json.dumps(rows[-1]), file=sys.stderr)
    root = tmp / f"synthetic-{max(sizes)}"
    cur, ref = runner.lint(root, "check", "--format", "json")
    rows.append(_row(f"check in synthetic {max(sizes)}", _files(cur[2]), cur, ref, False))
    rows[-1]["check"] = True  # the environment checks too: not in the lint fit
    return rows


def table(rows: List[Dict[str, Any]]) -> str:
    ref = any("ratio" in r for r in rows)
    head = "| run | files | CPU s | wall s | files/s |" + (" reference CPU s | ratio | same report |" if ref else "")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in rows:
        line = f"| {r['name']} | {r['files']} | {r['cpu_s']} | {r['wall_s']} | {r['files_per_s']} |"
        if ref:
            line += f" {r.get('ref_cpu_s', '')} | {r.get('ratio', '')} | {r.get('same_report', '')} |"
        lines.append(line)
    return "\n".join(lines)


def summary(rows: List[Dict[str, Any]]) -> str:
    rows = [r for r in rows if r["files"] and not r.get("check")]
    pts = [(r["files"], r["cpu_s"]) for r in rows]
    files, cpu = sum(x for x, _ in pts), sum(y for _, y in pts)
    fixed, marginal = fit(pts) if len(pts) > 1 else (0.0, 0.0)
    out = f"all: {files} files in {cpu:.1f} CPU s = {files / cpu:.0f} files/s; fit: {fixed:.2f} s + files / " \
          f"{marginal:.0f} per s"
    if any("ref_cpu_s" in r for r in rows):
        ref = sum(r.get("ref_cpu_s", 0) for r in rows)
        out += f"; reference: {ref:.1f} CPU s = {files / ref:.0f} files/s, ratio {ref / cpu:.2f}"
    return out


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("repos", "synthetic"))
    ap.add_argument("dirs", nargs="*", type=Path, help="repos: directories holding one repository per subdirectory")
    ap.add_argument("--sizes", nargs="+", type=int, default=[100, 300, 1000])
    ap.add_argument("--reference", help="git revision to compare with (e.g. main)")
    ap.add_argument("--compare", action="store_true", help="repos: check the JSON reports are identical")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        runner = Runner(tmp, args.reference)
        rows = bench_repos(args.dirs, runner, args.compare) if args.what == "repos" else \
            bench_synthetic(args.sizes, runner, tmp)
    print(json.dumps(rows, indent=2) if args.json else table(rows) + "\n\n" + summary(rows))
    return 1 if any(r.get("same_report") is False for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
