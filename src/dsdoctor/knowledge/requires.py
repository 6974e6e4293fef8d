"""What each release of Transformers, Accelerate, PEFT and TRL requires of the packages that constrain it
(huggingface-hub, tokenizers, and each other), derived from the releases' metadata by
``scripts/upstream/derive_requires.py`` into ``data/requires.json.gz`` (provenance inside): a project that pins
``huggingface-hub==0.17.3`` and not transformers can only install the transformers releases that allow it."""

from __future__ import annotations

import functools
from typing import Dict, Mapping, Tuple

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from . import derived_data

DATA = derived_data.path("requires.json.gz")
Requires = Dict[str, Dict[str, Dict[str, str]]]  # package -> release -> requirement -> specifier


@functools.lru_cache(maxsize=1)
def _data() -> Requires:
    got: Requires = derived_data.load(DATA, {"packages": {}})["packages"]
    return got


def constrained(package: str) -> bool:
    """Are the requirements of ``package``'s releases known?"""
    return package in _data()


@functools.lru_cache(maxsize=4096)  # the same pins meet the same requirements in every directory read
def allows(spec: str, version: str) -> bool:
    """Does a parseable ``spec`` allow ``version``? (An unparseable one, e.g. Poetry's ``^0.14``, says nothing.)"""
    try:
        return SpecifierSet(spec).contains(Version(version), prereleases=True)
    except (InvalidSpecifier, InvalidVersion):
        return True  # an unparseable requirement rules nothing out


def installable(package: str, exact: Mapping[str, str]) -> Tuple[str, ...]:
    """The releases of ``package`` (oldest first) that the exact pins ``exact`` (package -> release) leave
    installable: each release's own requirement on a pinned package allows the pinned release, and each pinned
    package's release (where its requirements are known) allows it. Empty where ``package`` is not known."""
    return _installable(package, tuple(sorted(exact.items())))


@functools.lru_cache(maxsize=1024)  # asked again for the same pins in every directory lint reads pins in
def _installable(package: str, pins: Tuple[Tuple[str, str], ...]) -> Tuple[str, ...]:
    exact = dict(pins)
    data = _data()
    mine = data.get(package, {})
    above = [data[q][v][package] for q, v in exact.items() if v in data.get(q, {}) and package in data[q][v]]
    return tuple(r for r in _ordered(package) if all(allows(mine[r][d], v) for d, v in exact.items() if d in mine[r])
                 and all(allows(s, r) for s in above))


@functools.lru_cache(maxsize=8)
def _ordered(package: str) -> Tuple[str, ...]:
    return tuple(sorted(_data().get(package, {}), key=Version))
