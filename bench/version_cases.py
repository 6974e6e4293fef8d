"""Benchmark: are the corpus's version-incompatibility and release-regression cases answered with the exact
packages and versions? (issue 20, "done when" part 1)

Selected by label (the corpus ``cause``, mapped through ``bench/corpus_names.toml``): ``package-versions-incompatible``,
``deepspeed-release-regression``, ``transformers-release-regression``, any ``new:<package>-version-incompatible``
and ``new:transformers-too-old-for-model``. Each log is explained through the CLI (``dsdoctor explain FILE --format
json``, a subprocess per case, as a user runs it).

Criterion (``exact``), all three:

1. the finding: the first diagnosis is the label (mapped), one of ``acceptable``, or a version finding
   (``VERSION_FINDINGS``: a named incompatibility or release regression);
2. the package: the first diagnosis (its summary, explanation, evidence notes and fixes) names, next to a version
   (``DeepSpeed 0.18.3``, ``numpy<2.0``, ``transformers>=4.37``), a package the case names: the label's own
   (``deepspeed`` for ``deepspeed-release-regression``, ``vllm`` for ``new:vllm-version-incompatible``) when it
   has one, else any package of the case's ``fix`` / ``versions`` / ``notes``;
3. the version: one such version is consistent with a version the case's ``fix`` / ``versions`` / ``notes`` give
   that package: equal, one a dotted prefix of the other (``0.14`` and ``0.14.4``), trailing ``.0`` ignored, or an
   affected range the answer names (``DeepSpeed 0.12.0-0.19.7``) holding the case's release (``0.15.4``).

A wrong finding never counts, however right its versions. Cases whose ids are in ``--holdout`` (a file of ids) are
scored apart and only in aggregate (no per-case line: those logs stay unseen).

    .venv/bin/python bench/version_cases.py [--corpus DIR] [--holdout FILE] [--json]

The corpus is ``--corpus``, else ``$DSDOCTOR_CORPUS`` (root or logs/), else ``<repo>/../shared/corpus/logs``; absent:
a message and exit 0. A measurement, not a gate.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Set, Tuple

from packaging.version import InvalidVersion, Version

sys.path.insert(0, str(Path(__file__).resolve().parent))
from explain_corpus import default_corpus, load_names  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
SELECTED = ("package-versions-incompatible", "deepspeed-release-regression", "transformers-release-regression")
VERSION_FINDINGS = frozenset({"package-versions-incompatible", "deepspeed-release-regression",
                              "transformers-release-regression", "transformers-tmp-checkpoint-rename",
                              "transformers-too-old-for-model", "torch-weights-only-load"})
PACKAGES = ("deepspeed", "transformers", "accelerate", "torch", "numpy", "pydantic", "bitsandbytes", "trl", "peft",
            "vllm", "flash-attn", "flash_attn", "triton", "megatron")
_VER = re.compile(r"(?<![\w.])v?(\d+\.\d+(?:\.\d+)?)(?![\w.]*\d)")
_RANGE = re.compile(r"(?<![\w.])(\d+\.\d+\.\d+)[-\u2013](\d+\.\d+\.\d+)(?![\w.]*\d)")  # 0.18.3-0.18.6
_PKG = re.compile(r"\b(" + "|".join(re.escape(p) for p in PACKAGES) + r")\b", re.IGNORECASE)
_WINDOW = 100  # how far after a package's name its versions are looked for (up to the next package or sentence)
_LABEL_PKG = re.compile(r"^(?:new:)?([a-z0-9_]+?)-(?:version-incompatible|release-regression|too-old)")


def selected(raw: str, mapped: str) -> bool:
    """The case is a version / regression case by its label."""
    return (mapped in SELECTED or re.fullmatch(r"new:[a-z0-9-]+-version-incompatible", raw) is not None
            or raw == "new:transformers-too-old-for-model")


def pairs(text: str) -> Set[Tuple[str, str]]:
    """(package, version) pairs a text states: each version after a package's name, before the next package name
    or the sentence's end, within ``_WINDOW`` characters (``deepspeed removed it in 0.16.4``, ``numpy<2.0``)."""
    out = set()
    marks = list(_PKG.finditer(text))
    for i, m in enumerate(marks):
        end = min(m.end() + _WINDOW, marks[i + 1].start() if i + 1 < len(marks) else len(text))
        window = re.split(r"[.;] |\n", text[m.end():end])[0]
        pkg = m.group(1).lower().replace("_", "-")
        for v in _VER.finditer(window):
            out.add((pkg, _norm(v.group(1))))
        for r in _RANGE.finditer(window):
            out.add((pkg, f"{_norm(r.group(1))}..{_norm(r.group(2))}"))
    return out


def _norm(ver: str) -> str:
    while ver.endswith(".0") and ver.count(".") > 1:
        ver = ver[:-2]
    return ver[:-2] if ver.endswith(".0") else ver


def consistent(a: str, b: str) -> bool:
    """Equal, one a dotted prefix of the other, or one an affected range (``lo..hi``) holding the other (a release
    of the case inside the range the answer names)."""
    if ".." in a or ".." in b:
        rng, ver = (a, b) if ".." in a else (b, a)
        if ".." in ver:
            return rng == ver
        lo, hi = rng.split("..")
        try:
            return Version(lo) <= Version(ver) <= Version(hi)
        except InvalidVersion:
            return False
    return a == b or a.startswith(b + ".") or b.startswith(a + ".")


def expected(case: Dict[str, Any]) -> Tuple[Set[str], Set[Tuple[str, str]]]:
    """The packages an answer must name (the label's own, else the case's) and the (package, version) pairs the
    case gives."""
    vers = case.get("versions") or {}
    text = " ".join([str(case.get("fix", "")), str(case.get("notes", ""))]
                    + [f"{k} {v}" for k, v in (vers.items() if isinstance(vers, dict) else [])])
    given = pairs(text)
    m = _LABEL_PKG.match(str(case.get("cause", "")))
    own = {m.group(1)} if m and m.group(1) in PACKAGES else set()
    return (own or {p for p, _ in given}), given


def answer_text(diag: Dict[str, Any]) -> str:
    """Everything the first diagnosis says."""
    return json.dumps(diag, ensure_ascii=False)


def score(case: Dict[str, Any], first: Optional[Dict[str, Any]], mapped: str, names: Dict[str, str]) -> Dict[str, Any]:
    """One case's verdict: finding, packages and versions (see the module docstring)."""
    got = first.get("name", "") if first else "no-failure"
    ok_names = {mapped} | {names.get(a, a) for a in case.get("acceptable") or []}
    finding = got in ok_names or got in VERSION_FINDINGS
    want_pkgs, given = expected(case)
    said = pairs(answer_text(first)) if first else set()
    named = {p for p, _ in said} & want_pkgs
    versions = any(p in want_pkgs and any(gp == p and consistent(v, gv) for gp, gv in given) for p, v in said)
    return {"got": got, "finding": finding, "package": bool(named), "version": versions,
            "exact": finding and bool(named) and versions, "said": sorted(f"{p} {v}" for p, v in said)}


def explain(log: str, dsdoctor: Path) -> Optional[Dict[str, Any]]:
    """The CLI's first diagnosis for ``log`` (None: no diagnosis)."""
    with tempfile.NamedTemporaryFile("wb", suffix=".log", delete=False) as fh:
        fh.write(log.encode("utf-8", "surrogateescape"))
        path = fh.name
    try:
        proc = subprocess.run([str(dsdoctor), "explain", path, "--format", "json"], capture_output=True, check=False)
        data = json.loads(proc.stdout.decode("utf-8", "replace") or "{}")
    finally:
        Path(path).unlink()
    diags = data.get("diagnoses") or []
    return diags[0] if diags else None


def main(argv: Optional[List[str]] = None) -> int:
    """Score the selected cases and print the per-case table (development cases) and the totals."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=None)
    ap.add_argument("--holdout", type=Path, default=None, help="file of case ids scored apart, in aggregate only")
    ap.add_argument("--dsdoctor", type=Path, default=Path(sys.executable).parent / "dsdoctor")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    corpus = args.corpus or default_corpus()
    if not corpus.is_dir():
        print(f"corpus not found ({corpus}): set $DSDOCTOR_CORPUS or --corpus; nothing measured")
        return 0
    hold = set(args.holdout.read_text().split()) if args.holdout and args.holdout.is_file() else set()
    names = load_names()
    rows: List[Dict[str, Any]] = []
    for path in sorted(corpus.glob("*.json")):
        case = json.loads(path.read_text(encoding="utf-8"))
        raw = str(case.get("cause", ""))
        mapped = names.get(raw, raw)
        if not selected(raw, mapped):
            continue
        row = score(case, explain(str(case.get("log", "")), args.dsdoctor), mapped, names)
        row.update(case=path.stem, label=raw, held=path.stem in hold)
        rows.append(row)
    totals = {}
    for part, held in (("dev", False), ("held-out", True)):
        sel = [r for r in rows if r["held"] is held]
        totals[part] = {"cases": len(sel), "exact": sum(r["exact"] for r in sel),
                        "finding": sum(r["finding"] for r in sel)}
    if args.json:
        print(json.dumps({"totals": totals, "dev": [r for r in rows if not r["held"]]}, indent=1))
        return 0
    for r in rows:
        if not r["held"]:
            flags = "".join(c if r[k] else "." for c, k in (("F", "finding"), ("P", "package"), ("V", "version")))
            print(f"{r['case']:6} {'EXACT' if r['exact'] else '     '} {flags} {r['label']:42} -> {r['got']:36} "
                  f"{', '.join(r['said'][:6])}")
    for part, t in totals.items():
        print(f"{part}: exact {t['exact']}/{t['cases']}, right finding {t['finding']}/{t['cases']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
