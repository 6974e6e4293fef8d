"""The options each shell launch passes to an entry that parses them into TrainingArguments with HfArgumentParser
(or TrlParser) and that some Transformers release read has as a TrainingArguments field (``--warmup_ratio``,
``--evaluation_strategy``): whether the release a project gets still has them is training-argument-unknown's
question. Not an option the entry's own code declares (a dataclass field, an ``add_argument``), nor a launch whose
entry tolerates options it does not know (``return_remaining_strings=True``, ``parse_known_args``)."""

from __future__ import annotations

import re
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
    from .discover import _read
    from .trainer_args import PARSES_TRAINING_ARGS

    out: Dict[str, List[Tuple[int, str]]] = {}
    read: Dict[str, List[str]] = {}  # per entry: the texts it reaches, or none where it does not parse strictly
    declared: Dict[Tuple[str, str], bool] = {}  # (entry, option): many launches start one entry
    known = TA.fields()
    for r in recipes:
        e = r.entry
        path, _, line = r.where.rpartition(":")
        asked = sorted(o for o in r.passed if o in known)
        if not asked or r.launcher is None or e is None or e not in entries.graph or not path.endswith(".sh"):
            continue
        if e not in read:
            texts = [_read(f, 2**20) for f in sorted(entries.reached(e))]
            strict = any(PARSES_TRAINING_ARGS.search(t) for t in texts) and not any(_TOLERANT.search(t) for t in texts)
            read[e] = texts if strict else []
        if not read[e]:
            continue
        for o in asked:
            if (e, o) not in declared:
                declared[(e, o)] = _declared(o, read[e])
        out.setdefault(path, []).extend((int(line), o) for o in asked if not declared[(e, o)])
    return out
