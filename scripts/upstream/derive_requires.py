"""Derive what each release of the packages lint reads pins of requires of the packages that constrain them
(``src/dsdoctor/knowledge/data/requires.json.gz``, read by ``dsdoctor.knowledge.requires``).

    python scripts/upstream/derive_requires.py      # asks the package index (network), writes the data file

For every final release of transformers, accelerate, peft and trl that the index lists (``pip index versions``),
``pip install --dry-run --no-deps --ignore-installed --report`` reads the release's metadata (its ``Requires-Dist``,
served beside the wheel: nothing is installed, the wheel itself is not downloaded where the index serves the
metadata file) and keeps the specifier of each requirement without an extra or a marker on one of ``DEPS``
(``huggingface-hub<1.0,>=0.16.4``). A project that pins ``huggingface-hub==0.17.3`` and not transformers can only
install the transformers releases whose requirement allows 0.17.3.
"""

from __future__ import annotations

import datetime
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, List, Optional

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

OUT = Path(__file__).resolve().parents[2] / "src" / "dsdoctor" / "knowledge" / "data" / "requires.json.gz"
PACKAGES = ("transformers", "accelerate", "peft", "trl")
DEPS = ("huggingface-hub", "tokenizers", "transformers", "accelerate", "torch", "peft")
_ENV = dict(os.environ, PIP_CONFIG_FILE=os.devnull)  # the machine's pip constraints must not hide releases


def _versions(package: str) -> List[str]:
    p = subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "index", "versions", package],
                       capture_output=True, text=True, timeout=300, env=_ENV)
    m = re.search(r"Available versions: (.*)", p.stdout)
    out = []
    for v in (m.group(1).split(", ") if m else []):
        try:
            if not Version(v).is_prerelease:
                out.append(v)
        except InvalidVersion:
            continue
    return sorted(out, key=Version)


def _requires(package: str, version: str) -> Optional[Dict[str, str]]:
    """The specifiers of ``DEPS`` the release requires unconditionally; None where its metadata cannot be read."""
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "r.json")
        p = subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "install", "-q", "--dry-run",
                            "--no-deps", "--ignore-installed", "--report", report, f"{package}=={version}"],
                           capture_output=True, text=True, timeout=600, env=_ENV)
        if p.returncode != 0 or not os.path.isfile(report):
            return None
        with open(report, encoding="utf-8") as fh:
            items = json.load(fh)["install"]
    out: Dict[str, str] = {}
    for raw in items[0]["metadata"].get("requires_dist") or []:
        try:
            req = Requirement(raw)
        except InvalidRequirement:
            continue
        name = canonicalize_name(req.name)
        if req.marker is None and name in DEPS:
            out[name] = str(req.specifier)
    return out


def main() -> int:
    data: Dict[str, Dict[str, Dict[str, str]]] = {}
    missing: Dict[str, List[str]] = {}
    for package in PACKAGES:
        versions = _versions(package)
        with ThreadPoolExecutor(max_workers=8) as pool:
            got = list(pool.map(lambda v, pkg=package: _requires(pkg, v), versions))  # type: ignore[misc]
        data[package] = {v: r for v, r in zip(versions, got) if r is not None}
        missing[package] = [v for v, r in zip(versions, got) if r is None]
        print(f"{package}: {len(data[package])} releases read, {len(missing[package])} unreadable", file=sys.stderr)
    provenance = {"script": "scripts/upstream/derive_requires.py", "derived": datetime.date.today().isoformat(),
                  "source": "each final release's Requires-Dist (pip install --dry-run --no-deps --report)",
                  "deps": list(DEPS), "unreadable": missing}
    with gzip.open(OUT, "wt", encoding="utf-8") as fh:
        json.dump({"packages": data, "provenance": provenance}, fh, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
