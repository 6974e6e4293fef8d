"""Benchmark: are the library exceptions that no cause names attributed to their library and function?

Over the corpus cases (``../shared/corpus/logs/*.json``) that ``dsdoctor explain FILE --format json`` answers
``unknown`` it counts:

- **with a library exception**: the unknown's failing line is an exception line (``explain.failure``'s
  ``exception`` kind), or the innermost traceback frame the log shows (Python's own skipped) is a library's
  (``explain.raiser.library``: site-packages, dist-packages, a library's source checkout);
- **attributed**: the diagnosis names the package and the function that raised (the JSON's ``raised_by`` object
  with ``package`` and ``function``/``functions``; before it existed, a summary ``Raised by <pkg>'s ...`` from the
  message index); **package only**: ``raised_by`` names the package (and module) but not the function (a log cut
  inside the last frame's line, an exception class path with no frames): counted apart, not as attributed; an
  attribution of a traceback cut before its exception line (the last frame the log shows) is counted apart too;
- the unattributed ones, ids only; of them, those whose log shows **no frame** (a pasted exception line alone: who
  raised it cannot be read from the log, only from the message index or the exception's class, when they say it),
  and those whose log shows **no exception line** (a traceback cut before it, counted for its innermost library
  frame: what raised, and where, is in the part the log lacks).

Right or wrong is judged by hand (the corpus has no label for it): ``--show`` prints, per dev case, the
attribution next to the failing line, for that check. ``--holdout FILE`` (ids, one a line or space separated)
reports those cases as a separate aggregate and never lists or shows them.

Each case runs the CLI (``dsdoctor explain FILE --format json``, the log written to a file), as a user does;
``--in-process`` renders the same JSON with ``dsdoctor.explain.diagnose_log`` (fast, for iterating).

    .venv/bin/python bench/attribution.py [--corpus DIR] [--holdout FILE] [--in-process] [--show] [--json]

The corpus is found as ``--corpus``, else ``$DSDOCTOR_CORPUS`` (root or ``logs/``), else ``../shared/corpus``;
when absent it says so and exits 0 (a measurement, not a gate).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Set

REPO = Path(__file__).resolve().parents[1]
_FRAME = re.compile(r'File "([^"\n]{1,400})", line \d{1,7}, in ')
_OLD = re.compile(r"^Raised by \S+'s ")  # the summary of an index attribution before ``raised_by`` existed


def default_corpus() -> Path:
    """``$DSDOCTOR_CORPUS`` (root or logs/), else ``<repo>/../shared/corpus``; its ``logs/``."""
    env = os.environ.get("DSDOCTOR_CORPUS")
    base = Path(env) if env else REPO.parent / "shared" / "corpus"
    return base / "logs" if (base / "logs").is_dir() else base


def explain_json(log: str, name: str, in_process: bool) -> Dict[str, Any]:
    """The primary diagnosis of ``dsdoctor explain`` on ``log`` (as JSON)."""
    if in_process:
        from dsdoctor.explain import diagnose_log
        from dsdoctor.render.explain import diagnosis_json

        return diagnosis_json(diagnose_log(log, source=name).findings[0])
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_bytes(log.encode("utf-8", "surrogateescape"))
        p = subprocess.run([sys.executable, "-m", "dsdoctor", "explain", str(path), "--format", "json"],
                           capture_output=True, text=True, timeout=120)
    return dict(json.loads(p.stdout)["diagnoses"][0])


def library_exception(d: Dict[str, Any], log: str) -> bool:
    """The unknown shows a library exception: its failing line is an exception line, or a frame is a library's."""
    if _exception_line(d):
        return True
    from dsdoctor.explain import raiser as RS

    frames = [p for p in _FRAME.findall(log) if not RS.python_own(p)]
    return bool(frames) and RS.library(frames[-1]) is not None  # the innermost frame shown is a library's


def _exception_line(d: Dict[str, Any]) -> bool:
    """The unknown's failing line is an exception line (not a traceback cut before it)."""
    from dsdoctor.explain import failure as FM

    return bool(d.get("evidence")) and FM.kind(d["evidence"][0]["text"].strip()) == FM.EXCEPTION


def attributed(d: Dict[str, Any]) -> str:
    """What the diagnosis attributes the failure to ("" when nothing): ``package function``."""
    rb = d.get("raised_by")
    if isinstance(rb, dict):
        if rb.get("package") and (rb.get("function") or rb.get("functions")):
            return f"{rb['package']} {rb.get('module', '')} {rb.get('function') or '|'.join(rb['functions'])}".strip()
        return ""
    return d["summary"][len("Raised by "):].split(":")[0] if _OLD.match(d.get("summary", "")) else ""


def package_only(d: Dict[str, Any]) -> bool:
    """``raised_by`` names the package but not the function."""
    rb = d.get("raised_by")
    return isinstance(rb, dict) and bool(rb.get("package")) and not attributed(d)


def measure(corpus: Path, holdout: Set[str], in_process: bool, show: bool) -> Dict[str, Any]:
    """Per split (dev / held-out): unknowns, those with a library exception, attributed; dev's unattributed ids."""
    out: Dict[str, Dict[str, Any]] = {s: {"cases": 0, "unknown": 0, "library_exception": 0, "attributed": 0, "of_them_cut": 0, "package_only": 0,
                                          "unattributed": [], "no_frame": 0, "no_exception_line": 0}
           for s in ("dev", "held-out")}
    for path in sorted(corpus.glob("*.json")):
        cid = path.stem
        split = "held-out" if cid in holdout else "dev"
        case = json.loads(path.read_text(encoding="utf-8"))
        d = explain_json(str(case["log"]), cid + ".log", in_process)
        s = out[split]
        s["cases"] += 1
        if d["name"] != "unknown":
            continue
        s["unknown"] += 1
        if not library_exception(d, str(case["log"])):
            continue
        s["library_exception"] += 1
        who = attributed(d)
        if who:
            s["attributed"] += 1
            s["of_them_cut"] += bool((d.get("raised_by") or {}).get("cut"))
        else:
            s["package_only"] += package_only(d)
            s["unattributed"].append(cid)
            s["no_frame"] += not _FRAME.search(str(case["log"]))
            s["no_exception_line"] += not _exception_line(d)
        if show and split == "dev":
            line = d["evidence"][0]["text"][:160] if d.get("evidence") else ""
            print(f"{cid}: {who or '-'}\n    {line}\n    {json.dumps(d.get('raised_by'))[:300]}", file=sys.stderr)
    out["held-out"]["unattributed"] = len(out["held-out"]["unattributed"])  # aggregates only
    return out


def main(argv: Optional[List[str]] = None) -> int:
    """Print the measurement (text, or ``--json``)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=None)
    ap.add_argument("--holdout", type=Path, default=None, help="ids reported only as an aggregate")
    ap.add_argument("--in-process", action="store_true", help="diagnose_log in-process instead of the CLI")
    ap.add_argument("--show", action="store_true", help="print each dev attribution (stderr), to check it by hand")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    corpus = a.corpus or default_corpus()
    if not corpus.is_dir():
        print(f"attribution: no corpus at {corpus} (set $DSDOCTOR_CORPUS); skipped")
        return 0
    hold = set(a.holdout.read_text(encoding="utf-8").split()) if a.holdout else set()
    res = measure(corpus, hold, a.in_process, a.show)
    if a.json:
        print(json.dumps(res, indent=2))
        return 0
    for split, s in res.items():
        if not s["cases"]:
            continue
        print(f"{split}: {s['cases']} cases, {s['unknown']} unknown, {s['library_exception']} with a library exception, "
              f"{s['attributed']} attributed ({s['of_them_cut']} of them a cut traceback's last frame shown; "
              f"+{s['package_only']} to the package only)")
        if isinstance(s["unattributed"], list):
            ids = " ".join(s["unattributed"])
        else:
            ids = str(s["unattributed"])
        print(f"  unattributed: {ids} ({s['no_frame']} with no frame in the log, {s['no_exception_line']} with no "
              "exception line)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
