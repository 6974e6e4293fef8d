"""Download and unpack released sources of the upstream packages dsdoctor derives knowledge from.

Network only here (never at dsdoctor's run time). ``python scripts/upstream/releases.py [PKG ...]`` fills
``.cache/upstream/<pkg>/<version>/`` with the package's Python files, taken from the release's wheel (an sdist
for DeepSpeed, which ships no wheel; a macOS arm64 wheel for torch, the smallest build that carries the same
Python sources) and writes ``.cache/upstream/<pkg>/PROVENANCE.json``: the archive file name and sha256 per release.

Which releases: for each minor series, its first and last final release (``policy = "ends"``), or every final
release (``"all"``), from ``floor`` on. The derivation scripts read whatever is unpacked here.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple, TypeVar

from packaging.version import Version

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("DSDOCTOR_UPSTREAM_CACHE", ROOT / ".cache" / "upstream"))


@dataclass(frozen=True)
class Package:
    """One upstream project: its PyPI name, import name, the oldest release read, which releases, the archive kind,
    and which of its files (paths relative to the import package's parent) to keep."""

    dist: str
    module: str
    floor: str
    policy: str  # "ends" | "all"
    kind: str  # "wheel" | "sdist" | "mac-wheel"
    keep: Callable[[str], bool]


def _torch_keep(path: str) -> bool:
    parts = path.split("/")
    if not path.endswith(".py") or parts[0] != "torch" or "testing" in parts or "_inductor" in parts:
        return False
    return len(parts) == 2 or parts[1] in ("utils", "distributed", "cuda", "compiler", "optim", "nn", "amp",
                                           "_dynamo", "serialization")


def _py_under(top: str) -> Callable[[str], bool]:
    return lambda p: p.endswith(".py") and p.split("/")[0] == top


def _vllm_keep(path: str) -> bool:
    """vLLM's public surface only (its sdists grow to 50 MB): the top-level modules, the engines, ``vllm.LLM``'s
    module and the config package (the parameters ``LLM(**kwargs)`` hands to ``EngineArgs``)."""
    parts = path.split("/")
    if not path.endswith(".py") or parts[0] != "vllm":
        return False
    return (len(parts) == 2 or parts[1] in ("engine", "config") or (parts[1] == "entrypoints" and len(parts) == 3)
            or parts[1:3] == ["v1", "engine"])


PACKAGES: Dict[str, Package] = {
    "deepspeed": Package("deepspeed", "deepspeed", "0.3.1", "all", "sdist", _py_under("deepspeed")),
    "transformers": Package("transformers", "transformers", "4.0.0", "ends", "wheel",
                            lambda p: _py_under("transformers")(p) and (not p.startswith("transformers/models/")
                                                                        or p.startswith("transformers/models/auto/"))),
    # Accelerate 0.0.1 is a name placeholder (its one file sets __version__): read from it, every API would look
    # "added in 0.1.0" and a method every release has would no longer be told from one a release added
    "accelerate": Package("accelerate", "accelerate", "0.1.0", "ends", "wheel", _py_under("accelerate")),
    "peft": Package("peft", "peft", "0.0.1", "ends", "wheel", _py_under("peft")),
    "trl": Package("trl", "trl", "0.0.1", "ends", "wheel", _py_under("trl")),
    "torch": Package("torch", "torch", "2.0.0", "ends", "mac-wheel", _torch_keep),
    "vllm": Package("vllm", "vllm", "0.4.0", "ends", "sdist", _vllm_keep),
}


def _pip(*args: str) -> subprocess.CompletedProcess[str]:
    # the machine's pip constraints (a torch cap) must not hide releases
    # (PIP_CONFIG_FILE=/dev/null: pip reads no config file, where it is set)
    env = dict(os.environ, PIP_CONFIG_FILE=os.devnull)
    return subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
                          capture_output=True, text=True, timeout=900, env=env)


def released(pkg: Package) -> List[str]:
    """Final releases of ``pkg`` on PyPI from its floor on, oldest first."""
    out = _pip("index", "versions", pkg.dist).stdout
    m = re.search(r"Available versions: (.*)", out)
    if not m:
        raise SystemExit(f"pip index versions {pkg.dist}: no version list ({out[:200]!r})")
    vers = [Version(v.strip()) for v in m.group(1).split(",")]
    return [str(v) for v in sorted(v for v in vers if not v.is_prerelease and v >= Version(pkg.floor))]


def select(versions: Sequence[str], policy: str) -> List[str]:
    """The releases read: all, or the first and last of each minor series."""
    if policy == "all":
        return list(versions)
    series: Dict[Tuple[int, int], List[str]] = {}
    for v in versions:
        series.setdefault(Version(v).release[:2], []).append(v)
    return [x for vs in series.values() for x in sorted({vs[0], vs[-1]}, key=Version)]


def _sdist_url(dist: str, ver: str) -> str:
    """The sdist's address from PyPI's simple index (pip download of an sdist would run its setup.py, which for
    DeepSpeed imports torch and fails for some releases)."""
    with urllib.request.urlopen(f"https://pypi.org/simple/{dist}/", timeout=60) as r:
        page = r.read().decode()
    m = re.search(r'href="([^"#]*/%s-%s\.tar\.gz)' % (re.escape(dist), re.escape(ver)), page)
    if not m:
        raise RuntimeError(f"{dist}=={ver}: no sdist on PyPI")
    return m.group(1)


def _download(pkg: Package, ver: str, into: Path) -> Path:
    if pkg.kind == "sdist":
        url = _sdist_url(pkg.dist, ver)
        target = into / url.rsplit("/", 1)[1]
        with urllib.request.urlopen(url, timeout=300) as r:
            target.write_bytes(r.read())
        return target
    args = ["download", "--no-deps", "-q", "-d", str(into), f"{pkg.dist}=={ver}", "--only-binary=:all:"]
    if pkg.kind == "mac-wheel":
        args += ["--platform", "macosx_11_0_arm64", "--platform", "macosx_14_0_arm64", "--python-version", "3.11"]
    r = _pip(*args)
    files = sorted(into.iterdir())
    if not files:
        raise RuntimeError(f"{pkg.dist}=={ver}: nothing downloaded ({r.stderr[-300:]})")
    return files[0]


def _members(archive: Path) -> List[Tuple[str, bytes]]:
    out: List[Tuple[str, bytes]] = []
    if archive.suffix == ".whl":
        with zipfile.ZipFile(archive) as z:
            out = [(n, z.read(n)) for n in z.namelist() if not n.endswith("/")]
    else:
        with tarfile.open(archive) as t:
            for m in t.getmembers():
                f = t.extractfile(m) if m.isfile() else None
                if f is not None:
                    out.append((m.name.split("/", 1)[1] if "/" in m.name else m.name, f.read()))
    return out


def unpack(pkg: Package, ver: str) -> Dict[str, str]:
    """Make ``CACHE/<pkg>/<ver>/`` (kept files only) unless it is there; its provenance row."""
    dest = CACHE / pkg.dist / ver
    stamp = dest / ".source.json"
    if stamp.is_file():
        return dict(json.loads(stamp.read_text()))
    with tempfile.TemporaryDirectory() as tmp:
        archive = _download(pkg, ver, Path(tmp))
        data = archive.read_bytes()
        for name, body in _members(archive):
            if pkg.keep(name):
                target = dest / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(body)
        row = {"version": ver, "file": archive.name, "sha256": hashlib.sha256(data).hexdigest()}
    dest.mkdir(parents=True, exist_ok=True)
    stamp.write_text(json.dumps(row))
    return row


def unpacked(dist: str) -> List[Tuple[str, Path]]:
    """(version, root) of every release of ``dist`` unpacked in the cache, oldest first."""
    base = CACHE / dist
    vers = [p.name for p in base.iterdir() if (p / ".source.json").is_file()] if base.is_dir() else []
    return [(v, base / v) for v in sorted(vers, key=Version)]


def modules(root: Path, top: str) -> List[Tuple[str, Path]]:
    """(dotted module name, file) of every ``.py`` file under ``root/top`` (``pkg/__init__.py`` is ``pkg``)."""
    out = []
    for path in sorted((root / top).rglob("*.py")):
        rel = path.relative_to(root).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        out.append((".".join(parts), path))
    return out


def read_each(dist: str, read: Callable[[Path], Optional[T]], tag: str, missing: str
              ) -> Tuple[List[str], List[Dict[str, str]], List[T]]:
    """``read`` applied to every unpacked release of ``dist``, oldest first: (the releases it read, their
    ``.source.json`` (archive, sha256), its results); a release it answers None for is skipped, with
    ``[tag] dist ver: missing, skipped`` on stderr."""
    vers: List[str] = []
    sources: List[Dict[str, str]] = []
    results: List[T] = []
    for ver, root in unpacked(dist):
        got = read(root)
        if got is None:
            print(f"[{tag}] {dist} {ver}: {missing}, skipped", file=sys.stderr)
            continue
        vers.append(ver)
        sources.append(json.loads((root / ".source.json").read_text()))
        results.append(got)
    return vers, sources, results


def write_data(out: Path, script: str, package: str, sources: List[Dict[str, str]], body: Dict[str, object],
               **about: object) -> int:
    """Write a derived data file: gzip'd compact JSON with sorted keys and no timestamp (the same input gives the
    same bytes), ``body`` beside its ``provenance`` (the script, the package, ``about`` such as the files read, the
    releases read with their archives' sha256 from ``.source.json``, the date, how to refresh). Its size."""
    import datetime
    import gzip

    doc = dict(body, provenance=dict(about, script=script, package=package, releases=sources,
                                     made=datetime.date.today().isoformat(),
                                     refresh=f"python scripts/upstream/releases.py {package} && python {script}"))
    out.write_bytes(gzip.compress(json.dumps(doc, separators=(",", ":"), sort_keys=True).encode(), mtime=0))
    return out.stat().st_size


def main(argv: Sequence[str]) -> int:
    names = list(argv) or list(PACKAGES)
    for name in names:
        pkg = PACKAGES[name]
        chosen = select(released(pkg), pkg.policy)
        rows = []
        for ver in chosen:
            try:
                rows.append(unpack(pkg, ver))
            except Exception as exc:  # a release without a fitting archive is reported and skipped
                print(f"[upstream] {pkg.dist} {ver}: skipped ({exc})", file=sys.stderr)
        (CACHE / pkg.dist).mkdir(parents=True, exist_ok=True)
        (CACHE / pkg.dist / "PROVENANCE.json").write_text(json.dumps(rows, indent=1))
        print(f"[upstream] {pkg.dist}: {len(rows)} releases ({rows[0]['version'] if rows else '-'}"
              f"..{rows[-1]['version'] if rows else '-'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

