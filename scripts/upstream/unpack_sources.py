"""Provision the released sources tests/test_regressions.py reads, in ``.cache/upstream/<dist>/<version>/``.

    python scripts/upstream/unpack_sources.py        # scripts/test.sh runs it; a second run downloads nothing

Which releases is derived, never listed: for each row of ``dsdoctor.knowledge.regressions`` (its package's releases
around the bug: the release read before ``first``, ``first``, ``last`` and ``fixed``), and for each torch bound a
row ``needs`` (``("torch", "<2.4")``: the release read before the bound and the first one from it). "Read" is the
API history's list of releases (``knowledge.api_history.releases``: what ``releases.py`` selects). Each release is
downloaded and unpacked by ``releases.unpack`` (the same archive kinds, files kept and ``.source.json`` stamp as a
full ``releases.py`` run: a cache one of them filled serves the other), then the archive is dropped; a release
already unpacked costs a stat. Network only here: PyPI, through pip for wheels and PyPI's simple index for sdists.
"""

from __future__ import annotations

import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

from packaging.specifiers import SpecifierSet
from packaging.version import Version

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import releases  # noqa: E402

from dsdoctor.knowledge import api_history as H  # noqa: E402
from dsdoctor.knowledge import regressions as R  # noqa: E402


def _before(dist: str, ver: str) -> Optional[str]:
    """The newest release of ``dist`` read before ``ver`` (None when ``ver`` is older than every one)."""
    older = [v for v in H.releases(dist) if Version(v) < Version(ver)]
    return max(older, key=Version) if older else None


def _torch_bounds() -> Set[str]:
    """For each upper bound on torch a row needs (``<X``): the release read before it and the first from it."""
    out: Set[str] = set()
    read = sorted(H.releases("torch"), key=Version)
    for row in R.ALL:
        for pkg, spec in row.needs:
            if pkg != "torch" or not spec.startswith("<"):
                continue
            inside = [v for v in read if Version(v) in SpecifierSet(spec)]
            outside = [v for v in read if Version(v) not in SpecifierSet(spec)]
            out.update(v for v in (inside[-1:] + outside[:1]))
    return out


def wanted() -> Dict[str, List[str]]:
    """dist -> the releases tests/test_regressions.py reads, oldest first."""
    want: Dict[str, Set[str]] = {}
    for row in R.ALL:
        vers = {row.first, row.last, row.fixed, _before(row.package, row.first)}
        want.setdefault(row.package, set()).update(v for v in vers if v)
    want["torch"] = _torch_bounds()
    return {d: sorted(vs, key=Version) for d, vs in sorted(want.items())}


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def _one(dist: str, ver: str) -> Tuple[str, str, str]:
    try:
        releases.unpack(releases.PACKAGES[dist], ver)
        return dist, ver, ""
    except Exception as exc:  # reported together at the end: one release must not hide the others
        return dist, ver, str(exc)


def main() -> int:
    t0 = time.monotonic()
    todo = [(d, v) for d, vs in wanted().items() for v in vs]
    missing = [(d, v) for d, v in todo if not (releases.CACHE / d / v / ".source.json").is_file()]
    # downloads wait on the network, not the CPU: a few at once
    with ThreadPoolExecutor(max_workers=int(os.environ.get("DSDOCTOR_UPSTREAM_JOBS", "6"))) as pool:
        results = list(pool.map(lambda dv: _one(*dv), missing))
    failed = [f"{d} {v}: {err}" for d, v, err in results if err]
    size = _size(releases.CACHE) if releases.CACHE.is_dir() else 0
    print(f"[unpack-sources] {len(todo)} releases ({len(missing)} downloaded) in {releases.CACHE}: "
          f"{time.monotonic() - t0:.1f} s, {size / 1e6:.0f} MB")
    for line in failed:
        print(f"[unpack-sources] FAILED {line}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
