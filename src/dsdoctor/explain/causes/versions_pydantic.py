"""pydantic 2 under a DeepSpeed whose config models are written for pydantic v1 (``knowledge.ds_config``
``PYDANTIC_V1_MODELS``): ``import deepspeed`` fails while DeepSpeed defines them, often cut before its exception, with
pydantic 2's own warning about v1-style config keys above it. Answered as ``package-versions-incompatible``."""

from __future__ import annotations

import re
from typing import Dict, Optional, Sequence, Tuple

from ... import fixes as F
from ...knowledge import ds_config as K
from ...knowledge.versions import parse
from ..failure import site_package
from .cause import Advice, LogFacts

# pydantic 2's warning for a model class with a v1-style ``class Config`` (pydantic/_internal/_config.py,
# ConfigWrapper.prepare_config: V2_RENAMED_KEYS): the path proves pydantic 2 (``_internal`` is 2.x only)
_PYDANTIC2_V1_CONFIG = re.compile(r"pydantic[/\\]_internal[/\\]_config\.py:\d{1,5}: UserWarning: Valid config keys have "
                                  r"changed in V2")
_PYDANTIC_EXC = re.compile(r"^$|FieldInfo|pydantic|ConfigError|validator")


def pydantic2_v1_models(exc: str, frames: Sequence[Tuple[str, str]], warnings: Sequence[str],
                        ds: Optional[str]) -> Optional[Dict[str, str]]:
    """``import deepspeed`` of a release whose config models are pydantic-v1 (``knowledge.ds_config``), under
    pydantic 2: the log has pydantic 2's v1-config warning, the failing traceback's innermost library frame is
    DeepSpeed's, its exception is cut or a pydantic one, and the DeepSpeed release the log shows (if any) is one of
    them. The groups (``pydantic``: "2"), else None."""
    first, last, _ = K.PYDANTIC_V1_MODELS
    libs = [site_package(p) for p, _ in frames if site_package(p)]
    if not libs or libs[-1] != "deepspeed" or not _PYDANTIC_EXC.search(exc.strip()):
        return None
    if not any(_PYDANTIC2_V1_CONFIG.search(w) for w in warnings):
        return None
    shown, lo, hi = parse(ds) if ds else None, parse(first), parse(last)
    if shown is not None and lo is not None and hi is not None and not lo <= shown <= hi:
        return None
    return {"pydantic": "2"}


def advice(f: LogFacts) -> Advice:
    """The answer: upgrade DeepSpeed to the release that reads pydantic.v1, or pin pydantic below 2."""
    first, last, fixed = K.PYDANTIC_V1_MODELS
    shown = f" The log shows DeepSpeed {f.ds}." if f.ds else ""
    return Advice(f"Installed packages disagree on an API: pydantic 2 with a DeepSpeed whose config models are "
                  f"pydantic-v1 (DeepSpeed {first}-{last}, fixed in {fixed})", "",
                  [F.pip_fix(f"deepspeed>={fixed}", f"Upgrade DeepSpeed to {fixed} or later (pydantic 2 supported)"),
                   F.pip_fix("pydantic<2", "Or keep this DeepSpeed and pin pydantic below 2")],
                  facts=f"pydantic 2 is installed: its warning about v1-style config keys comes from pydantic/"
                        f"_internal/, which only pydantic 2 has, while `import deepspeed` defines its config models. "
                        f"DeepSpeed {first}-{last} write them against pydantic v1 (`class Config` with validate_all, "
                        f"allow_population_by_field_name); {fixed} imports them from its pydantic.v1 shim.{shown}")
