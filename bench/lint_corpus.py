"""Benchmark: `dsdoctor lint` on the development corpus (real training scripts and configs, labels only).

Scripts: every ``sNNN.py`` in ``--scripts-dir`` (materialized outside the repo from the corpus' FETCH.tsv;
default ``$TMPDIR/dsd-corpus/scripts``, else ``/tmp/dsd-corpus/scripts``) is linted alone under ZeRO-3
(``--zero-stage 3``) for Transformers 4.46 and DeepSpeed 0.19.2 (``--ds-version``) and scored against ``sNNN.json``: a finding matches an expected one
when its name is right and its line is within 3 lines of ``line``, ``origin_line`` or ``call_line``; warnings
count; a finding that matches nothing is a false positive. Expected findings with a ``condition`` (a flag the
run must pass) are reported apart from the unconditional ones, and an ``info`` finding matches them (a problem
behind a flag no shipped ZeRO-3 recipe sets is info); info never counts as a false positive. Labels the project
disputes (``bench/lint_corpus_disputes.tsv``, each with its reason) are scored as conditional. ``new:<name>`` labels count under ``<name>``.

``--cli``: also as a user runs it, ``dsdoctor lint <path> --format json --exit-zero`` in the root of the script's
repository exported at its commit (``--repos-dir``, default ``$TMPDIR/dsd-corpus/repos``; ``--mirror DIR`` exports
the missing ones from local git directories, bench/corpus_repos.py), no option: the project's recipes give the
ZeRO-3 context and its pins the versions. Both modes are printed side by side per script, with the CLI's recall per
``zero3_context`` kind; a repository that is absent is reported and skipped.

Configs: ``score_configs(corpus_dir) -> dict`` from ``bench/lint_corpus_configs.py`` when that file exists.

    .venv/bin/python bench/lint_corpus.py [--scripts-dir DIR] [--corpus DIR] [--cli [--mirror DIR]] [--json] [-v]
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

REPO = Path(__file__).resolve().parents[1]
WINDOW = 3
DISPUTES = Path(__file__).with_name("lint_corpus_disputes.tsv")
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
    """(name, line, severity) of every finding lint reports for ``path`` alone under ZeRO-3 (info too: it matches
    a conditional label, as in the CLI mode, and never counts against precision)."""
    from dsdoctor.lint import lint
    from dsdoctor.settings import Settings

    res = lint([str(path)], targets=[TRANSFORMERS], zero_stage=3, settings=Settings(), ds_version=ds_version)
    return [(f.name, f.line or 0, f.severity.value) for f in res.report.findings
            if f.path and Path(f.path).resolve() == path.resolve()]


def read_disputes(path: Path = DISPUTES) -> Dict[Tuple[str, int, str], str]:
    """(case, line, name) -> why, for the expected findings this project scores as conditional though their label
    has no ``condition`` (bench/lint_corpus_disputes.tsv: the label itself says the release the repository pins
    works, so the finding holds only after an upgrade)."""
    out: Dict[Tuple[str, int, str], str] = {}
    if path.is_file():
        with open(path, newline="") as fh:
            for row in csv.DictReader(fh, delimiter="\t"):
                out[(row["case"], int(row["line"]), row["name"])] = row["why"]
    return out


def conditional(e: Dict[str, Any]) -> bool:
    """Whether an expected finding holds only under a condition (its ``condition``, or a listed dispute)."""
    return bool(e.get("condition")) or bool(e.get("_disputed"))


def score_script(label: Dict[str, Any], found: List[Tuple[str, int, str]]) -> Dict[str, Any]:
    """Match the findings against one script's labels."""
    expected = label.get("expected_findings", [])
    lines = [[e[k] for k in ("line", "origin_line", "call_line") if isinstance(e.get(k), int)] for e in expected]
    hit = [False] * len(expected)
    tp: List[Tuple[str, int]] = []
    fp: List[Tuple[str, int, str]] = []
    for name, line, sev in found:
        # a conditional finding may be info ("if you run with --bits 4 under ZeRO-3: ..."); a strict one may not
        matched = [i for i, e in enumerate(expected)
                   if label_name(e["name"]) == name and any(abs(line - x) <= WINDOW for x in lines[i])
                   and (sev != "info" or conditional(e))]
        for i in matched:
            hit[i] = True
        if sev == "info":
            continue  # info never counts against precision
        if matched:
            tp.append((name, line))
        else:
            known = [k for k in label.get("known_non_findings", []) if abs(line - k.get("line", -99)) <= WINDOW]
            fp.append((name, line, "known non-finding" if known else "unlabelled"))
    return {"expected": expected, "hit": hit, "tp": tp, "fp": fp}


Linter = Callable[[str], Tuple[Optional[List[Tuple[str, int, str]]], Dict[str, Any]]]


def in_process(scripts_dir: Path, ds_version: Optional[str] = DEEPSPEED) -> Linter:
    """The forced-context mode: ``scripts_dir/<id>.py`` linted alone, in this process."""
    def run(case: str) -> Tuple[Optional[List[Tuple[str, int, str]]], Dict[str, Any]]:
        script = scripts_dir / (case + ".py")
        return (lint_script(script, ds_version) if script.is_file() else None), {}
    return run


def score_scripts(scripts_dir: Path, labels_dir: Path, ds_version: Optional[str] = DEEPSPEED,
                  linter: Optional[Linter] = None) -> Optional[Dict[str, Any]]:
    """Per-rule and total recall / precision over the corpus scripts, and per script what was found, missed and
    falsely reported; None when the files are absent. ``linter``: case id -> (findings or None when the case
    cannot be linted, facts); default the in-process mode on ``scripts_dir``."""
    if linter is None:
        if not scripts_dir.is_dir():
            return None
        linter = in_process(scripts_dir, ds_version)
    per: Dict[str, Dict[str, int]] = defaultdict(lambda: defaultdict(int))
    total: Dict[str, int] = defaultdict(int)
    misses: List[str] = []
    fps: List[str] = []
    cases: Dict[str, Dict[str, Any]] = {}
    disputes = read_disputes()
    for lf in sorted(labels_dir.glob("s[0-9]*.json")):
        found, facts = linter(lf.stem)
        if found is None:
            misses.append(f"{lf.stem}: not linted ({facts.get('skipped', 'script not materialized')})")
            continue
        label = json.loads(lf.read_text())
        for e in label.get("expected_findings", []):
            e["_disputed"] = (lf.stem, e.get("line"), e.get("name")) in disputes
        s = score_script(label, found)
        case = cases[lf.stem] = {"found": [], "missed": [], "fp": [], "facts": facts,
                                 "context": context_kind(label.get("zero3_context", ""))}
        for e, ok in zip(s["expected"], s["hit"]):
            kind = "cond" if conditional(e) else "strict"
            r = per[label_name(e["name"])]
            r[f"exp_{kind}"] += 1
            r[f"hit_{kind}"] += int(ok)
            total[f"exp_{kind}"] += 1
            total[f"hit_{kind}"] += int(ok)
            what = f"{e['line']} {label_name(e['name'])}" + ("" if kind == "strict" else " (cond)")
            case["found" if ok else "missed"].append(what)
            if not ok:
                misses.append(f"{lf.stem}:{e['line']} {e['name']}" + (f"  [{e['condition']}]" if kind == "cond" else ""))
        for name, _line in s["tp"]:
            per[name]["tp"] += 1
            total["tp"] += 1
        for name, line, why in s["fp"]:
            per[name]["fp"] += 1
            total["fp"] += 1
            fps.append(f"{lf.stem}:{line} {name} ({why})")
            case["fp"].append(f"{line} {name} ({why})")
    return {"per_rule": {k: dict(v) for k, v in sorted(per.items())}, "total": dict(total),
            "misses": misses, "false_positives": fps, "cases": cases}


_KINDS = (("flag", r"--zero_stage\b|argparse"),
          ("accelerate", r"accelerate launch|accelerate_configs?\b|distributed_type|accelerate YAML"),
          ("launch-script", r"\.sh\b"), ("readme", r"\breadme\b"), ("training-yaml", r"\.ya?ml\b"),
          ("user-chosen", r"\busers? (?:pass|swap)|\bif you want\b|describes switching|for users who"))


def context_kind(text: str) -> str:
    """The kinds of ZeRO-3 context a label's ``zero3_context`` names (joined with '+'; 'other' when none): a
    ZeRO-stage flag of the script, an accelerate config, a shell launch script, a README recipe, a training
    YAML, a config users choose themselves."""
    kinds = [k for k, pat in _KINDS if re.search(pat, text, re.I)]
    return "+".join(kinds) or "other"


def cli_linter(labels_dir: Path, repos_dir: Path) -> Linter:
    """The user's mode: ``dsdoctor lint <path> --format json --exit-zero`` in the root of the script's repository
    exported at its commit (bench/corpus_repos.py), no option; the project's recipes and pins give the context."""
    repos = _load("corpus_repos")
    rows = {r.id: r for r in repos.read_fetch(labels_dir)}

    def run(case: str) -> Tuple[Optional[List[Tuple[str, int, str]]], Dict[str, Any]]:
        row = rows.get(case)
        if row is None:
            return None, {"skipped": "not in FETCH.tsv"}
        root = repos_dir / row.key
        if not root.is_dir() or not repos.sha_ok(root, row):
            return None, {"skipped": f"{root} absent or not the corpus' file (bench/corpus_repos.py --mirror DIR)"}
        env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
        p = subprocess.run([sys.executable, "-m", "dsdoctor", "lint", row.path, "--format", "json", "--exit-zero"],
                           cwd=root, env=env, capture_output=True, text=True, timeout=900)
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            return [("dsdoctor-failed", 0, "error")], {"skipped": f"exit {p.returncode}: {p.stderr[-300:]}"}
        mine = [f for f in doc.get("findings", []) if os.path.normpath(f.get("path") or "") == os.path.normpath(row.path)]
        facts = {k: doc.get("facts", {}).get(k) for k in ("zero3", "zero3_source", "deepspeed", "deepspeed_source",
                                                          "transformers", "transformers_source")}
        facts["info"] = [f"{f.get('line')} {f['name']}" for f in mine if f.get("severity") == "info"]
        titles = " ".join(f.get("title", "") for f in mine)  # the script's own context, as its findings state it
        facts["context"] = "ZeRO-3 (recipes)" if "under ZeRO-3 (" in titles else \
            "if run with ZeRO-3" if "if run with ZeRO-3" in titles else "-"
        return [(f["name"], f.get("line") or 0, f["severity"]) for f in mine
                if f.get("severity") in ("error", "warning", "info")], facts
    return run


def _load(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # its dataclasses look themselves up there
    spec.loader.exec_module(mod)
    return mod


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


def _counts(case: Dict[str, Any]) -> Tuple[int, int, int]:
    """(expected found, expected, false positives) of one script."""
    hit = len(case["found"])
    return hit, hit + len(case["missed"]), len(case["fp"])


def print_side_by_side(inproc: Dict[str, Any], cli: Dict[str, Any], verbose: bool) -> None:
    """Per script: found/expected and false positives in both modes, the CLI's ZeRO-3 context and versions; then
    the CLI's recall per ``zero3_context`` kind."""
    print(f"{'script':6} {'zero3_context kind':34} {'in-process':>12} {'CLI':>10}  CLI: the script's context; DeepSpeed; Transformers")
    kinds: Dict[str, List[int]] = defaultdict(lambda: [0, 0, 0])
    for case in sorted(set(inproc["cases"]) | set(cli["cases"])):
        a, b = inproc["cases"].get(case), cli["cases"].get(case)
        ia = "%d/%d fp%d" % _counts(a) if a else "-"
        cb = "%d/%d fp%d" % _counts(b) if b else "-"
        ctx = (a or b or {}).get("context", "")
        facts = (b or {}).get("facts", {})
        print(f"{case:6} {ctx:34} {ia:>12} {cb:>10}  {facts.get('context')}; {facts.get('deepspeed')}; "
              f"{facts.get('transformers')}")
        if b:
            for k in ctx.split("+"):
                kinds[k] = [x + y for x, y in zip(kinds[k], _counts(b))]
        if verbose and b:
            for what in ("missed", "fp"):
                for item in b[what]:
                    print(f"{'':8}CLI {what:6} {item}")
            if b["missed"]:
                print(f"{'':8}CLI info   {', '.join(facts.get('info') or []) or '-'}")
                print(f"{'':8}CLI versions {facts.get('deepspeed_source')}; "
                      f"{facts.get('transformers_source')}")
    print("CLI per zero3_context kind (a script counts under each kind its label names):")
    for k, (hit, exp, fp) in sorted(kinds.items()):
        print(f"  {k:16} recall {hit:>3}/{exp:<3}{_pct(hit, exp):>7}  fp {fp}")


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
    ap.add_argument("--cli", action="store_true", help="also lint each script through the CLI in its repository "
                    "(exported at the script's commit under --repos-dir) and print both modes side by side")
    ap.add_argument("--repos-dir", type=Path, default=_load("corpus_repos").default_repos_dir())
    ap.add_argument("--mirror", type=Path, help="with --cli: export the missing repositories from the git "
                    "directories in this folder (bench/corpus_repos.py)")
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
    if a.cli:
        if a.mirror is not None:
            for key, why in _load("corpus_repos").materialize(_load("corpus_repos").read_fetch(a.corpus / "scripts"),
                                                              a.repos_dir, a.mirror).items():
                print(f"{key}: {why}", file=sys.stderr)
        out["scripts_cli"] = score_scripts(a.scripts_dir, a.corpus / "scripts",
                                           linter=cli_linter(a.corpus / "scripts", a.repos_dir))
    configs = score_configs(a.corpus)
    if configs is not None:
        out["configs"] = configs
    if a.json:
        json.dump(out, sys.stdout, indent=1)
        print()
        return 0
    if scripts is not None:
        print(f"scripts ({a.scripts_dir}, --zero-stage 3, {TRANSFORMERS}, DeepSpeed {a.ds_version}):")
        print_scripts(scripts, a.verbose and not a.cli)
    cli = out.get("scripts_cli")
    if cli is not None:
        print(f"scripts through the CLI (`dsdoctor lint PATH --format json` in each repository under {a.repos_dir}):")
        print_scripts(cli, False)
        print_side_by_side(scripts or {"cases": {}}, cli, a.verbose)
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
