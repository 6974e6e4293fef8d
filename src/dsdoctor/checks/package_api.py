"""The installed package versions checked against the API history (``knowledge/api_history``): an import or keyword
that an installed release of Transformers, Accelerate, PEFT, TRL or DeepSpeed makes, unconditionally, into another
installed package whose release lacks it (``package-api-incompatible``), before launch. The history is read only
when two of its packages are installed."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Dict, Iterable, List, Optional, Tuple

from packaging.version import Version

from .. import names as N
from ..fixes import pip_fix
from ..model import Evidence, Passed, Severity
from ..spec import Docs, FindingSpec, case
from .common import S_PKG, E, Result
from .context import Context
from .cpu_adam import OpPrediction

if TYPE_CHECKING:
    from ..knowledge import api_history as H

PACKAGE_API_INCOMPATIBLE = FindingSpec(
    N.PACKAGE_API_INCOMPATIBLE,
    E,
    "An installed package calls an API that the installed release of another package does not have",
    Docs(
        what="An installed release of Transformers, Accelerate, PEFT, TRL or DeepSpeed imports a module or name, or "
             "passes a keyword, that the installed release of another of these packages (or torch) does not have: "
             "e.g. Transformers 4.36.2 calls `Accelerator(dispatch_batches=...)`, which Accelerate 1.0.0 removed.",
        why="The run fails when that code runs: `ImportError: cannot import name ...`, `ModuleNotFoundError`, or "
            "`TypeError: Accelerator.__init__() got an unexpected keyword argument 'dispatch_batches'` when the "
            "Trainer is built. An error when it is as good as certain (an import at the top of a module; a call "
            "of the provider's top-level API, such as `accelerate.Accelerator`, that the calling package changed "
            "in a later or earlier release); info otherwise (a call in a function that may be a path the run "
            "never takes, such as DeepSpeed's elastic agent or a tensor-parallel save), whose only fix is an "
            "upgrade of the caller where one is known, never a provider moved back for it. A package's own tests "
            "and test scripts are not counted. dsdoctor knows which releases "
            "have each module, name and parameter, and what each release of the calling package asks, from the "
            "released sources it read (docs/upstream-data.md); only calls made unconditionally (not behind a "
            "version or availability check) are reported, and only for installed versions inside the releases read.",
        fix="Install the versions the finding computes: pin the provider below the release that removed it "
            "(`pip install 'accelerate<1.0.0'`), or above the one that added it, or upgrade the calling package to "
            "its first release read that no longer asks for it.",
        examples=(case("package-api-transformers-accelerate", "Transformers 4.36.2 with Accelerate 1.0.0: the "
                       "Trainer passes `dispatch_batches` to `Accelerator`, which 1.0.0 removed."),),
        reads="environment"),
    ("check",))


def _installed(ctx: Context, packages: Iterable[str]) -> Dict[str, str]:
    pk = ctx.facts.packages
    out = {}
    for name in packages:
        ver = pk.version(name)
        if ver:
            out[name] = ver
    return out


HISTORY_PACKAGES = ("deepspeed", "transformers", "accelerate", "peft", "trl", "torch")


def _strictest(pins: Iterable[str]) -> List[str]:
    """One requirement per package and direction: the lowest upper bound, the highest lower bound."""
    best: Dict[Tuple[str, str], Tuple[Version, str]] = {}
    for pin in pins:
        m = re.match(r"([\w-]+)(<=|<|>=)(.+)", pin)
        if m is None:
            continue
        key = (m.group(1), m.group(2)[0])
        ver = Version(m.group(3))
        if key not in best or (ver < best[key][0] if key[1] == "<" else ver > best[key][0]):
            best[key] = (ver, pin)
    return [pin for _, pin in best.values()]


def _finding(group: List["H.Incompatibility"], python: Optional[str]) -> Result:
    first = group[0]
    more = f" (and {len(group) - 1} more)" if len(group) > 1 else ""
    title = f"{first.consumer} {first.consumer_version} {first.asked}: {first.missing}{more}"
    lines = [f"{i.at}: {i.asked}; {i.missing}" for i in group]
    certain = first.certain
    when = ("" if certain else f" It fails only when that code of {first.consumer} runs (`{first.at}`), possibly a "
            "path your run never takes.")
    pins = [p for i in group for p in i.pins()]
    if not certain:  # a path the run may never take: only an upgrade of the caller, never a provider moved for it
        pins = [p for p in pins if p.startswith(f"{first.consumer}>")]
    return PACKAGE_API_INCOMPATIBLE.finding(
        Severity.ERROR if certain else Severity.INFO,
        title=title,
        explanation=f"The installed {first.consumer} {first.consumer_version} asks the installed {first.provider} "
                    f"{first.provider_version} for what it does not have.{when} " + PACKAGE_API_INCOMPATIBLE.docs.why,
        evidence=(Evidence(f"{first.consumer} {first.consumer_version}, {first.provider} {first.provider_version}",
                           "installed versions"),
                  *(Evidence(text, f"{first.consumer} {first.consumer_version}") for text in lines[:8])),
        fixes=tuple(pip_fix(p, f"Install releases that fit together: {p}", python) for p in _strictest(pins)),
        section=S_PKG)


def package_api(ctx: Context, pred: OpPrediction) -> Iterable[Result]:
    installed = _installed(ctx, HISTORY_PACKAGES)
    if len(installed) < 2:
        return
    from ..knowledge import api_history as H  # the history is read only here, when two of its packages are installed

    groups: Dict[Tuple[str, str, bool], List[H.Incompatibility]] = {}
    for inc in H.incompatible(installed):
        groups.setdefault((inc.consumer, inc.provider, inc.certain), []).append(inc)
    for key in sorted(groups, key=lambda k: not k[2]):  # the certain ones (errors) first
        yield _finding(groups[key], ctx.python_exe)
    if not groups:
        pairs = ", ".join(f"{k} {v}" for k, v in sorted(installed.items()))
        yield Passed(S_PKG, f"no known API incompatibility between {pairs}",
                     "checked against the API history of the releases read")
