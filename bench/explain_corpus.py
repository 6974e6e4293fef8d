"""Benchmark: `dsdoctor explain` on the development corpus of real failure logs.

Each case (``../shared/corpus/logs/*.json``: a ``log`` excerpt and its labelled root ``cause``) is explained
in-process with the library API (``dsdoctor.explain.diagnose_log``). Scored, per the corpus README:

- top-1: the first diagnosis is ``cause`` or one of ``acceptable``; a ``new:X`` cause counts once
  ``bench/corpus_names.toml`` ``[names]`` maps ``"new:X"`` to the finding name dsdoctor gives it;
- wrong advice: a fix (title, commands, reason, forms) containing a case's ``wrong_advice`` item
  (case-insensitive);
- tracebacks: an exception raised by dsdoctor itself (caught and counted, never fatal);
- time per case;
- harm (issue 19): each case is ``right``, an honest ``unknown`` (dsdoctor says it does not know: ``unknown``, or
  ``op-build-failed-cause-not-in-log``), ``missed`` (a failed run answered ``no-failure``) or ``misleading`` (a
  wrong specific cause, or a failure reported for a run that did not fail), by corpus prefix.

``--cli`` runs ``dsdoctor explain FILE --format json`` in a subprocess per case, as a user does (the log written to
a file as bytes); the default calls ``dsdoctor.explain.diagnose_log`` in-process (fast; the tests' gate). The two
must agree (the file reading is the only difference).

    .venv/bin/python bench/explain_corpus.py [--corpus ../shared/corpus/logs] [--json] [--misses]
    .venv/bin/python bench/explain_corpus.py --transform all   # the same logs as other tools show them
    .venv/bin/python bench/explain_corpus.py --cli             # through the CLI, a subprocess per case

``--transform`` rewrites every log the way real logs differ from the pasted excerpt (``TRANSFORMS``): rank, pdsh,
Ray, mpirun --tag-output, kubectl --prefix and docker compose prefixes, CRLF, ANSI colour, a log collector's
timestamp on every line, foreign lines interleaved, a hard wrap; it reports top-1 on the cases the plain log gets right.

The corpus is found as ``--corpus``, else ``$DSDOCTOR_CORPUS`` (the corpus root or its ``logs/``), else
``<repo>/../shared/corpus/logs``. Exits 0 (a measurement, not a gate; tests/test_explain_corpus.py is the gate).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

REPO = Path(__file__).resolve().parents[1]
NAMES = REPO / "bench" / "corpus_names.toml"


def default_corpus() -> Path:
    """Where the corpus logs are: ``$DSDOCTOR_CORPUS`` (root or logs/), else ``<repo>/../shared/corpus/logs``."""
    env = os.environ.get("DSDOCTOR_CORPUS")
    base = Path(env) if env else REPO.parent / "shared" / "corpus"
    return base / "logs" if (base / "logs").is_dir() else base


def load_names(path: Path = NAMES) -> Dict[str, str]:
    """The ``[names]`` table: corpus ``new:X`` label -> dsdoctor finding name."""
    if not path.is_file():
        return {}
    from dsdoctor.settings import _toml  # tomllib, or tomli before Python 3.11

    data = _toml().loads(path.read_text(encoding="utf-8"))
    return {str(k): str(v) for k, v in data.get("names", {}).items()}


@dataclass
class CaseResult:
    case: str
    cause: str  # the label (new:X mapped to dsdoctor's name when the table has it)
    label: str  # the label as written in the corpus
    got: str  # dsdoctor's first diagnosis ("<traceback>" when dsdoctor raised)
    ok: bool
    wrong_advice: List[str] = field(default_factory=list)
    error: str = ""
    seconds: float = 0.0
    all_names: List[str] = field(default_factory=list)
    outcome: str = ""  # right | unknown | missed | misleading (see the module docstring)


HONEST = ("unknown", "op-build-failed-cause-not-in-log")  # dsdoctor saying it does not know
NO_FAILURE = "no-failure"


def outcome(cause: str, got: str, ok: bool) -> str:
    """right, unknown (honest), missed (a failure answered no-failure) or misleading (a wrong specific answer)."""
    if ok:
        return "right"
    if cause == NO_FAILURE:
        return "misleading"  # a failure reported for a run that did not fail
    if got == NO_FAILURE:
        return "missed"
    return "unknown" if got in HONEST else "misleading"


def _fix_text(fix: Any) -> str:
    parts = [fix.title, fix.reason, *fix.commands]
    parts += [f"{k} {v}" for k, v in fix.forms]
    return "\n".join(parts).lower()


_NOISE = ("  3%|\u2588\u258f      | 12/400 [00:03<01:40,  3.9it/s]",
          "/opt/conda/lib/python3.11/site-packages/transformers/trainer.py:3421: FutureWarning: `tokenizer` is deprecated "
          "and will be removed in version 5.0.0.",
          "{'loss': 1.2345, 'grad_norm': 0.5, 'learning_rate': 1e-05, 'epoch': 0.1}")


def _each(prefix: str) -> Callable[[str], str]:
    return lambda s: "\n".join(prefix + ln for ln in s.split("\n"))


def _interleave(s: str) -> str:  # another writer's lines (tqdm on stderr, a logger) between every third line
    out: List[str] = []
    for i, ln in enumerate(s.split("\n")):
        out += [ln, _NOISE[i % 3]] if i % 3 == 2 else [ln]
    return "\n".join(out)


def _wrap(s: str, width: int = 100) -> str:  # a terminal or pastebin that hard-wraps long lines
    return "\n".join("\n".join(ln[i:i + width] for i in range(0, len(ln), width)) or ln for ln in s.split("\n"))


# name -> a rewrite of the whole log (how the same output looks through other launchers, collectors, terminals)
TRANSFORMS: Dict[str, Callable[[str], str]] = {
    "rank": _each("[rank3]: "),
    "pdsh": _each("worker-1: [rank3]: "),
    "ray": _each("(RayWorkerActor pid=4182, ip=10.0.0.5) "),  # a Ray actor's output (OpenRLHF, verl)
    "mpi": _each("[1,3]<stderr>:"),  # OpenMPI's mpirun --tag-output
    "kubectl": _each("[pod/train-0/main] "),  # kubectl logs --prefix
    "compose": _each("trainer-1  | "),  # docker compose's service column
    "crlf": lambda s: s.replace("\n", "\r\n"),
    "ansi": lambda s: "\n".join("\x1b[31m" + ln + "\x1b[0m" if "Error" in ln else ln for ln in s.split("\n")),
    "stamp-logging": _each("2024-05-01 10:00:00,123 - INFO - "),
    "stamp-cri": _each("2024-05-01T10:00:00.123456789Z stderr F "),
    "stamp-actions": _each("2024-05-01T10:00:00.1234567Z "),
    "interleaved": _interleave,
    "wrap100": _wrap,
}
# the rewrites the tests hold every right case through (a hard wrap is measured, not held: a wrap that splits a
# needle is not recognised)
HELD: Tuple[str, ...] = tuple(name for name in TRANSFORMS if name != "wrap100")


def run_case(path: Path, names: Dict[str, str], transform: Optional[Callable[[str], str]] = None) -> CaseResult:
    """Explain one corpus case (its log rewritten by ``transform`` when given) and score it."""
    from dsdoctor.explain import diagnose_log

    case = json.loads(path.read_text(encoding="utf-8"))
    if transform is not None:
        case["log"] = transform(case["log"])
    label = str(case["cause"])
    cause = names.get(label, label)
    ok_names = {cause, *(names.get(a, a) for a in case.get("acceptable") or [])}
    t0 = time.perf_counter()
    try:
        report = diagnose_log(case["log"], source=path.name)
    except Exception:  # a dsdoctor bug: counted, never fatal
        return CaseResult(path.stem, cause, label, "<traceback>", False, error=traceback.format_exc(limit=-3),
                          seconds=time.perf_counter() - t0)
    dt = time.perf_counter() - t0
    got = report.findings[0].name if report.findings else "<none>"
    wrong: List[str] = []
    for item in case.get("wrong_advice") or []:
        needle = str(item).lower()
        if any(needle in _fix_text(fx) for f in report.findings for fx in f.fixes):
            wrong.append(str(item))
    # an unmapped "new:X" stays "new:X": no dsdoctor name equals it, so it counts as a miss
    return CaseResult(path.stem, cause, label, got, got in ok_names, wrong, seconds=dt,
                      all_names=[f.name for f in report.findings], outcome=outcome(cause, got, got in ok_names))


def run_case_cli(path: Path, names: Dict[str, str]) -> CaseResult:
    """Explain one corpus case as a user does: the log in a file, ``dsdoctor explain FILE --format json``."""
    import subprocess
    import tempfile

    case = json.loads(path.read_text(encoding="utf-8"))
    label = str(case["cause"])
    cause = names.get(label, label)
    ok_names = {cause, *(names.get(a, a) for a in case.get("acceptable") or [])}
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / (path.stem + ".log")
        log.write_bytes(str(case["log"]).encode("utf-8"))
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, "-m", "dsdoctor", "explain", str(log), "--format", "json"],
                           capture_output=True, text=True, timeout=120)
        dt = time.perf_counter() - t0
    try:
        doc = json.loads(p.stdout)
        findings = doc["diagnoses"] if "diagnoses" in doc else doc["findings"]
    except (ValueError, KeyError):
        return CaseResult(path.stem, cause, label, "<traceback>", False, error=f"exit {p.returncode}: {p.stderr[-500:]}",
                          seconds=dt, outcome="misleading")
    got = findings[0]["name"] if findings else "<none>"
    texts = ["\n".join([fx.get("title", ""), fx.get("reason", ""), *fx.get("commands", []),
                        *(f"{k} {v}" for k, v in (fx.get("forms") or {}).items())]).lower()
             for f in findings for fx in f.get("fixes", [])]
    wrong = [str(item) for item in case.get("wrong_advice") or [] if any(str(item).lower() in t for t in texts)]
    return CaseResult(path.stem, cause, label, got, got in ok_names, wrong, seconds=dt,
                      all_names=[f["name"] for f in findings], outcome=outcome(cause, got, got in ok_names))


def run(corpus: Path, names: Optional[Dict[str, str]] = None,
        transform: Optional[Callable[[str], str]] = None, cli: bool = False) -> List[CaseResult]:
    """Score every ``*.json`` case under ``corpus`` (sorted by name); ``cli``: through the CLI."""
    table = load_names() if names is None else names
    if cli:
        return [run_case_cli(p, table) for p in sorted(corpus.glob("*.json"))]
    return [run_case(p, table, transform) for p in sorted(corpus.glob("*.json"))]


OUTCOMES = ("right", "unknown", "missed", "misleading")


def by_prefix(results: List[CaseResult]) -> Dict[str, Dict[str, int]]:
    """Per corpus prefix (the case id's letter) and in all: cases, each outcome, and wrong advice."""
    table: Dict[str, Dict[str, int]] = {}
    for r in results:
        for key in (r.case[:1], "all"):
            row = table.setdefault(key, {"cases": 0, **{o: 0 for o in OUTCOMES}, "wrong_advice": 0})
            row["cases"] += 1
            row[r.outcome or outcome(r.cause, r.got, r.ok)] += 1
            row["wrong_advice"] += bool(r.wrong_advice)
    return dict(sorted(table.items(), key=lambda kv: (kv[0] == "all", kv[0])))


def render_prefixes(results: List[CaseResult]) -> str:
    """The harm table: one row per prefix."""
    out = ["prefix  cases  right  unknown  missed  misleading  wrong-advice"]
    for key, row in by_prefix(results).items():
        pct = f"{100.0 * row['right'] / row['cases']:.0f}%" if row["cases"] else "-"
        out.append(f"{key:<6} {row['cases']:>6} {row['right']:>6} {row['unknown']:>8} {row['missed']:>7} "
                   f"{row['misleading']:>11} {row['wrong_advice']:>13}   ({pct} right)")
    return "\n".join(out)


def summary(results: List[CaseResult]) -> Dict[str, Any]:
    """Totals: top-1 (count and %), wrong advice, tracebacks, time per case, confusion pairs."""
    n = len(results)
    ok = sum(r.ok for r in results)
    times = sorted(r.seconds for r in results)
    confusion = Counter((r.cause, r.got) for r in results if not r.ok)
    return {
        "cases": n, "top1": ok, "top1_pct": round(100.0 * ok / n, 1) if n else 0.0,
        "wrong_advice": sum(1 for r in results if r.wrong_advice),
        "tracebacks": sum(1 for r in results if r.error),
        "seconds_total": round(sum(times), 3),
        "ms_per_case_median": round(1000 * times[n // 2], 2) if n else 0.0,
        "ms_per_case_max": round(1000 * times[-1], 2) if n else 0.0,
        "confusion": [{"cause": c, "got": g, "count": k} for (c, g), k in confusion.most_common()],
        "by_prefix": by_prefix(results),
    }


def per_cause(results: List[CaseResult]) -> List[Tuple[str, int, int, str]]:
    """(cause, right, cases, what it got instead) per cause, most cases first."""
    by: Dict[str, List[CaseResult]] = {}
    for r in results:
        by.setdefault(r.cause, []).append(r)
    rows = []
    for cause, rs in by.items():
        wrong = Counter(r.got for r in rs if not r.ok)
        rows.append((cause, sum(r.ok for r in rs), len(rs), ", ".join(f"{g} x{k}" for g, k in wrong.most_common())))
    rows.sort(key=lambda row: (-row[2], row[0]))
    return rows


def render(results: List[CaseResult], misses: bool = False) -> str:
    rows = per_cause(results)
    w = max([len(r[0]) for r in rows] + [5])
    out = [f"{'cause':<{w}}  right/cases  instead"]
    out += [f"{c:<{w}}  {ok:>5}/{n:<5}  {inst}" for c, ok, n, inst in rows]
    s = summary(results)
    if misses:
        out.append("")
        out += [f"miss {r.case}: {r.cause} -> {r.got}" for r in results if not r.ok]
    for r in results:
        if r.wrong_advice:
            out.append(f"wrong advice {r.case}: {r.wrong_advice}")
        if r.error:
            out.append(f"traceback {r.case}:\n{r.error}")
    out.append("")
    out.append(render_prefixes(results))
    out.append("")
    out.append(f"top-1 {s['top1']}/{s['cases']} ({s['top1_pct']}%), wrong advice {s['wrong_advice']}, "
               f"tracebacks {s['tracebacks']}, {s['ms_per_case_median']} ms/case median "
               f"({s['ms_per_case_max']} max, {s['seconds_total']} s total)")
    return "\n".join(out)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=None, help="the corpus logs/ folder (default: %(default)s)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--misses", action="store_true", help="list every missed case")
    ap.add_argument("--transform", choices=[*TRANSFORMS, "all"], help="rewrite the logs (see TRANSFORMS); top-1 kept "
                    "on the cases the plain logs get right")
    ap.add_argument("--cli", action="store_true", help="run `dsdoctor explain FILE --format json` per case (as a user)")
    ap.add_argument("--holdout", type=Path, default=None, help="a file of case ids kept aside (one per line): they "
                    "count in the totals, but no per-case line, confusion pair or per-cause row shows them; their "
                    "aggregate is printed apart")
    args = ap.parse_args(argv)
    corpus: Path = args.corpus or default_corpus()
    if (corpus / "logs").is_dir():
        corpus = corpus / "logs"
    if not corpus.is_dir():
        print(f"no corpus at {corpus} (set --corpus or DSDOCTOR_CORPUS)", file=sys.stderr)
        return 0
    results = run(corpus, cli=args.cli)
    if args.transform:
        plain = {r.case for r in results if r.ok}
        for name in TRANSFORMS if args.transform == "all" else [args.transform]:
            lost = [r for r in run(corpus, transform=TRANSFORMS[name]) if r.case in plain and not r.ok]
            print(f"{name:<14} {len(plain) - len(lost)}/{len(plain)}  " + " ".join(f"{r.case}:{r.got}" for r in lost[:8]))
        return 0
    if args.holdout is not None:
        return _held_out(results, set(args.holdout.read_text().split()), args.json)
    if args.json:
        print(json.dumps({"summary": summary(results), "per_cause": [
            {"cause": c, "right": ok, "cases": n, "instead": inst} for c, ok, n, inst in per_cause(results)],
            "cases": [asdict(r) for r in results]}, indent=2))
    else:
        print(render(results, args.misses))
    return 0


def _held_out(results: List[CaseResult], held: Set[str], as_json: bool) -> int:
    """Report with the held-out cases only as an aggregate (right / unknown / missed / misleading)."""
    seen = [r for r in results if r.case not in held]
    kept = [r for r in results if r.case in held]
    whole = summary(results)
    agg = {k: v for k, v in whole.items() if k != "confusion"}  # its pairs name the held-out cases' labels
    aside = {"cases": len(kept), **{k: sum(1 for r in kept if (r.outcome or outcome(r.cause, r.got, r.ok)) == k)
                                    for k in ("right", "unknown", "missed", "misleading")}}
    if as_json:
        print(json.dumps({"summary": agg, "held_out": aside, "seen": summary(seen), "per_cause": [
            {"cause": c, "right": ok, "cases": n, "instead": inst} for c, ok, n, inst in per_cause(seen)],
            "cases": [asdict(r) for r in seen]}, indent=2))
    else:
        print(render(seen, False))
        print(f"\nall {whole['cases']}: {whole['top1']} right ({whole['top1_pct']}%); held out {aside}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
