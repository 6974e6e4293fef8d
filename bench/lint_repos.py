"""Benchmark: ``dsdoctor lint .`` in the root of real repositories, as a user runs it, scored by hand-read verdicts.

Each subdirectory of ``REPOS_DIR`` is one repository exported at a fixed commit (``export-snapshot.sh`` records
``snapshot <sha>`` as its one commit message; the directory is named after the repository). dsdoctor runs in its
root (``dsdoctor lint . --format json --exit-zero``); per repository the script reports whether it crashed (exit
status 2, no JSON or a ``lint-analysis-failed`` finding), the error + warning findings, how many of them have a
verdict in ``bench/lint_repos_verdicts.tsv`` (repository, commit, rule, file:line, verdict, why), the precision
over those read (``true`` / read; ``debatable`` counts as false), the findings not yet read, verdicts whose finding
is no longer reported (gone), the wall time and the peak memory (max RSS of the dsdoctor process).

    .venv/bin/python bench/lint_repos.py /tmp/repos [--dsdoctor PATH] [--json] [-v]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

REPO = Path(__file__).resolve().parents[1]
VERDICTS = REPO / "bench" / "lint_repos_verdicts.tsv"
SEVERITIES = ("error", "warning")


Verdicts = Dict[Tuple[str, str], Tuple[str, str, str]]  # (rule, file:line) -> (verdict, commit, why)


def read_verdicts(path: Path = VERDICTS) -> Dict[str, Dict[str, Verdicts]]:
    """repository name (an export's directory) -> owner/name -> its verdicts: repositories of one name from several
    owners (three GEMs) are told apart by the commits their verdicts were read at."""
    out: Dict[str, Dict[str, Verdicts]] = {}
    with open(path, newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            name = row["repository"].rsplit("/", 1)[-1]
            out.setdefault(name, {}).setdefault(row["repository"], {})[(row["rule"], row["file:line"])] = (
                row["verdict"], row["commit"], row["why"])
    return out


def for_export(by_repo: Dict[str, Verdicts], commit: str) -> Verdicts:
    """The verdicts of the repository (of those of the export's name) read at the export's ``commit``, all of them
    (a verdict read at a re-export's commit too); every repository's where none was read at that commit
    (``verdict_commits_differ`` says so)."""
    mine = [v for v in by_repo.values() if any(c == commit for (_, c, _) in v.values())] or list(by_repo.values())
    return {k: x for v in mine for k, x in v.items()}


def commit_of(root: Path) -> str:
    """The upstream commit an exported repository holds (from ``snapshot <sha>``), else its HEAD."""
    try:
        msg = subprocess.run(["git", "-C", str(root), "log", "-1", "--format=%s"], capture_output=True, text=True,
                             timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""
    return msg.split()[1] if msg.startswith("snapshot ") and len(msg.split()) > 1 else msg


def run_lint(root: Path, dsdoctor: List[str]) -> Tuple[int, Optional[Dict[str, Any]], float, float, float]:
    """(exit status, JSON report or None, wall seconds, CPU seconds, peak MB) of ``dsdoctor lint .`` in ``root``
    (CPU time: what the run costs on a machine shared with other work, where wall time mostly measures the wait)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        p = subprocess.Popen([*dsdoctor, "lint", ".", "--format", "json", "--exit-zero"], cwd=root, stdout=out,
                             stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        secs = time.monotonic() - t0
        out.seek(0)
        try:
            report: Optional[Dict[str, Any]] = json.loads(out.read().decode("utf-8", "replace"))
        except ValueError:
            report = None
    return p.returncode, report, secs, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def score(name: str, root: Path, dsdoctor: List[str], verdicts: Verdicts, verbose: bool = False) -> Dict[str, Any]:
    rc, report, secs, cpu, mb = run_lint(root, dsdoctor)
    findings = report["findings"] if report else []
    failed = [f for f in findings if f["name"] == "lint-analysis-failed"]
    shown = [f for f in findings if f["severity"] in SEVERITIES and f["name"] != "lint-analysis-failed"]
    keys = [(f["name"], f"{f['path']}:{f['line']}") for f in shown]
    read = [verdicts[k][0] for k in keys if k in verdicts]
    unread = [k for k in keys if k not in verdicts]
    if verbose:
        for k in unread:
            print(f"  unread {name} {k[0]} {k[1]}", file=sys.stderr)
        for k in keys:
            if k in verdicts and verdicts[k][0] != "true":
                print(f"  {verdicts[k][0]} {name} {k[0]} {k[1]}", file=sys.stderr)
    true = sum(v == "true" for v in read)
    commit = commit_of(root)
    stale = sorted({c for (_, c, _) in verdicts.values()} - {commit}) if verdicts else []
    return {"repository": name, "commit": commit, "crash": rc not in (0, 1) or report is None or bool(failed),
            "files": len(report["facts"].get("files", [])) if report else 0, "errors_warnings": len(shown),
            "read": len(read), "true": true, "debatable": sum(v == "debatable" for v in read),
            "precision": true / len(read) if read else None, "unread": len(unread),
            "gone": len(set(verdicts) - set(keys)), "verdict_commits_differ": stale,
            "seconds": round(secs, 1), "cpu_seconds": round(cpu, 1), "peak_mb": round(mb)}


def table(rows: List[Dict[str, Any]]) -> str:
    head = ("| repository | commit | files | crash | errors+warnings | read | true | debatable | precision | unread "
            "| gone | wall s | CPU s | peak MB |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
    lines = []
    for r in rows:
        prec = "-" if r["precision"] is None else f"{100 * r['precision']:.0f}%"
        lines.append(f"| {r['repository']} | {r['commit'][:8]} | {r['files']} | {'yes' if r['crash'] else 'no'} | "
                     f"{r['errors_warnings']} | {r['read']} | {r['true']} | {r['debatable']} | {prec} | {r['unread']} | "
                     f"{r['gone']} | {r['seconds']} | {r['cpu_seconds']} | {r['peak_mb']} |")
    read = sum(r["read"] for r in rows)
    true = sum(r["true"] for r in rows)
    total = f"{100 * true / read:.0f}%" if read else "-"
    lines.append(f"| **all** | | {sum(r['files'] for r in rows)} | {sum(r['crash'] for r in rows)} | "
                 f"{sum(r['errors_warnings'] for r in rows)} | {read} | {true} | {sum(r['debatable'] for r in rows)} | "
                 f"{total} | {sum(r['unread'] for r in rows)} | {sum(r['gone'] for r in rows)} | "
                 f"{round(sum(r['seconds'] for r in rows), 1)} | {round(sum(r['cpu_seconds'] for r in rows), 1)} | "
                 f"{max((r['peak_mb'] for r in rows), default=0)} |")
    return head + "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("repos", type=Path, help="directory holding one exported repository per subdirectory")
    ap.add_argument("--dsdoctor", help="dsdoctor executable (default: this interpreter's -m dsdoctor)")
    ap.add_argument("--verdicts", type=Path, default=VERDICTS)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true", help="list the findings not yet read, and those read as not true (stderr)")
    args = ap.parse_args(argv)
    cmd = [args.dsdoctor] if args.dsdoctor else [sys.executable, "-m", "dsdoctor"]
    verdicts = read_verdicts(args.verdicts)
    rows = [score(d.name, d, cmd, for_export(verdicts.get(d.name, {}), commit_of(d)), args.verbose)
            for d in sorted(args.repos.iterdir()) if d.is_dir()]
    print(json.dumps(rows, indent=2) if args.json else table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
