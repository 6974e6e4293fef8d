"""The options each shell launch passes to an entry that parses them into TrainingArguments with HfArgumentParser
(or TrlParser) and that some Transformers release read has as a TrainingArguments field (``--warmup_ratio``,
``--evaluation_strategy``): whether the release a project gets still has them is training-argument-unknown's
question. Not an option the entry's own code declares (a dataclass field, an ``add_argument``), nor a launch whose
entry tolerates options it does not know (``return_remaining_strings=True``, ``parse_known_args``)."""

from __future__ import annotations

import re
from functools import partial
from typing import TYPE_CHECKING, Dict, List, Tuple

from ..knowledge import training_args as TA
from ..literal_gate import gated

if TYPE_CHECKING:
    from .launched import _Entries
    from .recipe import Recipe

# a parse that keeps the options no dataclass takes instead of raising
_TOLERANT = gated(r"\breturn_remaining_strings\s*=\s*True\b|\.parse_known_args\s*\(")


def _declared(name: str, texts: List[str]) -> bool:
    """Does code the entry reaches declare ``name`` itself: a class field, or an ``add_argument("--name")``?"""
    field = re.compile(rf"^[ \t]*{name}[ \t]*:", re.M)
    flag = re.compile(rf"""['"]--{name.replace('_', '[-_]')}['"]""")
    return any(name in t and (field.search(t) or flag.search(t)) for t in texts)


def training_options(recipes: List["Recipe"], entries: "_Entries") -> Dict[str, List[Tuple[int, str]]]:
    """Shell script -> (launch line, option) of the TrainingArguments options its launches pass."""
    from .trainer_args import PARSES_TRAINING_ARGS

    out: Dict[str, List[Tuple[int, str]]] = {}
    known = TA.fields()
    for r in recipes:
        e = r.entry
        path, _, line = r.where.rpartition(":")
        asked = sorted(o for o in r.passed if o in known)
        if not asked or r.launcher is None or e is None or e not in entries.graph or not path.endswith(".sh"):
            continue
        texts = entries.texts(e)
        if not texts.has(PARSES_TRAINING_ARGS) or texts.has(_TOLERANT):
            continue
        out.setdefault(path, []).extend((int(line), o) for o in asked if not texts.once(("declared", o), partial(_declared, o)))
    return out
