"""``release-known-bug``: the installed release of a package has a bug a later release fixed, and the other installed
versions are the ones the bug needs — the rows of ``knowledge/regressions.py`` that say what check can predict
(``predict``), before launch. An API a bug needs absent is answered by the API history, never guessed."""

from __future__ import annotations

from typing import Iterable, Optional

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from .. import names as N
from ..fixes import pip_fix
from ..knowledge import regressions as R
from ..model import Evidence, Severity
from ..spec import Docs, FindingSpec, case
from .common import S_PKG, Result, W
from .context import Context
from .cpu_adam import OpPrediction

RELEASE_KNOWN_BUG = FindingSpec(
    N.RELEASE_KNOWN_BUG,
    W,
    "The installed release of a package has a known bug, fixed in a later release",
    Docs(
        what="An installed release of DeepSpeed, Transformers or vLLM is one of the releases a known bug affects, and the "
             "other installed versions are the ones it needs: e.g. DeepSpeed 0.15.3 with torch 2.2, where `import "
             "deepspeed` fails because DeepSpeed's logger calls `torch.compiler.is_compiling`, which torch 2.3 added.",
        why="The bug is in the released code: nothing in the script or config avoids it. dsdoctor reports only the "
            "bugs whose affected and fixed releases it read in the released sources (the table in "
            "docs/knowledge.md, `knowledge/regressions.py`), and only when versions alone decide that the run meets "
            "it: an error when every run does, a warning or info (its condition in the title) when a run meets it "
            "on one path only (a multi-node save, ZeRO-3 backward on an older torch).",
        fix="Upgrade the package to the release that fixed it (the finding names it), or pin the release before "
            "the bug.",
        examples=(case("release-known-bug-ds0.15.3-torch2.2", "DeepSpeed 0.15.3 with torch 2.2.0: `import deepspeed` "
                       "fails (torch.compiler.is_compiling is in torch 2.3+)."),),
        reads="environment"),
    ("check",))

_SEVERITY = {"error": Severity.ERROR, "warning": Severity.WARNING, "info": Severity.INFO}


def _installed(ctx: Context, name: str) -> Optional[str]:
    pk = ctx.facts.packages
    if name == "torch" and pk.torch:
        return pk.torch.version
    if name == "python":
        interp = ctx.facts.interpreter
        return ".".join(str(n) for n in interp.version) if interp else None
    return pk.version(name)


def _needs_hold(reg: R.Regression, ctx: Context) -> bool:
    """Whether the installed versions are the ones the bug needs (False when one is missing or unknown)."""
    for pkg, spec in reg.needs:
        ver = _installed(ctx, pkg)
        try:
            if ver is None or Version(ver) not in SpecifierSet(spec, prereleases=True):
                return False
        except (InvalidVersion, InvalidSpecifier):
            return False
    if reg.needs_missing:
        from ..knowledge import api_history as H  # the history is read only for a row that needs it

        for pkg, module, name in reg.needs_missing:
            ver = _installed(ctx, pkg)
            span = H.name_span(module, name) if ver else None
            if ver is None or span is None or H.lacks(span, ver, module) is not True:
                return False
    return True


def known_bugs(ctx: Context, pred: OpPrediction) -> Iterable[Result]:
    for reg in R.ALL:
        ver = _installed(ctx, reg.package) if reg.predict else None
        try:
            if ver is None or not reg.affects(Version(ver)) or not _needs_hold(reg, ctx):
                continue
        except InvalidVersion:
            continue
        yield RELEASE_KNOWN_BUG.finding(
            _SEVERITY[reg.predict], f"{reg.package} {ver} has a known bug fixed in {reg.fixed}: {reg.shows}",
            explanation=f"{reg.what[0].upper()}{reg.what[1:]} (releases {reg.releases}; read in: {reg.source}).",
            evidence=(Evidence(f"{reg.package} {ver} installed (affected: {reg.releases})", ctx.python_exe or "?"),),
            fixes=(pip_fix(f"{reg.package}>={reg.fixed}", f"Upgrade {reg.package} to {reg.fixed} or later", ctx.python_exe),),
            section=S_PKG)
