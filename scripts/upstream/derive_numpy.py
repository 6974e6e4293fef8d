"""Derive what NumPy 2.0 removed from the ``numpy`` namespace, and which releases of the packages dsdoctor reads
use those names (``src/dsdoctor/knowledge/data/numpy2.json.gz``, read by ``dsdoctor.knowledge.numpy``).

    python scripts/upstream/derive_numpy.py      # downloads two numpy wheels (network), reads the unpacked releases

Removed in 2.0.0: a public name of numpy 1.26.4's ``numpy/__init__.pyi`` (a top-level def, class or assignment, or
a re-export ``from M import X as X``; no leading underscore) that numpy 2.0.0 neither defines nor imports in its
``numpy/__init__.py`` (whose imports are explicit in 2.0) nor declares in its ``__init__.pyi``, and that is not a
subpackage of 2.0.0. Its migration note is 2.0.0's ``numpy/_expired_attrs_2_0.py`` entry when there is one. A name
2.0.0 still has (deprecated, removed later) is not in the list. Nothing is imported: ``ast`` only.

Uses: for every release of DeepSpeed, Transformers, Accelerate, PEFT, TRL and torch unpacked by ``releases.py``,
whether its sources import a removed name from numpy (``from numpy import X``) or read ``np.X`` / ``numpy.X``.
"""

from __future__ import annotations

import ast
import datetime
import gzip
import hashlib
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Dict, List, Set, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
import releases  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "src" / "dsdoctor" / "knowledge" / "data" / "numpy2.json.gz"
OLD, NEW = "1.26.4", "2.0.0"
CONSUMERS = ("deepspeed", "transformers", "accelerate", "peft", "trl", "torch")


def _wheel(ver: str) -> Path:
    into = releases.CACHE / "numpy" / ver
    into.mkdir(parents=True, exist_ok=True)
    found = sorted(into.glob("*.whl"))
    if not found:
        subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "download", "--no-deps", "-q",
                        "-d", str(into), f"numpy=={ver}", "--only-binary=:all:", "--platform",
                        "manylinux_2_17_x86_64", "--python-version", "3.11"], check=True,
                       env=dict(os.environ, PIP_CONFIG_FILE=os.devnull))
        found = sorted(into.glob("*.whl"))
    return found[0]


def stub_public(src: bytes) -> Set[str]:
    """Public names of a stub: top-level defs, classes, assignments and ``X as X`` re-exports (PEP 484)."""
    out: Set[str] = set()
    for node in ast.parse(src).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for t in node.targets if isinstance(node, ast.Assign) else [node.target]:
                out |= {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.ImportFrom):
            out |= {a.name for a in node.names if a.asname == a.name}
    return {n for n in out if not n.startswith("_")}


def runtime_names(src: bytes) -> Set[str]:
    """Every name numpy 2.0's ``__init__.py`` binds anywhere (defs, assignments, imports, at any depth)."""
    out: Set[str] = set()
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
    return out


def removed() -> Tuple[Dict[str, str], List[Dict[str, str]]]:
    """{name: migration note or ""} for the names 2.0.0 removed; the provenance rows of the two wheels."""
    old_whl, new_whl = _wheel(OLD), _wheel(NEW)
    with zipfile.ZipFile(old_whl) as z:
        before = stub_public(z.read("numpy/__init__.pyi"))
    with zipfile.ZipFile(new_whl) as z:
        files = set(z.namelist())
        after = runtime_names(z.read("numpy/__init__.py")) | stub_public(z.read("numpy/__init__.pyi"))
        notes: Dict[str, str] = ast.literal_eval(
            next(n.value for n in ast.parse(z.read("numpy/_expired_attrs_2_0.py")).body
                 if isinstance(n, ast.Assign)))
    gone = {n for n in before - after if f"numpy/{n}/__init__.py" not in files and f"numpy/{n}.py" not in files}
    prov = [{"version": v, "file": w.name, "sha256": hashlib.sha256(w.read_bytes()).hexdigest()}
            for v, w in ((OLD, old_whl), (NEW, new_whl))]
    return {n: " ".join(notes.get(n, "").split()) for n in sorted(gone)}, prov


def uses(names: Set[str]) -> Dict[str, Dict[str, object]]:
    """{consumer: {"releases": [...], "names": {name: [index of each release using it]}, "at": {name: module}}}."""
    word = "|".join(sorted(names, key=len, reverse=True))
    attr = re.compile(r"\b(?:np|numpy)\.(%s)\b" % word)
    imp = re.compile(r"^\s*from numpy import ([^\n]*(?:\n[^\n]*){0,8})", re.M)
    out: Dict[str, Dict[str, object]] = {}
    for dist in CONSUMERS:
        rels = releases.unpacked(dist)
        used: Dict[str, List[int]] = {}
        at: Dict[str, str] = {}
        for i, (_, root) in enumerate(rels):
            seen: Set[str] = set()
            for mod, path in releases.modules(root, releases.PACKAGES[dist].module):
                text = path.read_text(errors="replace")
                if "numpy" not in text and "np." not in text:
                    continue
                hits = {m.group(1) for m in attr.finditer(text)}
                for m in imp.finditer(text):
                    body = m.group(1).split(")")[0] if m.group(1).lstrip().startswith("(") else m.group(1).split("\n")[0]
                    hits |= {w for w in re.findall(r"\w+", body) if w in names}
                for n in hits - seen:
                    at.setdefault(n, mod)
                seen |= hits
            for n in seen:
                used.setdefault(n, []).append(i)
        out[dist] = {"releases": [v for v, _ in rels], "names": used, "at": at}
    return out


def main() -> int:
    gone, prov = removed()
    doc = {
        "provenance": {"made_by": "scripts/upstream/derive_numpy.py (ast over the numpy wheels' __init__.py / "
                                  "__init__.pyi; regex over the consumers' unpacked releases; nothing imported)",
                       "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
                       "numpy": prov, "refresh": "python scripts/upstream/derive_numpy.py"},
        "last_before": OLD, "removed_in": NEW, "names": gone, "uses": uses(set(gone)),
    }
    raw = json.dumps(doc, separators=(",", ":"), sort_keys=True).encode()
    OUT.write_bytes(gzip.compress(raw, mtime=0))
    print(f"[derive_numpy] {len(gone)} names removed in {NEW}; {OUT}: {OUT.stat().st_size} bytes gzip")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
