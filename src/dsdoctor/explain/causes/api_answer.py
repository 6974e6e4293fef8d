"""The exact answer to an API a package (or the user's code) asked of another that lacks it, from the API history
(``knowledge/api_history``): which release of the provider removed or added the module, name, method or keyword,
which versions the log shows installed, and pins computed from the releases read. None when the history cannot
say (a package not read, a name no release read has, an installed version outside the releases read)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from ...knowledge import api_history as H
from ...knowledge import numpy as NP
from ...knowledge.release_spans import Span

_QUAL = re.compile(r"^(?:(?P<cls>[A-Za-z_]\w{0,80})\.)?(?P<func>\w{1,80})$")


@dataclass(frozen=True)
class Answer:
    """What the provider did (``facts``), the requirements that fit (``pins``, provider first), and the provider."""

    provider: str
    what: str  # "`dispatch_batches` of `Accelerator.__init__`"
    facts: str
    pins: Tuple[str, ...]
    how: str = ""  # the facts without the installed versions


def _history(kind: str, module: str, name: str) -> Optional[Tuple[str, str, Span]]:
    """(provider package, what, span of the provider releases that have it)."""
    if kind == "module":
        span = H.module_span(module)
        return (module.split(".")[0], f"the module `{module}`", span) if span is not None else None
    if kind in ("import", "attribute"):
        span = H.name_span(module, name)
        if span is not None and not span.ranges:
            sub = H.module_span(f"{module}.{name}")
            span = sub if sub is not None and sub.ranges else span
        return (module.split(".")[0], f"`{name}` in `{module}`", span) if span is not None else None
    if kind == "member":
        for mod, cls in H.class_named(module):
            span = H.callable_span(mod, f"{cls}.{name}")
            if span is not None and span.ranges:
                return mod.split(".")[0], f"the method `{cls}.{name}` (`{mod}`)", span
        return _wrapper(module, name)
    if kind == "keyword":
        return _keyword(module, name)
    return None


def _wrapper(cls: str, name: str) -> Optional[Tuple[str, str, Span]]:
    """A member that no release read of the class's package defines on any class, while one other package read
    defines it on its one wrapper for that package's objects (a class of its own named after the package, ``...Wrapper``:
    Accelerate's ``DeepSpeedOptimizerWrapper.step_was_skipped``, for a DeepSpeed ``DeepSpeedZeroOptimizer``), added
    in one release after its first read: code written for the wrapper asked the wrapped object itself (the
    wrapper's package before that release, or a call that skips the wrapper). None otherwise."""
    owners = {mod.split(".")[0] for mod, _ in H.class_named(cls)}
    if len(owners) != 1:
        return None
    pkg = owners.pop()
    named = H.methods_named(name)
    if any(mod.split(".")[0] == pkg for mod, _ in named):
        return None  # the package defines it somewhere: another of its classes, not a wrapper's
    key = pkg.replace("_", "")
    wraps = [(mod, q) for mod, q in named if q.split(".")[0].lower().startswith(key) and q.split(".")[0].endswith("Wrapper")]
    if len(wraps) != 1:
        return None
    mod, qual = wraps[0]
    span = H.callable_span(mod, qual)
    if span is None or len(span.ranges) != 1 or span.ranges[0][0] == 0:
        return None  # in every release read, or gone and back: no release says when the asker changed
    every = H.releases(pkg)
    what = (f"the method `{qual}` (`{mod}`, {mod.split('.')[0]}'s wrapper of {pkg}'s objects; no {pkg} release read"
            f"{f' ({every[0]}-{every[-1]})' if every else ''} defines `{name}`)")
    return mod.split(".")[0], what, span


def _keyword(qualname: str, kw: str) -> Optional[Tuple[str, str, Span]]:
    if not _QUAL.match(qualname) or qualname == "__init__":
        return None
    best: Optional[Tuple[str, str, Span]] = None
    for mod, qual in H.callables_named(qualname):
        span = H.param_span(mod, qual, kw)
        whole = H.callable_span(mod, qual)
        if span is None or whole is None or not span.ranges:
            continue
        if best is None or (whole.last() or "") and whole.ranges[-1][1] > best[2].ranges[-1][1]:
            best = (mod.split(".")[0], f"`{kw}` of `{qual}` (`{mod}`)", span)
    return best


def defined_only_in(kind: str, qualname: str, package: str) -> bool:
    """Every class (``member``: ``qualname`` is the class) or callable (``keyword``: ``Class.method``) of that name
    the releases read define is ``package``'s (at least one)."""
    found = H.class_named(qualname) if kind == "member" else H.callables_named(qualname)
    return bool(found) and all(mod.split(".")[0] == package for mod, _ in found)


def _describe(span: Span, what: str) -> Tuple[str, List[str]]:
    """The history of ``span`` with no installed version known: its changes, and the pins that have it."""
    read, pkg = span.read, span.package
    if len(span.ranges) != 1:
        return "", []  # gone and back again: which side the installed release is on is unknown
    lo, hi = span.ranges[0]
    parts, pins = [], []
    if hi + 1 < len(read):  # a removal first: a failing install is more often past it than before the addition
        exact = H.exact_step(pkg, read[hi], read[hi + 1])
        parts.append(f"{pkg} removed {what} in {read[hi + 1]}" if exact else
                     f"{pkg} removed {what} after {read[hi]}, by {read[hi + 1]}")
        parts[-1] += f"; {read[hi]} is the last release read that has it"
        pins.append(f"<{read[hi + 1]}" if exact else f"<={read[hi]}")
    if lo > 0:
        exact = H.exact_step(pkg, read[lo - 1], read[lo])
        it = "it" if parts else what
        parts.append(f"{pkg} added {it} in {read[lo]}" if exact else f"{pkg} added {it} after {read[lo - 1]}, by {read[lo]}")
        pins.insert(0, f">={read[lo]}")
    if not parts:
        parts.append(f"every {pkg} release read ({read[0]}-{read[-1]}) has {what}: the installed one is older "
                     f"than {read[0]} (or a broken install)")
        pins.append(f">={read[0]}")
    return "; ".join(parts), [pkg + ",".join(pins)]


def _consumer_fix(caller: str, provider: str, kind: str, module: str, name: str, cv: str) -> str:
    """``transformers>=X``: the first caller release read from which on it no longer asks it unconditionally."""
    uses = (H.uses(caller).get(provider) or {}).get("keywords" if kind == "keyword" else "imports", {})
    if kind == "keyword":
        func = module.split(".")[0] if module.endswith(".__init__") else module
        keys = [k for k in uses if k.endswith(f":{func}:{name}")]
    else:
        keys = [k for k in uses if k == f"{module}:{name}" or (kind == "module" and k.startswith(f"{module}:"))]
    read = H.releases(caller)
    last = max((hi for k in keys for _, hi in Span.of(caller, read, uses[k]["u"]).ranges), default=None)
    if last is None or last + 1 >= len(read):
        return ""
    fixed = read[last + 1]
    if cv and Span.of(caller, read, f"{last + 1}-{len(read) - 1}").has(cv) is True:
        return ""  # the installed caller is already past it: the data does not explain this failure
    return f"{caller}>={fixed}"


def _sole_consumer(provider: str, kind: str, module: str, name: str) -> str:
    """With no caller frame in the log: the one package read whose releases import it unconditionally (the API
    history's uses), else "" (none, or several: who asked is unknown). Only for a provider whose uses every consumer
    read records (a consumer with none recorded might be the one that asked)."""
    consumers = [pkg for pkg in H.packages() if pkg != provider and H.uses(pkg)]
    if kind not in ("import", "module") or not all(H.uses(pkg).get(provider) for pkg in consumers):
        return ""
    found = []
    for pkg in consumers:
        uses = (H.uses(pkg).get(provider) or {}).get("imports", {})
        if any(row.get("u") and (k == f"{module}:{name}" or kind == "module" and k.startswith(f"{module}:"))
               for k, row in uses.items()):
            found.append(pkg)
    return found[0] if len(found) == 1 else ""


def _installed(versions: Dict[str, str], pkgs: Sequence[str], env: Sequence[str]) -> str:
    """``Installed (as the log shows): deepspeed 0.8.3. ``; the versions of ``env`` as the environment's."""
    shown = [p for p in sorted(set(pkgs) - {""}) if versions.get(p)]
    said = [("the log shows", [p for p in shown if p not in env]),
            ("`dsdoctor explain --env` found in the environment", [p for p in shown if p in env])]
    parts = [f"as {how}: {', '.join(f'{p} {versions[p]}' for p in ps)}" for how, ps in said if ps]
    return f"Installed ({'; '.join(parts)}). " if parts else ""


def asked(g: Dict[str, str]) -> str:
    """What the caller asked of the provider, as a sentence (``groups`` as ``versions.api_mismatch`` gives them)."""
    kind, module, name = g["kind"], g["module"], g["name"]
    caller = g["caller"] or ("A call (the log shows no frame of it)" if g.get("unframed") else "your code")
    return {"import": f"{caller} imports `{name}` from `{module}`, which the installed {module.split('.')[0]} does not have",
            "module": f"{caller} imports the module `{module}`, which the installed {module.split('.')[0]} does not have",
            "attribute": f"{caller} uses `{module}.{name}`, which the installed {module.split('.')[0]} does not have",
            "member": f"{caller} uses `.{name}` of a `{module}` object, which its installed version does not have",
            "keyword": f"{caller} passes `{name}=` to `{module}()`, which the installed version of its package does not "
                       f"take"}[kind]


def environment_has(groups: Dict[str, str], installed: Dict[str, str], shown: Dict[str, str]) -> str:
    """With ``explain --env``: the sentence saying the environment's release of the provider has what the log says
    is missing (the log came from another environment, or that install is broken), else ""."""
    hist = _history(groups.get("kind", ""), groups.get("module", ""), groups.get("name", ""))
    if hist is None or hist[0] in shown or not installed.get(hist[0]):
        return ""
    provider, what, span = hist
    if span.has(installed[provider]) is not True:
        return ""
    return (f"The environment `dsdoctor explain --env` checked has {provider} {installed[provider]}, which has "
            f"{what}: the log was made in another environment, or that {provider} install is broken.")


def answer(groups: Dict[str, str], versions: Dict[str, str], env: Sequence[str] = ()) -> Optional[Answer]:
    """The exact answer for ``groups`` (``kind``, ``module``, ``name``, ``caller`` as ``versions.api_mismatch``
    gives them), given the installed versions (package -> version): those the log shows, and those of ``env``,
    the packages whose version is the environment's (``explain --env``), not the log's."""
    if groups.get("module") in ("numpy", "np") and groups.get("kind", "import") in ("import", "attribute"):
        return _numpy(groups, versions, env)
    hist = _history(groups.get("kind", ""), groups.get("module", ""), groups.get("name", ""))
    if hist is None or not hist[2].ranges:
        return None
    provider, what, span = hist
    pv = versions.get(provider, "")
    facts = _installed(versions, (provider, groups.get("caller", "")), env)
    names_of = groups.get("module", "") if groups.get("kind") in ("import", "attribute") else ""
    change = H.change_near(span, pv) if pv and H.lacks(span, pv, names_of) else None
    if pv and change is None:
        return None  # the installed release is outside the releases read, or has it: the data does not say
    if change is not None:
        how = (f"{provider} removed {what} in {change.when}; {change.before} is the last release read that has it"
               if change.kind == "removed" else f"{provider} added {what} in {change.when}; the installed "
               f"{provider} {pv} is older")
        pin = (f"{provider}<{change.after}" if change.kind == "removed" and change.exact else
               f"{provider}<={change.before}" if change.kind == "removed" else f"{provider}>={change.after}")
        pins = [pin]
    else:
        text, pins = _describe(span, what)
        if not text or groups.get("kind") in ("member", "keyword") and "every" in text:
            # a method or parameter every release has, missing: not a versions question the history answers
            return None
        how = text
    caller = groups.get("caller", "") or _sole_consumer(provider, groups.get("kind", ""), groups.get("module", ""),
                                                        groups.get("name", ""))
    if caller and caller != provider and caller in H.packages():
        fix = _consumer_fix(caller, provider, groups.get("kind", ""), groups.get("module", ""), groups.get("name", ""),
                            versions.get(caller, ""))
        if fix:
            pins.append(fix)
            how += f"; {caller} {fix.split('>=')[1]} and later no longer ask for it unconditionally"
    return Answer(provider, what, f"{facts}{how}.", tuple(pins), how)


def _numpy(groups: Dict[str, str], versions: Dict[str, str], env: Sequence[str] = ()) -> Optional[Answer]:
    """A name NumPy 2.0 removed from ``numpy`` (``knowledge/numpy``): the release, its migration note, and the first
    release of the package that asked for it (the raising frame's, else the only one read that uses it) that no
    longer does. None when 2.0 kept the name, or the log shows a numpy older than 2.0."""
    gone = NP.removed(groups.get("name", ""))
    npv = versions.get("numpy", "")
    if gone is None or (npv and NP.before(npv, gone.removed_in) is not False):
        return None
    what = f"`numpy.{gone.name}`"
    how = f"numpy {gone.removed_in} removed {what} ({gone.last_before}, the last 1.x, has it)"
    note = f" NumPy's note: {gone.note}" if gone.note else ""
    pins = [f"numpy<{gone.removed_in}"]
    users = NP.uses(gone.name)
    caller = groups.get("caller", "")
    use = next((u for u in users if u.consumer == caller), None) if caller else (users[0] if len(users) == 1 else None)
    cv = versions.get(use.consumer, "") if use is not None else ""
    if use is not None and use.fixed and not (cv and NP.before(cv, use.fixed) is False):
        how += (f"; {use.consumer} {use.first}-{use.last} use it (`{use.at}`), {use.fixed} and later no longer do")
        pins.append(f"{use.consumer}>={use.fixed}")
    facts = _installed(versions, ("numpy", use.consumer if use else ""), env)
    return Answer("numpy", what, f"{facts}{how}.{note}", tuple(pins), how)
