"""The versions a repository pins, and what lint may assume from them.

Without ``--python`` / ``--ds-version`` / ``--target``, lint judges its version-dependent rules for the DeepSpeed
(and Transformers) the project pins rather than for whatever is installed where dsdoctor runs. The files are
those of the project directory (:func:`project_dir`): requirements files, ``setup.py``, ``setup.cfg``,
``pyproject.toml``, ``environment.yml``, README install lines and the ``pip install`` lines of shell scripts
(:mod:`dsdoctor.lint.pin_files` reads them). A file's nearest pins judge it (:class:`Near`): a launch script in a
subdirectory that installs ``deepspeed==0.9.1`` pins the files of its directory, the entry and config beside it.

Only an exact pin (``==X``; conda's ``=X.Y.Z``) is assumed as the one release. A range (``>=``, ``<``, ``~=``,
``!=``, combined, across files) names no single release: for Transformers lint judges its version-ranged script
rules for every release the range allows (:attr:`Pinned.allowed`: the releases dsdoctor's knowledge read,
``knowledge/api_history.releases``), quiet where none of them has the problem, at the rule's severity where all
do, and as for an unknown version (a warning naming the range) where they disagree. Exact pins that disagree
(with each other or with a range of another file) are reported and nothing is assumed either (their releases
are judged the same way).
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Set, Tuple

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from ..knowledge.requires import allows
from .dir_glob import Listing, matches
from .pin_files import CONSTRAINING, PACKAGES, Pin
from .pin_implied import implied
from .pin_own import OWN_FILES
from .pin_readers import READERS

if TYPE_CHECKING:
    from .target import Usage

__all__ = ["LISTED", "PACKAGES", "Near", "Pin", "Pinned", "allowed_releases", "apply_near", "project_dir", "project_pins", "read_pins", "resolve"]

@dataclass(frozen=True)
class Pinned:
    """What the project's files say of one package: ``version`` the release lint may assume (None when the
    files give no single release), ``pins`` every mention read, ``why`` when nothing is assumed
    (``"range"``, ``"conflicting pins"``, ``"not pinned"``, ``"installed from a URL"``)."""

    package: str
    version: Optional[str]
    pins: Tuple[Pin, ...] = field(default_factory=tuple)
    why: str = ""
    via: str = ""  # the exact pins of other packages that imply its range (``huggingface-hub==0.17.3``)

    @property
    def source(self) -> str:
        """Where the assumed version is written (``requirements.txt:3``)."""
        exact = [p for p in self.pins if _exact(p.spec) == self.version]
        return exact[0].where if exact else ""

    def describe(self) -> str:
        """``deepspeed 0.17.1 (requirements.txt:3)``, ``deepspeed>=0.12 (range; setup.py:9)``, ..."""
        if self.version:
            return f"{self.package} {self.version} ({self.source})"
        groups: Dict[str, List[str]] = {}
        for p in self.pins:  # one entry per spec: a README repeats its install line in every section
            groups.setdefault(p.spec, []).append(p.where)
        shown = {spec: wheres[0] + (f", +{len(wheres) - 1} more" if len(wheres) > 1 else "")
                 for spec, wheres in groups.items()}
        if self.via:
            return ", ".join(f"{self.package}{spec} (implied by {self.via}; {w})" for spec, w in shown.items())
        if self.why == "conflicting pins":
            return f"{self.package}: conflicting pins " + ", ".join(f"{spec} ({w})" for spec, w in shown.items())
        return ", ".join(f"{self.package}{spec} ({self.why}; {w})" for spec, w in shown.items())

    @property
    def exact(self) -> Tuple[str, ...]:
        """The releases the pins name exactly (several where they conflict), oldest first; none where a pin
        gives a range or a URL (the project then also allows releases no pin names)."""
        if any(p.spec and _exact(p.spec) is None for p in self.pins):
            return ()
        got = {v for v in (_exact(p.spec) for p in self.pins) if v}
        return tuple(sorted(got, key=Version))

    @property
    def allowed(self) -> Tuple[str, ...]:
        """The releases the pins allow, oldest first: the exact ones where pins conflict; for a range, the releases
        of the package dsdoctor's knowledge read that every pin allows, with the range's own lowest bound in front
        where the range also allows releases older than those read (``transformers<4.38``: ``0``, ``4.26.0``, ...,
        ``4.37.2``). The newest release read stands for later ones, as the knowledge's spans do. Empty where
        nothing is known: no range, an unparseable one (Poetry's ``^``), a URL, or no release read is allowed."""
        if self.version or self.why == "conflicting pins":
            return self.exact
        if self.why != "range":
            return ()
        return allowed_releases(self.package, [p.spec for p in self.pins if p.spec])

    def allowed_text(self) -> str:
        """``every release it allows: 5.6.0-5.25.0 (27 releases read)``: what :attr:`allowed` holds, in words."""
        got = self.allowed
        if not got:
            return "no release read is allowed: nothing judged for it"
        older = " (and older ones)" if got[0] not in _releases(self.package) else ""
        known = [v for v in got if v in _releases(self.package)]
        if not known:  # conflicting exact pins of releases dsdoctor's knowledge did not read (two environments)
            return f"judged for each release it names: {', '.join(got)} (none of them a release read)"
        return (f"judged for every release it allows: {known[0]}-{known[-1]}{older} "
                f"({len(known)} release{'s' if len(known) > 1 else ''} read)")

    def to_json(self) -> Dict[str, object]:
        return {"version": self.version, "source": self.source or None, "why": self.why or None,
                "pins": [{"spec": p.spec, "where": p.where} for p in self.pins], "text": self.describe()}


def _candidates(path: str, cwd: Optional[str] = None) -> List[str]:
    """``path`` (a file: its directory) and the directories above it up to its git work tree's root; outside a
    git work tree, ``path`` alone or, when it is inside ``cwd``, up to ``cwd``."""
    start = os.path.abspath(path if os.path.isdir(path) else os.path.dirname(path) or ".")
    cwd = os.path.abspath(cwd or os.getcwd())
    chain = [start]
    while os.path.dirname(chain[-1]) != chain[-1]:
        chain.append(os.path.dirname(chain[-1]))
    top = next((i for i, c in enumerate(chain) if os.path.exists(os.path.join(c, ".git"))), None)
    if top is None:
        top = chain.index(cwd) if cwd in chain else 0
    return chain[:top + 1]


def project_dir(path: str, cwd: Optional[str] = None) -> Optional[str]:
    """The directory whose files pin the versions for ``path`` (a file linted or a directory): the nearest of
    :func:`_candidates` whose pin files name one of ``PACKAGES`` (a ``configs/README.md`` that pins nothing does
    not hide the repository's requirements); None when none does."""
    for c in _candidates(path, cwd):
        if read_pins(c):
            return c
    return None


def read_pins(root: str, constraining: bool = False) -> List[Pin]:
    """Every pin of the packages lint cares about in ``root``'s pin files (paths shown relative to the cwd);
    ``constraining``: also those of the packages that limit their releases (``CONSTRAINING``)."""
    out: List[Pin] = []
    seen: Set[str] = set()
    listed: Listing = {}
    for pat, reader in READERS:
        for path in matches(root, pat, listed):
            if path in seen or not os.path.isfile(path):
                continue
            seen.add(path)
            shown = os.path.relpath(path) if not os.path.relpath(path).startswith("..") else path
            try:  # an included file is also globbed
                out += [p for p in reader(path, shown) if p not in out and (constraining or p.package in PACKAGES)]
            except (OSError, ValueError, RecursionError):
                continue  # an unreadable file pins nothing
    return out


def _exact(spec: str) -> Optional[str]:
    """``==0.17.1`` / ``===0.17.1`` -> ``0.17.1`` (a local label dropped: ``==2.1.0+cu118`` -> ``2.1.0``); None
    for anything else (ranges, wildcards, several clauses)."""
    try:
        specs = list(SpecifierSet(spec))
        if len(specs) != 1 or specs[0].operator not in ("==", "===") or "*" in specs[0].version:
            return None
        return Version(specs[0].version).public
    except (InvalidSpecifier, InvalidVersion):
        return None


def _releases(package: str) -> Tuple[str, ...]:
    from ..knowledge.api_history import releases

    return releases(package)


def allowed_releases(package: str, specs: Sequence[str]) -> Tuple[str, ...]:
    """:attr:`Pinned.allowed` of a range: the releases of ``package`` read (``knowledge/api_history``) that all of
    ``specs`` allow, preceded by the lowest version they allow below the oldest release read (a bound they name,
    or ``0`` where they have none)."""
    return _allowed(package, tuple(specs))


@functools.lru_cache(maxsize=256)  # asked per file linted (lint/pins.apply_near); the releases read never change
def _allowed(package: str, specs: Tuple[str, ...]) -> Tuple[str, ...]:
    read = _releases(package)
    try:
        sets = [SpecifierSet(s) for s in specs]
        versions = [Version(r) for r in read]
    except (InvalidSpecifier, InvalidVersion):
        return ()
    if not sets or not versions:
        return ()

    def ok(v: Version) -> bool:
        return all(s.contains(v, prereleases=True) for s in sets)

    got = [r for r, v in zip(read, versions) if ok(v)]
    if not got:
        return ()  # the range allows none of the releases read: nothing is known of it
    below = {Version("0")}
    for s in sets:
        for c in s:
            try:
                v = Version(c.version.replace(".*", ""))
            except InvalidVersion:
                return ()
            # ``>V``: a release just above V (from its release numbers: ``4.45.0.dev0`` has no ``.1`` of its own)
            below |= {v, Version(".".join(map(str, v.release)) + ".1")}
    older = sorted(v for v in below if v < versions[0] and ok(v))
    return ((str(older[0]),) if older else ()) + tuple(got)


def resolve(pins: Sequence[Pin]) -> Dict[str, Pinned]:
    """Per package named by ``pins``: the single release they pin exactly (and every other pin allows), else
    why none is assumed; for one they do not pin, the range other exact pins imply (lint/pin_implied.py)."""
    out: Dict[str, Pinned] = {}
    for pkg in PACKAGES:
        named = tuple(p for p in pins if p.package == pkg)
        if not named:
            continue
        own = tuple(p for p in named if os.path.basename(p.path) in OWN_FILES)
        if own:  # the project is the package (lint/pin_own.py): what it runs is its own code
            out[pkg] = Pinned(pkg, _exact(own[0].spec), own[:1])
            continue
        mine = tuple(p for p in named if p.spec) or named  # an unpinned line (``deepspeed``) is no pin
        exact = {v for v in (_exact(p.spec) for p in mine) if v}
        ranges = [p.spec for p in mine if _exact(p.spec) is None and not p.spec.startswith("@")]
        if len(exact) == 1 and all(allows(r, next(iter(exact))) for r in ranges):
            out[pkg] = Pinned(pkg, next(iter(exact)), mine)
        elif exact:
            out[pkg] = Pinned(pkg, None, mine, "conflicting pins")
        elif any(p.spec.startswith("@") for p in mine):
            out[pkg] = Pinned(pkg, None, mine, "installed from a URL")
        elif any(p.spec for p in mine):
            out[pkg] = Pinned(pkg, None, mine, "range")
        else:
            out[pkg] = Pinned(pkg, None, mine, "not pinned")
    sole = {k: (x.version, next(p for p in x.pins if _exact(p.spec) == x.version)) for k, x in out.items() if x.version}
    for dep in CONSTRAINING:  # huggingface-hub, tokenizers: one exact pin, or nothing said
        theirs = [p for p in pins if p.package == dep]
        release = _exact(theirs[0].spec) if len({p.spec for p in theirs}) == 1 else None
        if release:
            sole[dep] = (release, theirs[0])
    # a package the pin files name without a version; transformers also where they do not name it (installed with
    # another package: its version decides what the Python files import)
    loose = [k for k in PACKAGES if k in out and out[k].why == "not pinned" or k == "transformers" and k not in out]
    for pkg, spec, via, pin in implied(sole, loose):
        out[pkg] = Pinned(pkg, None, (Pin(pkg, spec, pin.path, pin.line),), "range", via)
    return out


def project_pins(paths: Sequence[str]) -> Dict[str, Pinned]:
    """What the project of the linted ``paths`` pins (:func:`project_dir` of the first path that has one)."""
    d = _pin_dir(paths)
    return resolve(read_pins(d, True)) if d is not None else {}


def _pin_dir(paths: Sequence[str]) -> Optional[str]:
    """The directory :func:`project_pins` reads for ``paths``."""
    for p in paths:
        for c in _candidates(p):
            if read_pins(c):
                return c
    return None


class Near:
    """The pins nearest to each file linted, per package: its own directory's pin files, else those of the
    directory above, up to the directory whose pins the whole project is judged for (:func:`project_pins` of
    ``paths``, not read again) or the git work tree's root: a sub-project's README or requirements file pins its
    files, not the repository's. Each directory is read once. ``installed``: directory -> the exact pins of a
    set-up script that pip-installs it (:func:`.pin_installs.installs`), read with its own."""

    def __init__(self, paths: Sequence[str], installed: Optional[Dict[str, List[Pin]]] = None) -> None:
        self._dirs: Dict[str, Dict[str, Pinned]] = {}
        self._stop = _pin_dir(paths)
        self._of: Dict[Tuple[str, str], Optional[Pinned]] = {}  # (a file's directory, package): the same answer
        self._installed = installed or {}

    def _resolved(self, d: str) -> Dict[str, Pinned]:
        if d not in self._dirs:
            self._dirs[d] = resolve(read_pins(d, True) + self._installed.get(os.path.abspath(d), []))
        return self._dirs[d]

    def of(self, path: str, package: str) -> Optional[Pinned]:
        """What the nearest directory (from ``path``'s own) whose pin files name ``package`` says of it (asked
        once per directory: the files of one directory have the same candidates)."""
        key = (path if os.path.isdir(path) else os.path.dirname(path) or ".", package)
        if key not in self._of:
            self._of[key] = self._nearest(key[0], package)
        return self._of[key]

    def _nearest(self, path: str, package: str) -> Optional[Pinned]:
        """The nearest pins; a range or an unpinned line there, with the exact pin of a directory above (below the
        project's) that it allows, is that release (a bundled library's ``setup.py`` asks for
        ``transformers>=4.33``, the sub-project's requirements file that installs it pins 4.40.1)."""
        got: Optional[Pinned] = None
        for c in _candidates(path):
            if c == self._stop:
                return got  # None: the project's own pins, what lint already assumes for every file
            here = self._resolved(c).get(package)
            if here is None:
                continue
            if got is None:
                if here.version or here.why not in ("range", "not pinned"):
                    return here
                got = here
            elif here.version:
                both = resolve(got.pins + here.pins).get(package)
                return both if both is not None and both.version else got
        return got


def _ours(source: str) -> bool:
    """Does a version's ``source`` come from the pins or the installed package (what a nearer pin replaces), not
    from --ds-version / --target / the configuration's ``target`` / --python?"""
    if source.startswith(PACKAGES) and "(range; " in source:  # a range of the pins (Pinned.describe)
        return True
    # "no DeepSpeed": none found, or none pinned exactly (target.NO_SINGLE_DS), both a default a pin replaces
    return not source or source.startswith(("pinned in ", "no DeepSpeed")) or source in (
        "installed", "installed deepspeed") or source.startswith(tuple(f"{p}: conflicting pins" for p in PACKAGES))


def url_pin(p: Pinned) -> str:
    """Where the project installs ``p`` from a URL (a git commit), for a title: ``requirements.txt:22``."""
    return next((x.where for x in p.pins if x.spec.startswith("@")), p.source)


LISTED = "listed: "  # apply_near's note of a nearer pin that gives no single release (shown, not assumed)


def apply_near(usage: "Usage", path: str, kind: str, near: Near, notes: Dict[str, List[str]]) -> None:
    """Judge ``path`` for the DeepSpeed and Transformers its nearest pins name (:class:`Near`) where they are
    not what ``usage`` already assumes and no option or configuration chose the version. Only exact pins (and,
    for Transformers, the releases conflicting exact pins or a range allow) replace it: for DeepSpeed a nearer
    range says no release. ``notes``: per pin
    assumed this way (``transformers 4.33.2 (finetune/README.md:15)``), the files judged for it (Transformers:
    the Python files, the only ones its version matters to); a nearer DeepSpeed range or conflict, prefixed with
    :data:`LISTED` (named in the output, nothing assumed). A nearer range that allows the exact release assumed
    keeps it."""
    ds = near.of(path, "deepspeed")
    if ds is not None and not ds.version and _ours(usage.ds_source):
        notes.setdefault(LISTED + ds.describe(), []).append(path)  # a nearer range / conflict: named, not assumed
    if ds is not None and ds.version and _ours(usage.ds_source):
        source = f"pinned in {ds.source}"
        if source != usage.ds_source:
            try:
                usage.ds, usage.ds_source = Version(ds.version), source
                usage.ds_pins, usage.ds_pins_source = (), ""
                notes.setdefault(ds.describe(), []).append(path)
            except InvalidVersion:
                pass
    tf = near.of(path, "transformers")
    if tf is None or not _ours(usage.transformers_source):
        return
    if tf.version and f"pinned in {tf.source}" != usage.transformers_source:
        usage.transformers, usage.transformers_source = tf.version, f"pinned in {tf.source}"
        usage.transformers_pins = ()
    elif tf.allowed and tf.describe() != usage.transformers_source and (
            usage.transformers not in tf.allowed or "Dockerfile" in usage.transformers_source):
        # (a nearer range that allows the project's exact pin, a copied pyproject's ``>=4.31.0`` beside a README's
        # ``pip install transformers==4.31.0``, says no other release; a Dockerfile's pin is its image's, and a
        # nearer install line is what a user of that directory installs)
        usage.transformers, usage.transformers_source, usage.transformers_pins = None, tf.describe(), tf.allowed
    else:
        if tf.why == "installed from a URL":
            # a nearer install of a git commit (a sub-project's pyproject) is what runs this directory, not the
            # root's exact pin: its release is not read, so the version is unknown there
            usage.transformers, usage.transformers_source, usage.transformers_pins = None, tf.describe(), ()
            usage.transformers_url = url_pin(tf)
        return
    if kind == "python":
        notes.setdefault(tf.describe() if tf.version else f"{tf.describe()}: {tf.allowed_text()}", []).append(path)
