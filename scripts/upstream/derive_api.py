"""Derive the API history (``src/dsdoctor/knowledge/data/api.json.gz``) from the released sources unpacked by
``releases.py``.

    python scripts/upstream/releases.py            # download / unpack (network; skipped for releases already there)
    python scripts/upstream/derive_api.py          # read every unpacked release, write the data file

For every release read of DeepSpeed, Transformers, Accelerate, PEFT, TRL and torch: which modules exist, each
module's top-level names, each function's / class ``__init__``'s / method's parameters; and what each consumer
release asks of its providers (``from M import X`` and ``X(kw=...)`` with X imported from the provider), each
marked conditional when it runs only after a version or availability check. Everything is stored as index ranges
into the package's list of releases read (``dsdoctor.knowledge.release_spans``). Nothing is imported: ``ast`` only.
"""

from __future__ import annotations

import datetime
import gzip
import hashlib
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any, Dict, List, Optional, Set, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import releases  # noqa: E402
from api_extract import FileApi, extract  # noqa: E402

from dsdoctor.knowledge import api_history, training_args  # noqa: E402
from dsdoctor.knowledge.release_spans import encode  # noqa: E402

OUT = Path(api_history.DATA)
USES = Path(api_history.USES)
LINT = Path(training_args.LINT_DATA)
# the callables every lint run asks the parameters of (lint's part, ``api_lint.json.gz``)
LINT_CALLABLES = ((training_args.MODULE, training_args.INIT),)
# what each package's code asks of which others (the consumer side)
PROVIDERS: Dict[str, Tuple[str, ...]] = {
    "transformers": ("accelerate", "deepspeed", "torch", "peft"),
    "peft": ("transformers", "accelerate", "torch"),
    "trl": ("transformers", "accelerate", "peft", "deepspeed", "torch"),
    "accelerate": ("torch", "deepspeed", "transformers"),
    "deepspeed": ("torch", "transformers"),
    "torch": (),
    "vllm": (),
}
# which modules of a package were read whole (longest prefix wins): only their absence is an answer
COVERS: Dict[str, Dict[str, bool]] = {
    "torch": {"torch": False, "torch.utils": True, "torch.distributed": True, "torch.cuda": True,
              "torch.compiler": True, "torch.optim": True, "torch.nn": True, "torch.amp": True, "torch._dynamo": True},
    "transformers": {"transformers": True, "transformers.models": False, "transformers.models.auto": True},
    # releases.py keeps vLLM's top-level modules, engine/, config/, entrypoints/*.py and v1/engine/ only
    "vllm": {"vllm": False, "vllm.engine": True, "vllm.config": True, "vllm.entrypoints": False,
             "vllm.v1": False, "vllm.v1.engine": True},
}

Release = Dict[str, Any]
_CACHE: Dict[Tuple[str, str, bool], Optional[FileApi]] = {}


def read_release(dist: str, root: Path) -> Dict[str, FileApi]:
    """module -> its API, for one unpacked release (files unchanged since an earlier release are read once)."""
    out: Dict[str, FileApi] = {}
    for mod, path in releases.modules(root, releases.PACKAGES[dist].module):
        data = path.read_bytes()
        key = (hashlib.sha1(data).hexdigest(), mod, path.name == "__init__.py")
        if key not in _CACHE:
            _CACHE[key] = extract(data, mod, key[2], PROVIDERS[dist])
        api = _CACHE[key]
        if api is not None:
            out[mod] = api
    return out


def _names(apis: Dict[str, FileApi]) -> Tuple[Dict[str, Set[str]], Set[str]]:
    """Every module's names (star imports of modules read expanded; submodules are names too) and the open ones."""
    names = {m: set(a.names) for m, a in apis.items()}
    opened = {m for m, a in apis.items() if a.open or any(s not in apis for s in a.stars)}
    for m in apis:
        parent, _, child = m.rpartition(".")
        if parent in names:
            names[parent].add(child)
    for _ in range(4):  # star imports of star imports
        for m, a in apis.items():
            for s in a.stars:
                names[m] |= {n for n in names.get(s, ()) if not n.startswith("_")}
                if s in opened:
                    opened.add(m)
    return names, opened


class Table:
    """Keys -> release indices, for one package."""

    def __init__(self) -> None:
        self.modules: Dict[str, List[int]] = defaultdict(list)
        self.opened: Dict[str, List[int]] = defaultdict(list)
        self.names: Dict[str, Dict[str, List[int]]] = defaultdict(lambda: defaultdict(list))
        self.params: Dict[str, Dict[str, Dict[str, List[int]]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
        self.origins: Dict[str, Dict[str, str]] = defaultdict(dict)
        self.uses: Dict[str, Dict[str, Dict[str, Dict[str, Any]]]] = defaultdict(lambda: defaultdict(dict))

    def add(self, i: int, apis: Dict[str, FileApi]) -> None:
        names, opened = _names(apis)
        for m, a in apis.items():
            self.modules[m].append(i)
            if m in opened:
                self.opened[m].append(i)
            for n in names[m]:
                self.names[m][n].append(i)
            for q, (params, kw) in a.callables.items():
                row = self.params[m][q]
                row[""].append(i)
                for p in params:
                    row[p].append(i)
                if kw:
                    row["**"].append(i)
            for n, src in a.origins.items():
                self.origins[m][n] = src
            self._uses(i, m, a)

    def _uses(self, i: int, m: str, a: FileApi) -> None:
        for mod, name, cond, top in a.imports:
            row = self.uses[mod.split(".")[0]]["imports"].setdefault(f"{mod}:{name}", {"u": [], "c": [], "t": [], "at": m})
            row["c" if cond else "u"].append(i)
            if top and not cond:
                row["t"].append(i)  # unconditional at module level: fails when the module is imported
            row["at"] = m
        for mod, name, kw, cond in a.calls:
            call = self.uses[mod.split(".")[0]]["keywords"].setdefault(f"{mod}:{name}:{kw}", {"u": [], "c": [], "at": m})
            call["c" if cond else "u"].append(i)
            call["at"] = m

    def dump(self) -> Dict[str, Any]:
        enc = encode
        uses = {p: {kind: {k: {"u": enc(sorted(set(v["u"]))), "c": enc(sorted(set(v["c"]) - set(v["u"]))),
                               "t": enc(sorted(set(v.get("t", ())))), "at": v["at"]}
                           for k, v in rows.items()} for kind, rows in kinds.items()} for p, kinds in self.uses.items()}
        return {
            "modules": {m: enc(v) for m, v in self.modules.items()},
            "open": {m: enc(v) for m, v in self.opened.items()},
            "names": {m: {n: enc(v) for n, v in ns.items()} for m, ns in self.names.items()},
            "params": {m: {q: {p: enc(v) for p, v in ps.items()} for q, ps in qs.items()} for m, qs in self.params.items()},
            "origins": {m: dict(o) for m, o in self.origins.items() if o},
            "uses": uses,
        }


def derive(dist: str) -> Tuple[List[str], Dict[str, Any]]:
    read = releases.unpacked(dist)
    table = Table()
    for i, (ver, root) in enumerate(read):
        table.add(i, read_release(dist, root))
        print(f"[derive_api] {dist} {ver}", file=sys.stderr, flush=True)
    return [v for v, _ in read], table.dump()


def _provenance(dist: str, read: List[str]) -> Dict[str, Any]:
    prov = releases.CACHE / dist / "PROVENANCE.json"
    rows = {r["version"]: r for r in json.loads(prov.read_text())} if prov.is_file() else {}
    for v, root in releases.unpacked(dist):
        rows.setdefault(v, json.loads((root / ".source.json").read_text()))
    return {"policy": releases.PACKAGES[dist].policy, "kind": releases.PACKAGES[dist].kind,
            "releases": [rows[v] for v in read]}


def _write(path: Path, doc: Dict[str, Any]) -> None:
    path.write_bytes(gzip.compress(json.dumps(doc, separators=(",", ":"), sort_keys=True).encode(), 9, mtime=0))
    api_history._data.cache_clear()
    api_history._uses_data.cache_clear()
    training_args._lint_data.cache_clear()
    api_history._by_qualname.cache_clear()


def check_rows(packages: Dict[str, Any]) -> Dict[str, Dict[str, List[List[str]]]]:
    """check's part (``api_uses.json.gz``): each unconditional use of a consumer with the provider spans that answer
    it (``api_history.use_row``, reading the data file just written)."""
    out: Dict[str, Dict[str, List[List[str]]]] = {}
    for consumer, p in packages.items():
        for provider, kinds in p["uses"].items():
            if provider not in packages or provider == consumer:
                continue
            for kind, rows in kinds.items():
                for key, row in sorted(rows.items()):
                    r = api_history.use_row(kind, key) if row["u"] else None
                    if r is not None:
                        out.setdefault(consumer, {}).setdefault(provider, []).append(
                            r[:4] + [row["at"], row["u"], row.get("t", "")] + r[4:])
    return out


def write_uses(doc: Dict[str, Any]) -> Dict[str, Any]:
    """Write check's part from the data file's ``doc`` (``--uses-only``: from the file already written)."""
    packages, prov = doc["packages"], doc["provenance"]["packages"]
    head = {d: {"releases": p["releases"], "policy": prov[d]["policy"]} for d, p in packages.items()}
    _write(USES, {"packages": head, "rows": {}})
    uses = {"packages": head, "rows": check_rows(packages), "provenance": doc["provenance"]}
    _write(USES, uses)
    return uses


def write_lint(doc: Dict[str, Any]) -> Dict[str, Any]:
    """Write lint's part from the data file's ``doc``: the rows of ``LINT_CALLABLES`` where they are defined (their
    re-exports followed), as the full history has them."""
    packages = doc["packages"]
    out: Dict[str, Dict[str, Any]] = {}
    for module, qualname in LINT_CALLABLES:
        p = packages.get(module.split(".")[0])
        at = api_history._resolve(p, module, qualname) if p else None
        if p is not None and at is not None:
            out.setdefault(module, {})[qualname] = p["params"][at[0]][at[1]]
    prov = dict(doc["provenance"])
    prov["packages"] = {d: v for d, v in prov["packages"].items() if d in {m.split(".")[0] for m in out}}
    lint = {"params": out, "provenance": prov}
    _write(LINT, lint)
    return lint


def main(argv: List[str]) -> int:
    if argv == ["--uses-only"]:
        doc = json.loads(gzip.decompress(OUT.read_bytes()))
        uses = write_uses(doc)
        write_lint(doc)
        print(f"[derive_api] {USES}: {sum(len(r) for c in uses['rows'].values() for r in c.values())} rows")
        print(f"[derive_api] {LINT}: {LINT.stat().st_size} bytes gzip")
        return 0
    dists = argv or list(releases.PACKAGES)
    packages: Dict[str, Any] = {}
    prov: Dict[str, Any] = {}
    if argv and OUT.is_file():  # some packages only: the others stay as derived before
        old = json.loads(gzip.decompress(OUT.read_bytes()))
        packages, prov = old["packages"], old["provenance"]["packages"]
    for dist in dists:
        read, data = derive(dist)
        if not read:
            print(f"[derive_api] {dist}: no release unpacked, skipped", file=sys.stderr)
            continue
        packages[dist] = {"releases": read, "covers": COVERS.get(dist, {dist: True}), **data}
        prov[dist] = _provenance(dist, read)
    doc = {
        "provenance": {
            "made_by": "scripts/upstream/derive_api.py (ast over the released sources; nothing imported)",
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
            "packages": prov,
            "refresh": "python scripts/upstream/releases.py && python scripts/upstream/derive_api.py",
        },
        "packages": packages,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    raw = json.dumps(doc, separators=(",", ":"), sort_keys=True).encode()
    _write(OUT, doc)
    uses = write_uses(doc)
    write_lint(doc)
    for dist, p in packages.items():
        n_names = sum(len(v) for v in p["names"].values())
        n_call = sum(len(v) for v in p["params"].values())
        n_par = sum(len(q) for v in p["params"].values() for q in v.values())
        n_uses = sum(len(r) for k in p["uses"].values() for r in k.values())
        print(f"[derive_api] {dist}: {len(p['releases'])} releases, {len(p['modules'])} modules, {n_names} names, "
              f"{n_call} callables, {n_par} parameters, {n_uses} uses")
    print(f"[derive_api] {OUT}: {len(raw)} bytes JSON, {OUT.stat().st_size} bytes gzip")
    n_rows = sum(len(r) for c in uses["rows"].values() for r in c.values())
    print(f"[derive_api] {USES}: {n_rows} rows, {USES.stat().st_size} bytes gzip")
    print(f"[derive_api] {LINT}: {LINT.stat().st_size} bytes gzip")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
