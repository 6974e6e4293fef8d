"""The API history of DeepSpeed, Transformers, Accelerate, PEFT, TRL and torch, read from their released sources
(``data/api.json.gz``, made by ``scripts/upstream/derive_api.py``; see docs/upstream-data.md): which releases read
have each module, public name and function parameter, and what each consumer release imports from, or passes as a
keyword to, another package. Loaded on first use (only the commands that ask read it), then cached. Every answer
is about the releases read: outside them, or between two that disagree, it is None (unknown), never a guess.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Dict, FrozenSet, List, Optional, Tuple

from packaging.version import InvalidVersion, Version

from . import derived_data
from .release_spans import Span, decode

DATA = derived_data.path("api.json.gz")
USES = derived_data.path("api_uses.json.gz")  # check's part: each use, with the spans that answer it
_TESTS = ("tests", "test", "testing", "test_utils")  # a consumer's own test code (accelerate.test_utils.scripts...)


@functools.lru_cache(maxsize=1)
def _data() -> Dict[str, Any]:
    return derived_data.load(DATA, {"packages": {}, "provenance": {}})


def _pkg(package: str) -> Optional[Dict[str, Any]]:
    return _data()["packages"].get(package)  # type: ignore[no-any-return]


def packages() -> List[str]:
    """The packages whose releases were read."""
    return sorted(_uses_data()["packages"])


def provenance() -> Dict[str, Any]:
    """How the data was made: the script, the releases read (archive, sha256), the date, how to refresh."""
    return _data()["provenance"]  # type: ignore[no-any-return]


def releases(package: str) -> Tuple[str, ...]:
    """The releases of ``package`` read, oldest first (empty when none); from the small file, as check needs."""
    p = _uses_data()["packages"].get(package)
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
    got = params(module, qualname)
    return None if got is None else got.get("") or _span(module.split(".")[0], "")


@functools.lru_cache(maxsize=4096)
def params(module: str, qualname: str) -> Optional[Dict[str, Span]]:
    """Each parameter some release read of ``module.qualname`` takes (``"**"``: **kwargs; ``""``: the callable
    itself), with the releases that take it; None where no release read defines it. Cached: do not change it."""
    p = _pkg(module.split(".")[0])
    at = _resolve(p, module, qualname) if p else None
    return None if p is None or at is None else \
        {k: _span(module.split(".")[0], v) for k, v in p["params"][at[0]][at[1]].items()}


def param_span(module: str, qualname: str, param: str) -> Optional[Span]:
    """The releases read whose ``module.qualname`` takes ``param`` (``"**"``: takes **kwargs)."""
    got = params(module, qualname)
    return None if got is None else got.get(param) or _span(module.split(".")[0], "")


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


def methods_named(name: str) -> List[Tuple[str, str]]:
    """Every (module, ``Class.name``) defining a method ``name`` on a class of its own."""
    return [row for q, rows in _by_qualname().items() if q.count(".") == 1 and q.endswith("." + name) for row in rows]


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


def exact_step(package: str, before: str, after: str) -> bool:
    """Whether no release lies between ``before`` and ``after`` (both read, ``after`` the next one read): true for
    a package whose every release was read, or across two adjacent minor series of one read at their ends."""
    policy = (_uses_data()["packages"].get(package) or {}).get("policy")
    if policy is None:
        return False
    if policy == "all":
        return True
    b, a = (Version(before).release + (0, 0))[:2], (Version(after).release + (0, 0))[:2]
    # the next minor series (or the next major's first): a series none of whose releases was read (vLLM 0.15 has
    # no sdist) lies between two that are not adjacent
    return a == (b[0], b[1] + 1) or (a[0] == b[0] + 1 and a[1] == 0)


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
    at = (_place(span.package, version) or (-1, False))[0]  # the newest release read at or below it
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
    at_import: bool = False  # an import at the top of the consumer's module: it fails when that module is imported

    @property
    def certain(self) -> bool:
        """Whether the failure is as good as certain: an import the module runs when imported, or a keyword passed
        to the provider's top-level API (``from accelerate import Accelerator``) in a call the consumer's maintainers
        changed within the releases read (a live call on the main path, not a corner such as an elastic agent)."""
        if self.kind == "keyword":
            return "." not in self.module and bool(self.consumer_fixed or self.consumer_started)
        return self.at_import

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


def _asks(u: str, consumer: str, version: str) -> Optional[Tuple[str, str]]:
    """(first release from which on it no longer asks, first release of the run that asks) when ``version`` asks
    unconditionally (``u``: the releases that do); None otherwise or when unknown."""
    if _has(consumer, u, version) is not True:
        return None
    read = releases(consumer)
    span = _span(consumer, u)
    used = {i for lo, hi in span.ranges for i in range(lo, hi + 1)}
    at = (_place(consumer, version) or (-1, False))[0]
    fixed = max(used) + 1
    start = at
    while start - 1 in used:
        start -= 1
    return (read[fixed] if fixed < len(read) and fixed > at else "", read[start] if start > 0 else "")


@functools.lru_cache(maxsize=64)
def _place(package: str, version: str) -> Optional[Tuple[int, bool]]:
    """(index of the newest release read at or below ``version``, whether it is that release); None outside."""
    read = releases(package)
    try:
        ver = Version(version)
    except InvalidVersion:
        return None
    vers = [Version(v) for v in read]
    if not vers or ver < vers[0] or ver > vers[-1]:
        return None
    below = max(i for i, v in enumerate(vers) if v <= ver)
    return below, vers[below] == ver


@functools.lru_cache(maxsize=8192)
def _members(text: str) -> FrozenSet[int]:
    return frozenset(i for lo, hi in decode(text) for i in range(lo, hi + 1))


def _has(package: str, text: str, version: str) -> Optional[bool]:
    """``Span.has`` for a stored range text, with the release list parsed once per package and version."""
    place = _place(package, version)
    if place is None:
        return None
    inside = _members(text)
    below, exact = place
    if exact or (below in inside) == (below + 1 in inside):
        return below in inside
    return None


def _lacking(kind: str, texts: List[str], provider: str, pv: str) -> Optional[Tuple[str, Span]]:
    """(kind, the span of what is lacking) when the provider release ``pv`` lacks what a row of
    ``api_uses.json.gz`` asks for (``texts``: the row's spans, see :func:`use_row`)."""
    has = [_has(provider, t, pv) for t in texts]
    if kind in ("module", "import") and has[0] is False:
        return "module", _span(provider, texts[0])
    if kind == "import" and has[1] is False and has[2] is False and has[3] is not True:
        return "import", _span(provider, texts[1])
    if kind == "keyword" and has[0] is True and has[2] is False and has[1] is False:
        return "keyword", _span(provider, texts[1])
    return None


def use_row(kind: str, key: str) -> Optional[List[str]]:
    """What a consumer's import (``module:name``) or keyword (``module:name:keyword``) needs of its provider, as
    the spans that answer it (derive_api.py stores these rows in ``api_uses.json.gz``, which is all that
    :func:`incompatible` reads): ``[kind, module, name, keyword, module, name, open, submodule]`` for an import,
    ``[kind, module, qualname, keyword, callable, parameter, **kwargs]`` for a keyword; None when the history
    cannot answer (a package not read, a module not covered, a callable not found)."""
    if kind == "imports":
        module, name = key.split(":")
        mspan = module_span(module)
        if mspan is None:
            return None
        if not name:
            return ["module", module, "", "", _enc(mspan), "", "", ""]
        nspan = name_span(module, name)
        sub = module_span(f"{module}.{name}")
        return ["import", module, name, "", _enc(mspan), _enc(nspan), _enc(open_span(module)), _enc(sub)]
    module, name, kw = key.split(":")
    for qual in (f"{name}.__init__", name):
        cspan = callable_span(module, qual)
        if cspan is not None:
            return ["keyword", module, qual.replace(".__init__", ""), kw, _enc(cspan),
                    _enc(param_span(module, qual, kw)), _enc(param_span(module, qual, "**"))]
    return None


def _enc(span: Optional[Span]) -> str:
    return ",".join(f"{lo}-{hi}" for lo, hi in span.ranges) if span is not None else ""


@functools.lru_cache(maxsize=1)
def _uses_data() -> Dict[str, Any]:
    return derived_data.load(USES, {"packages": {}, "rows": {}})


def incompatible(installed: Dict[str, str]) -> List[Incompatibility]:
    """Every unconditional import or keyword that an installed consumer release (``installed``: package ->
    version) makes and the installed provider release lacks; both versions must be answerable from the releases
    read (else nothing is said). Reads only the small ``api_uses.json.gz``."""
    out: List[Incompatibility] = []
    for consumer, cv in sorted(installed.items()):
        for provider, rows in sorted(_uses_data()["rows"].get(consumer, {}).items()):
            pv = installed.get(provider)
            if pv is None:
                continue
            for row in rows:  # [kind, module, name, keyword, at, u, t, *spans]
                if any(part in _TESTS or part.startswith("test_") for part in row[4].split(".")):
                    continue  # a package's own tests and test scripts are not what a training run imports
                hit = _lacking(row[0], row[7:], provider, pv) if _has(consumer, row[5], cv) else None
                asks = _asks(row[5], consumer, cv) if hit is not None else None
                if hit is None or asks is None:
                    continue
                kind, span = hit
                out.append(Incompatibility(consumer, cv, provider, pv, kind, row[1], row[2], row[3], row[4],
                                           change_near(span, pv), *asks, at_import=_has(consumer, row[6], cv) is True))
    return out
