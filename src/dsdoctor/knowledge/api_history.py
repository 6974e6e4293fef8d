"""The API history of DeepSpeed, Transformers, Accelerate, PEFT, TRL and torch, read from their released sources
(``data/api.json.gz``, made by ``scripts/upstream/derive_api.py``; see docs/upstream-data.md): which releases read
have each module, public name and function parameter, and what each consumer release imports from, or passes as a
keyword to, another package. Loaded on first use (only the commands that ask read it), then cached.

Every answer is about the releases read: a version outside them, or between two releases read that disagree, is
``None`` (unknown), never a guess.
"""

from __future__ import annotations

import functools
import gzip
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from packaging.version import InvalidVersion, Version

from .release_spans import Span

DATA = Path(__file__).resolve().parent / "data" / "api.json.gz"


@functools.lru_cache(maxsize=1)
def _data() -> Dict[str, Any]:
    try:
        doc: Dict[str, Any] = json.loads(gzip.decompress(DATA.read_bytes()))
    except (OSError, ValueError):
        return {"packages": {}, "provenance": {}}
    return doc


def _pkg(package: str) -> Optional[Dict[str, Any]]:
    p: Optional[Dict[str, Any]] = _data()["packages"].get(package)
    return p


def packages() -> List[str]:
    """The packages whose releases were read."""
    return sorted(_data()["packages"])


def provenance() -> Dict[str, Any]:
    """How the data was made: the script, the releases read (archive, sha256), the date, how to refresh."""
    prov: Dict[str, Any] = _data()["provenance"]
    return prov


def releases(package: str) -> Tuple[str, ...]:
    """The releases of ``package`` read, oldest first (empty when none)."""
    p = _pkg(package)
    return tuple(p["releases"]) if p else ()


def uses(consumer: str) -> Dict[str, Dict[str, Dict[str, Dict[str, str]]]]:
    """What ``consumer``'s releases ask of each provider: ``{provider: {"imports" | "keywords": {key: row}}}``; a
    key is ``module:name`` or ``module:name:keyword``, a row holds the releases that ask it unconditionally
    (``u``), only after a version or availability check (``c``), and the consumer module that asks (``at``)."""
    p = _pkg(consumer)
    return dict(p["uses"]) if p else {}


def _span(package: str, text: str) -> Span:
    return Span.of(package, releases(package), text)


def covered(module: str) -> bool:
    """Whether every release read holds all of ``module`` (its package's kept files; torch keeps some subpackages,
    Transformers none of ``models/*`` but ``models/auto``): only then is its absence an answer."""
    p = _pkg(module.split(".")[0])
    if p is None:
        return False
    covers: Dict[str, bool] = p["covers"]
    parts = module.split(".")
    for i in range(len(parts), 0, -1):
        hit = covers.get(".".join(parts[:i]))
        if hit is not None:
            return hit or (i == len(parts) and module in p["modules"])
    return False


def module_span(module: str) -> Optional[Span]:
    """The releases read that have ``module``; None when its package was not read or the module not covered."""
    p = _pkg(module.split(".")[0])
    if p is None or not (covered(module) or module in p["modules"]):
        return None
    return _span(module.split(".")[0], p["modules"].get(module, ""))


def open_span(module: str) -> Span:
    """The releases whose ``module`` may have names nobody can read (a star import of an unread module, a module
    ``__getattr__``, a lazy module built at import): a name missing there is not known to be missing."""
    p = _pkg(module.split(".")[0]) or {"open": {}}
    return _span(module.split(".")[0], p["open"].get(module, ""))


def name_span(module: str, name: str) -> Optional[Span]:
    """The releases read whose ``module`` has the top-level ``name`` (or a submodule of that name)."""
    p = _pkg(module.split(".")[0])
    if p is None or module_span(module) is None:
        return None
    return _span(module.split(".")[0], p["names"].get(module, {}).get(name, ""))


def _resolve(package: Dict[str, Any], module: str, qualname: str) -> Optional[Tuple[str, str]]:
    """(module, qualname) where a callable reached as ``module.qualname`` is defined (following re-exports)."""
    head, _, rest = qualname.partition(".")
    for _ in range(6):
        if qualname in package["params"].get(module, {}):
            return module, qualname
        origin = package["origins"].get(module, {}).get(head)
        if origin is None or origin == module:
            return None
        module = origin
    return None


def callable_span(module: str, qualname: str) -> Optional[Span]:
    """The releases read that define the function / method ``module.qualname`` (re-exports followed)."""
    p = _pkg(module.split(".")[0])
    at = _resolve(p, module, qualname) if p else None
    if p is None or at is None:
        return None
    return _span(module.split(".")[0], p["params"][at[0]][at[1]].get("", ""))


def param_span(module: str, qualname: str, param: str) -> Optional[Span]:
    """The releases read whose ``module.qualname`` takes ``param`` (``"**"``: takes **kwargs)."""
    p = _pkg(module.split(".")[0])
    at = _resolve(p, module, qualname) if p else None
    if p is None or at is None:
        return None
    return _span(module.split(".")[0], p["params"][at[0]][at[1]].get(param, ""))


@functools.lru_cache(maxsize=1)
def _by_qualname() -> Dict[str, List[Tuple[str, str]]]:
    out: Dict[str, List[Tuple[str, str]]] = {}
    for p in _data()["packages"].values():
        for module, quals in p["params"].items():
            for q in quals:
                out.setdefault(q, []).append((module, q))
    return out


def callables_named(qualname: str) -> List[Tuple[str, str]]:
    """Every (module, qualname) defining ``qualname`` as Python prints it in a TypeError (``Accelerator.__init__``,
    ``deepspeed_init``)."""
    return list(_by_qualname().get(qualname, ()))


def class_named(cls: str) -> List[Tuple[str, str]]:
    """Every (module, class) named ``cls`` (a class with at least one method read)."""
    return sorted({(m, q.split(".")[0]) for m, q in callables_named(f"{cls}.__init__")})


def lacks(span: Span, version: str, module: str = "") -> Optional[bool]:
    """Whether ``version`` lacks what ``span`` holds: True / False, None when unknown (outside the releases read, an
    unread name-source of ``module`` in that release)."""
    has = span.has(version)
    if has is None:
        return None
    if not has and module and open_span(module).has(version) is not False:
        return None
    return not has


def _index(read: Tuple[str, ...], version: str) -> int:
    """Index of the newest release read at or below ``version`` (-1 below all)."""
    try:
        ver = Version(version)
    except InvalidVersion:
        return -1
    return max((i for i, v in enumerate(read) if Version(v) <= ver), default=-1)


def exact_step(package: str, before: str, after: str) -> bool:
    """Whether no release lies between ``before`` and ``after`` (both read, ``after`` the next one read): true for
    a package whose every release was read, or across two minor series of one read at their ends."""
    p = _pkg(package)
    policy = (provenance().get("packages", {}).get(package) or {}).get("policy")
    if p is None or policy is None:
        return False
    return policy == "all" or Version(before).release[:2] != Version(after).release[:2]


@dataclass(frozen=True)
class Change:
    """Where something changed around an installed ``version``: ``last_with`` (the newest release read below it
    that has it) and ``first_without`` (the next release read, which lacks it) for a removal; ``first_with`` for
    an addition after ``version``; ``exact`` when no release lies between the two releases read."""

    kind: str  # "removed" | "added"
    before: str  # the last release read on the old side
    after: str  # the first release read on the new side
    exact: bool

    @property
    def when(self) -> str:
        return self.after if self.exact else f"after {self.before}, by {self.after}"


def change_near(span: Span, version: str) -> Optional[Change]:
    """For a ``version`` that lacks what ``span`` holds: the removal below it or the addition above it."""
    read = span.read
    at = _index(read, version)
    inside = {i for lo, hi in span.ranges for i in range(lo, hi + 1)}
    below = [i for i in inside if i <= at]
    above = [i for i in inside if i > at]
    if below:
        i = max(below)
        if i + 1 < len(read):
            return Change("removed", read[i], read[i + 1], exact_step(span.package, read[i], read[i + 1]))
    if above:
        j = min(above)
        if j > 0:
            return Change("added", read[j - 1], read[j], exact_step(span.package, read[j - 1], read[j]))
    return None


@dataclass(frozen=True)
class Incompatibility:
    """One import or keyword that the installed ``consumer`` release makes, unconditionally, and the installed
    ``provider`` release lacks (``kind``: ``module`` | ``import`` | ``keyword``)."""

    consumer: str
    consumer_version: str
    provider: str
    provider_version: str
    kind: str
    module: str
    name: str
    keyword: str
    at: str  # the consumer's module that asks
    change: Optional[Change]
    consumer_fixed: str = ""  # the first consumer release read from which on it no longer asks (an upgrade fixes it)
    consumer_started: str = ""  # the first consumer release read that asks it (a release below does not)

    @property
    def asked(self) -> str:
        """``calls `Accelerator(dispatch_batches=...)``` / ``imports `X` from `M```."""
        if self.kind == "keyword":
            return f"calls `{self.name}({self.keyword}=...)` (`{self.module}`)"
        if self.kind == "module" and not self.name:
            return f"imports the module `{self.module}`"
        return f"imports `{self.name}` from `{self.module}`"

    @property
    def missing(self) -> str:
        """What the provider did, in words: ``removed in accelerate 1.0.0 (0.34.2 is the last release read that has
        it)``."""
        what = f"`{self.module}`" if self.kind == "module" else "it"
        c = self.change
        if c is None:
            return f"{self.provider} {self.provider_version} does not have {what}"
        if c.kind == "removed":
            return (f"{what} was removed in {self.provider} {c.when} ({c.before} is the last release read that has "
                    f"it)")
        return f"{what} was added in {self.provider} {c.when} ({c.before} and older releases read lack it)"

    def pins(self) -> List[str]:
        """Requirements that fit the two together: the provider's, then the consumer's."""
        out: List[str] = []
        c = self.change
        if c is not None:
            out.append(f"{self.provider}<{c.after}" if c.kind == "removed" and c.exact else
                       f"{self.provider}<={c.before}" if c.kind == "removed" else f"{self.provider}>={c.after}")
        if self.consumer_fixed:
            out.append(f"{self.consumer}>={self.consumer_fixed}")
        elif self.consumer_started and c is not None and c.kind == "added":
            out.append(f"{self.consumer}<{self.consumer_started}")
        return out


def _asks(row: Dict[str, str], consumer: str, version: str) -> Optional[Tuple[str, str]]:
    """(first release from which on it no longer asks, first release of the run that asks) when ``version`` asks
    unconditionally; None otherwise or when unknown."""
    read = releases(consumer)
    if _span(consumer, row["u"]).has(version) is not True:
        return None
    used = {i for lo, hi in _span(consumer, row["u"]).ranges for i in range(lo, hi + 1)}
    at = _index(read, version)
    fixed = max(used) + 1
    start = at
    while start - 1 in used:
        start -= 1
    return (read[fixed] if fixed < len(read) and fixed > at else "", read[start] if start > 0 else "")


def _lacking(kind: str, key: str, provider: str, pv: str) -> Optional[Tuple[str, str, str, str, Span]]:
    """(kind, module, name, keyword, span of what is lacking) when ``pv`` lacks what ``key`` asks for."""
    p = _pkg(provider)
    assert p is not None
    if kind == "imports":
        module, name = key.split(":")
        mspan = module_span(module)
        if mspan is None:
            return None
        if lacks(mspan, pv):
            return "module", module, name, "", mspan
        nspan = name_span(module, name) if name else None
        if nspan is None or not lacks(nspan, pv, module) or (module_span(f"{module}.{name}") or mspan).has(pv):
            return None
        return "import", module, name, "", nspan
    module, name, kw = key.split(":")
    for qual in (f"{name}.__init__", name):
        cspan = callable_span(module, qual)
        if cspan is None or cspan.has(pv) is not True:
            continue
        kwargs = param_span(module, qual, "**")
        pspan = param_span(module, qual, kw)
        if pspan is None or kwargs is None or kwargs.has(pv) is not False or lacks(pspan, pv) is not True:
            return None
        return "keyword", module, qual.replace(".__init__", ""), kw, pspan
    return None


def incompatible(installed: Dict[str, str]) -> List[Incompatibility]:
    """Every unconditional import or keyword that an installed consumer release (``installed``: package ->
    version) makes and the installed provider release lacks; both versions must be answerable from the releases
    read (else nothing is said)."""
    out: List[Incompatibility] = []
    for consumer, cv in sorted(installed.items()):
        c = _pkg(consumer)
        if c is None:
            continue
        for provider, kinds in sorted(c["uses"].items()):
            pv = installed.get(provider)
            if pv is None or provider == consumer or _pkg(provider) is None:
                continue
            for kind, rows in sorted(kinds.items()):
                for key, row in sorted(rows.items()):
                    asks = _asks(row, consumer, cv)
                    hit = _lacking(kind, key, provider, pv) if asks is not None else None
                    if hit is None or asks is None:
                        continue
                    k, module, name, kw, span = hit
                    out.append(Incompatibility(consumer, cv, provider, pv, k, module, name, kw, row["at"],
                                               change_near(span, pv), *asks))
    return out
