"""A checkpoint's model type that the installed Transformers predates: ``KeyError: 'qwen2'`` raised in
``transformers/models/auto/configuration_auto.py``, or ``... has model type `qwen2` but Transformers does not
recognize this architecture``, for a model type that the model-type history (``knowledge/model_types``, read in the
released wheels) says a later release added. Answered with that release; never for a type no release read maps (a
model with remote code, a typo) nor when the log shows an installed release that has it.

:func:`versions_answer` is explain's rule for an exception no signature named: this, then the API history's
(``versions.api_mismatch``)."""

from __future__ import annotations

import re
from typing import Dict, Optional, Sequence, Tuple

from packaging.version import InvalidVersion, Version

from ... import fixes as F
from ... import names as N
from ...knowledge import model_types as MT
from ...model import Severity
from . import versions as V
from .cause import Advice, Cause, Docs, LogFacts, Seen, cause, log

AUTO_CONFIG = "transformers/models/auto/configuration_auto.py"
_KEY = re.compile(r"^KeyError: '(?P<type>[\w.-]{1,80})'$")
# configuration_auto.py AutoConfig.from_pretrained (4.30-5.x): the ValueError for a model_type CONFIG_MAPPING lacks
_UNRECOGNIZED = re.compile(r"has model type `(?P<type>[\w.-]{1,80})` but Transformers does not recognize this architecture")


def model_type_unknown(exc: str, frames: Sequence[Tuple[str, str]], installed: str) -> Optional[Dict[str, str]]:
    """``{"type", "added", "before"}`` when ``exc`` says the installed Transformers does not map a model type that
    a later release read maps (``installed``: the release the log shows, "" when none); else None."""
    m = _UNRECOGNIZED.search(exc)
    if m is None:
        k = _KEY.match(exc.strip())
        if k is None or not any(p.replace("\\", "/").endswith(AUTO_CONFIG) for p, _ in frames):
            return None
        m = k
    span = MT.span(m.group("type"))
    added = span.added_in() if span is not None else None
    if span is None or added is None or len(span.ranges) != 1:
        return None  # no release read maps it, every one does (older than the releases read), or gone and back
    if span.removed_in() is not None and not installed:
        return None  # a later release dropped it again: too old or too new, the log does not say which
    if installed:
        try:
            if Version(installed) >= Version(added):
                return None  # the installed release has it: the data does not explain this failure
        except InvalidVersion:
            return None
    before = span.read[span.ranges[0][0] - 1]
    return {"type": m.group("type"), "added": added, "before": before}


def versions_answer(exc: str, frames: Sequence[Tuple[str, str]], facts: LogFacts) -> Optional[Tuple[str, Dict[str, str]]]:
    """The versions cause of an exception no signature named, and its groups: a model type the installed
    Transformers predates, else an API one installed package asks of another (``versions.api_mismatch``)."""
    mt = model_type_unknown(exc, frames, facts.versions.get("transformers", "") or facts.transformers or "")
    if mt is not None:
        return N.TRANSFORMERS_TOO_OLD_FOR_MODEL, mt
    asked = V.api_mismatch(exc, frames, {**facts.installed, **facts.versions})
    return (N.PACKAGE_VERSIONS_INCOMPATIBLE, asked) if asked is not None else None


def _too_old(s: Seen, f: LogFacts) -> Advice:
    g = s.groups
    mtype, added, before = g.get("type", "?"), g.get("added", "?"), g.get("before", "?")
    installed = f.versions.get("transformers", "") or f.transformers or ""
    shown = f"The log shows Transformers {installed}. " if installed else ""
    return Advice(f"The installed Transformers does not know model type `{mtype}`: Transformers maps it from {added}",
                  "", [F.pip_fix(f"transformers>={added}", f"Upgrade Transformers to {added} or later",
                                 reason="then the accelerate / deepspeed / peft / trl versions that release needs")],
                  facts=f"{shown}The checkpoint's config.json has model_type `{mtype}`; Transformers {added} is the "
                        f"first release read whose AutoConfig maps it ({before} does not).")


SPECS: Tuple[Cause, ...] = (
    cause(
    N.TRANSFORMERS_TOO_OLD_FOR_MODEL,
    Severity.ERROR,
    "The installed Transformers predates the checkpoint's model type",
    _too_old,
    Docs(
        what="Loading a model fails in `AutoConfig`: `KeyError: 'qwen2'` in `configuration_auto.py`, or `The "
              "checkpoint you are trying to load has model type `qwen2` but Transformers does not recognize this "
              "architecture`.",
        why="The checkpoint's config.json names a model type (`model_type`) that the installed Transformers does "
              "not map to a config class: the architecture came in a later release. explain names the release from "
              "the model-type history read in the released wheels (`CONFIG_MAPPING_NAMES`, docs/upstream-data.md); "
              "a type no release read maps (a model with remote code, a typo) is not this.",
        fix="Upgrade Transformers to the release the summary names (`pip install 'transformers>=4.37.0'`), with the "
              "Accelerate / DeepSpeed / PEFT / TRL versions that release needs.",
        examples=(log(N.TRANSFORMERS_TOO_OLD_FOR_MODEL, "A Qwen2 checkpoint with Transformers 4.36.2:",
                   "Traceback (most recent call last):\n"
                   "  File \"/venv/lib/python3.10/site-packages/transformers/models/auto/configuration_auto.py\", "
                   "line 761, in __getitem__\n"
                   "    raise KeyError(key)\n"
                   "KeyError: 'qwen2'\n"),),
        reads="log")),
)
