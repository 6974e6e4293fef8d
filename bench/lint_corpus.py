"""Benchmark: `dsdoctor lint` on the development corpus (real training scripts and configs, labels only).

Scripts: every ``sNNN.py`` in ``--scripts-dir`` (materialized outside the repo from the corpus' FETCH.tsv;
default ``$TMPDIR/dsd-corpus/scripts``, else ``/tmp/dsd-corpus/scripts``) is linted alone under ZeRO-3
(``--zero-stage 3``) for Transformers 4.46 and DeepSpeed 0.19.2 (``--ds-version``) and scored against ``sNNN.json``: a finding matches an expected one
when its name is right and its line is within 3 lines of ``line``, ``origin_line`` or ``call_line``; warnings
count; a finding that matches nothing is a false positive. Expected findings with a ``condition`` (a flag the
run must pass) are reported apart from the unconditional ones. ``new:<name>`` labels count under ``<name>``.

Configs: ``score_configs(corpus_dir) -> dict`` from ``bench/lint_corpus_configs.py`` when that file exists.

    .venv/bin/python bench/lint_corpus.py [--scripts-dir DIR] [--corpus DIR] [--json] [-v]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

REPO = Path(__file__).resolve().parents[1]
WINDOW = 3
TRANSFORMERS = "transformers==4.46"
DEEPSPEED = "0.19.2"  # the newest DeepSpeed the version-conditional labels hold for ("DeepSpeed <= 0.19.2")


def corpus_dir() -> Path:
    """``$DSDOCTOR_CORPUS``, else ``../shared/corpus`` next to the repository."""
    env = os.environ.get("DSDOCTOR_CORPUS")
    return Path(env) if env else REPO.parent / "shared" / "corpus"


def default_scripts_dir() -> Path:
    for base in (os.environ.get("TMPDIR"), tempfile.gettempdir(), "/tmp"):
        if base and (Path(base) / "dsd-corpus" / "scripts").is_dir():
            return Path(base) / "dsd-corpus" / "scripts"
    return Path("/tmp/dsd-corpus/scripts")


def label_name(name: str) -> str:
    return name[4:] if name.startswith("new:") else name


def lint_script(path: Path, ds_version: Optional[str] = DEEPSPEED) -> List[Tuple[str, int, str]]:
    """(name, line, severity) of every warning or error lint reports for ``path`` alone under ZeRO-3."""
    from dsdoctor.lint import lint
    from dsdoctor.settings import Settings

    res = lint([str(path)], targets=[TRANSFORMERS], zero_stage=3, settings=Settings(), ds_version=ds_version)
    return [(f.name, f.line or 0, f.severity.value) for f in res.report.findings
            if f.severity.value in ("error", "warning") and f.path and Path(f.path).resolve() == path.resolve()]


def score_script(label: Dict[str, Any], found: List[Tuple[str, int, str]]) -> Dict[str, Any]:
    """Match the findings against one script's labels."""
    expected = label.get("expected_findings", [])
    lines = [[e[k] for k in ("line", "origin_line", "call_line") if isinstance(e.get(k), int)] for e in expected]
    hit = [False] * len(expected)
    tp: List[Tuple[str, int]] = []
    fp: List[Tuple[str, int, str]] = []
    for name, line, _sev in found:
        matched = [i for i, e in enumerate(expected)
                   if label_name(e["name"]) == name and any(abs(line - x) <= WINDOW for x in lines[i])]
        for i in matched:
            hit[i] = True
        if matched:
            tp.append((name, line))
        else:
            known = [k for k in label.get("known_non_findings", []) if abs(line - k.get("line", -99)) <= WINDOW]
            fp.append((name, line, "known non-finding" if known else "unlabelled"))
    return {"expected": expected, "hit": hit, "tp": tp, "fp": fp}


def score_scripts(scripts_dir: Path, labels_dir: Path, ds_version: Optional[str] = DEEPSPEED) -> Optional[Dict[str, Any]]:
    """Per-rule and total recall / precision over the corpus scripts; None when the files are absent."""
    if not scripts_dir.is_dir():
        return None
    per: Dict[str, Dict[str, int]] = defaultdict(lambda: defaultdict(int))
    total: Dict[str, int] = defaultdict(int)
    misses: List[str] = []
    fps: List[str] = []
    for lf in sorted(labels_dir.glob("s[0-9]*.json")):
        script = scripts_dir / (lf.stem + ".py")
        if not script.is_file():
            misses.append(f"{lf.stem}: script not materialized")
            continue
        label = json.loads(lf.read_text())
        s = score_script(label, lint_script(script, ds_version))
        for e, ok in zip(s["expected"], s["hit"]):
            kind = "cond" if e.get("condition") else "strict"
            r = per[label_name(e["name"])]
            r[f"exp_{kind}"] += 1
            r[f"hit_{kind}"] += int(ok)
            total[f"exp_{kind}"] += 1
            total[f"hit_{kind}"] += int(ok)
            if not ok:
                misses.append(f"{lf.stem}:{e['line']} {e['name']}" + (f"  [{e['condition']}]" if kind == "cond" else ""))
        for name, _line in s["tp"]:
            per[name]["tp"] += 1
            total["tp"] += 1
        for name, line, why in s["fp"]:
            per[name]["fp"] += 1
            total["fp"] += 1
            fps.append(f"{lf.stem}:{line} {name} ({why})")
    return {"per_rule": {k: dict(v) for k, v in sorted(per.items())}, "total": dict(total),
            "misses": misses, "false_positives": fps}


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:5.1f}%" if b else "    -"


def print_scripts(res: Dict[str, Any], verbose: bool) -> None:
    print(f"{'rule':40} {'strict':>13} {'conditional':>13} {'recall':>7} {'tp':>4} {'fp':>4} {'prec':>7}")
    rows = list(res["per_rule"].items()) + [("TOTAL", res["total"])]
    for name, r in rows:
        es, hs, ec, hc = (r.get(k, 0) for k in ("exp_strict", "hit_strict", "exp_cond", "hit_cond"))
        tp, fp = r.get("tp", 0), r.get("fp", 0)
        print(f"{name:40} {hs:>3}/{es:<3}{_pct(hs, es):>7} {hc:>3}/{ec:<3}{_pct(hc, ec):>7} "
              f"{_pct(hs + hc, es + ec):>7} {tp:>4} {fp:>4} {_pct(tp, tp + fp):>7}")
    if verbose:
        for m in res["misses"]:
            print("  miss", m)
        for f in res["false_positives"]:
            print("  fp  ", f)


def score_configs(corpus: Path) -> Optional[Dict[str, Any]]:
    """The configs part (``bench/lint_corpus_configs.py``), when present."""
    p = Path(__file__).with_name("lint_corpus_configs.py")
    if not p.is_file():
        return None
    spec = importlib.util.spec_from_file_location("lint_corpus_configs", p)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out: Dict[str, Any] = mod.score_configs(corpus)
    return out


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scripts-dir", type=Path, default=default_scripts_dir())
    ap.add_argument("--corpus", type=Path, default=corpus_dir())
    ap.add_argument("--ds-version", default=DEEPSPEED, help=f"DeepSpeed to lint the scripts for (default {DEEPSPEED}; "
                    "'installed': this environment's)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every miss and false positive")
    a = ap.parse_args(argv)
    if not a.corpus.is_dir():
        print(f"corpus not found at {a.corpus} (set DSDOCTOR_CORPUS): nothing measured")
        return 0
    out: Dict[str, Any] = {}
    ds = None if a.ds_version == "installed" else a.ds_version
    scripts = score_scripts(a.scripts_dir, a.corpus / "scripts", ds)
    if scripts is None:
        print(f"scripts: {a.scripts_dir} absent (materialize them from {a.corpus / 'scripts' / 'FETCH.tsv'}): skipped")
    else:
        out["scripts"] = scripts
    configs = score_configs(a.corpus)
    if configs is not None:
        out["configs"] = configs
    if a.json:
        json.dump(out, sys.stdout, indent=1)
        print()
        return 0
    if scripts is not None:
        print(f"scripts ({a.scripts_dir}, --zero-stage 3, {TRANSFORMERS}, DeepSpeed {a.ds_version}):")
        print_scripts(scripts, a.verbose)
    if configs is not None:
        print("configs:")
        if isinstance(configs.get("text"), str):
            print(configs["text"])
        else:
            print(json.dumps({k: v for k, v in configs.items() if k != "cases"}))
            for case in configs.get("cases", []) if a.verbose else []:
                if case.get("missed") or case.get("false_errors") or case.get("false_positives"):
                    print("  ", json.dumps(case))
    return 0


if __name__ == "__main__":
    sys.exit(main())
