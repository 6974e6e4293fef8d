"""Benchmark: ``dsdoctor lint`` on the real ds_configs and accelerate YAML of the development corpus.

Reads ``../shared/corpus/configs/kNNN.json`` (override: ``DSDOCTOR_CORPUS``; nothing is copied into the repo),
writes each ``config_text`` to a temporary directory and lints it with the options its fields give
(``used_with`` -> loaded_by, ``world_size``, the DeepSpeed version its expected findings hold for).
Scoring (the corpus README): on a config with no expected findings any error is a false error; a warning or
error named by a ``known_non_findings`` entry is a false positive; expected findings are found by name (a
``new:<name>`` label counts once dsdoctor reports ``<name>``).

``--cli``: lint each config as a user does, ``dsdoctor lint FILE --format json`` in a subprocess, with no
option and no context from the corpus (the file alone says how it is used). ``--split dev|held``: the configs
whose index (sorted by name) is not / is a multiple of three plus two, i.e. every third config kept aside.

    .venv/bin/python bench/lint_corpus_configs.py [CORPUS_DIR/configs] [--cli] [--split dev|held] [--verbose]
"""

from __future__ import annotations

import glob
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

REPO = Path(__file__).resolve().parents[1]
LOADED_BY = {"hf_trainer": "trainer", "accelerate": "accelerate", "raw_deepspeed": "deepspeed"}
FILENAME = {"ds_config": "ds_config.json", "accelerate_yaml": "accelerate_config.yaml"}


def corpus_configs() -> Path:
    """The corpus' configs/ folder: ``$DSDOCTOR_CORPUS/configs``, else ``../shared/corpus/configs``."""
    root = os.environ.get("DSDOCTOR_CORPUS") or str(REPO.parent / "shared" / "corpus")
    return Path(root) / "configs"


def world_size(field: Any) -> Optional[int]:
    """``"8 (num_processes: 8)"`` -> 8; None when unknown or only per node (``"8 per node (...)"``)."""
    if isinstance(field, int):
        return field
    m = re.match(r"\s*(\d+)\s*(\(|$)", str(field or ""))
    return int(m.group(1)) if m else None


def ds_version(case: Dict[str, Any]) -> Optional[str]:
    """The DeepSpeed version to lint with: the latest known one, unless an expected finding holds only up to an
    older version (``"<= 0.16.9"``)."""
    for e in case.get("expected_findings", ()):
        m = re.match(r"\s*<=?\s*(\d+\.\d+(?:\.\d+)?)", str(e.get("deepspeed_versions", "")))
        if m:
            return m.group(1)
    return None


def lint_case(case: Dict[str, Any], tmp: str) -> List[Tuple[str, str]]:
    """(name, severity) of every finding ``dsdoctor lint`` reports for the case's config text."""
    from dsdoctor.lint import lint
    from dsdoctor.settings import Settings

    path = os.path.join(tmp, FILENAME.get(case["kind"], "ds_config.json"))
    with open(path, "w") as fh:
        fh.write(case["config_text"])
    res = lint([path], world_size=world_size(case.get("world_size")), ds_version=ds_version(case),
               loaded_by=LOADED_BY.get(case.get("used_with", "")), settings=Settings())
    return [(f.name, f.severity.value) for f in res.report.findings]


def lint_cli(case: Dict[str, Any], tmp: str) -> List[Tuple[str, str]]:
    """(name, severity) of every finding of ``dsdoctor lint FILE --format json`` run in ``tmp`` on the case's
    config text: what a user gets, no context from the corpus."""
    name = FILENAME.get(case["kind"], "ds_config.json")
    with open(os.path.join(tmp, name), "w") as fh:
        fh.write(case["config_text"])
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "lint", name, "--format", "json"], cwd=tmp, env=env,
                       capture_output=True, text=True, timeout=120)
    if p.returncode not in (0, 1):
        raise RuntimeError(f"dsdoctor lint {name} exited {p.returncode}: {p.stderr[-2000:]}")
    return [(f["name"], f["severity"]) for f in json.loads(p.stdout)["findings"]]


def in_split(index: int, split: str) -> bool:
    """``held``: every third config sorted by name (index 2, 5, 8, ...); ``dev``: the others; ``all``: every one."""
    return split == "all" or (index % 3 == 2) == (split == "held")


def score_configs(corpus_dir: "str | Path", cli: bool = False, split: str = "all") -> Dict[str, Any]:
    """False errors, false positives and recall over every ``kNNN.json`` in ``corpus_dir`` (the corpus root or
    its ``configs/`` folder) of ``split``, with per-case detail. ``cli``: through ``dsdoctor lint FILE``, with
    no context from the corpus (:func:`lint_cli`), else with the corpus' context (:func:`lint_case`)."""
    if (Path(corpus_dir) / "configs").is_dir():
        corpus_dir = Path(corpus_dir) / "configs"
    cases: List[Dict[str, Any]] = []
    totals = {"configs": 0, "clean_configs": 0, "false_errors": 0, "false_positives": 0, "expected": 0, "found": 0}
    paths = [p for i, p in enumerate(sorted(glob.glob(os.path.join(str(corpus_dir), "k*.json")))) if in_split(i, split)]
    loaded = [json.loads(Path(p).read_text()) for p in paths]

    def run(case: Dict[str, Any]) -> List[Tuple[str, str]]:
        with tempfile.TemporaryDirectory(prefix="dsd-cfg-") as tmp:
            return (lint_cli if cli else lint_case)(case, tmp)

    if cli:  # one dsdoctor process per config: run them side by side
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            results = list(pool.map(run, loaded))
    else:
        results = [run(c) for c in loaded]
    for p, case, got in zip(paths, loaded, results):
        names = {n for n, _ in got}
        expected = [e["name"] for e in case.get("expected_findings", ())]
        found = [e for e in expected if e.split(":", 1)[-1] in names]
        missed = [e for e in expected if e not in found]
        false_errors = [n for n, sev in got if sev == "error"] if not expected else []
        banned = {k["name"].split(":", 1)[-1] for k in case.get("known_non_findings", ())}
        false_pos = [n for n, sev in got if n in banned and sev in ("error", "warning")]
        totals["configs"] += 1
        totals["clean_configs"] += not expected
        totals["false_errors"] += len(false_errors)
        totals["false_positives"] += len(false_pos)
        totals["expected"] += len(expected)
        totals["found"] += len(found)
        cases.append({"id": Path(p).stem, "got": got, "found": found, "missed": missed, "false_errors": false_errors,
                      "false_positives": false_pos})
    named = [m for c in cases for m in c["missed"] if not m.startswith("new:")]
    new = [e for c in cases for e in c["found"] + c["missed"] if e.startswith("new:")]
    out: Dict[str, Any] = dict(totals)
    out["recall"] = totals["found"] / totals["expected"] if totals["expected"] else 1.0
    out["expected_named"] = totals["expected"] - len(new)
    out["found_named"] = out["expected_named"] - len(named)
    out["recall_named"] = out["found_named"] / out["expected_named"] if out["expected_named"] else 1.0
    out["cases"] = cases
    return out


def main(argv: List[str]) -> int:
    split = "all"
    if "--split" in argv:
        i = argv.index("--split")
        split = argv[i + 1] if i + 1 < len(argv) else ""
        argv = argv[:i] + argv[i + 2:]
    if split not in ("all", "dev", "held"):
        print("--split takes dev, held or all", file=sys.stderr)
        return 2
    args = [a for a in argv if not a.startswith("-")]
    corpus = Path(args[0]) if args else corpus_configs()
    if not corpus.is_dir():
        print(f"no corpus at {corpus} (set DSDOCTOR_CORPUS)", file=sys.stderr)
        return 2
    s = score_configs(corpus, cli="--cli" in argv, split=split)
    for c in s["cases"]:
        if c["missed"] or c["false_errors"] or c["false_positives"] or "--verbose" in argv:
            print(f"{c['id']}: missed={c['missed']} false_errors={c['false_errors']} "
                  f"false_positives={c['false_positives']} got={sorted(set(n for n, _ in c['got']))}")
    mode = "through the CLI (no context)" if "--cli" in argv else "with the corpus' context"
    print(f"{split} {mode}: configs {s['configs']} ({s['clean_configs']} without expected findings): false errors "
          f"{s['false_errors']}, false positives {s['false_positives']}; recall {s['found']}/{s['expected']} "
          f"= {s['recall']:.0%} (named rules only: {s['found_named']}/{s['expected_named']} = {s['recall_named']:.0%})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
