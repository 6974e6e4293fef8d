"""The project's plain classes: those whose bases, followed through the project's own classes, never reach
Transformers' TrainingArguments, a TRL config or anything else outside the project.

``HfArgumentParser((ModelArguments, GenerationArguments))`` over such classes builds dataclasses and nothing more:
only a TrainingArguments (or a subclass) registers the DeepSpeed config with Transformers (its ``__post_init__``
makes the HfTrainerDeepSpeedConfig that ``is_deepspeed_zero3_enabled`` reads). An inference or chat script that
parses plain argument classes this way is no training script (lint/script ``_trains``).
"""

from __future__ import annotations

import re
from typing import Dict, Iterable, List, Set

from ..knowledge import transformers as TF
from .discover import _read

_CLASS = re.compile(r"^[ \t]*class[ \t]+(\w+)[ \t]*(?:\(([^)]*)\))?[ \t]*:", re.M)
_REGISTERING = re.compile(rf"^(?:{'|'.join(TF.ZERO3_REGISTERING_CLASSES)}|\w*TrainingArguments|\w*Config)$")


def _bases(raw: str) -> List[str]:
    out = []
    for part in re.sub(r"\[[^\]]*\]", "", raw).split(","):
        part = part.strip()
        if part and "=" not in part:  # metaclass=... is no base
            out.append(part.split(".")[-1])
    return out


def plain_classes(files: Iterable[str]) -> Set[str]:
    """The names of classes defined in ``files`` (every definition, where a name has several) whose bases are
    ``object`` or other plain classes of the project; never a name of a registering class (TrainingArguments,
    a TRL ``...Config``, Accelerator ...), whatever its bases."""
    defs: Dict[str, List[List[str]]] = {}
    for f in files:
        text = _read(f, 4 * 2**20)
        if "class" not in text:
            continue
        for m in _CLASS.finditer(text):
            defs.setdefault(m.group(1), []).append(_bases(m.group(2) or ""))
    plain: Set[str] = set()
    grew = True
    while grew:
        grew = False
        for name, all_bases in defs.items():
            if name in plain or _REGISTERING.match(name):
                continue
            if all(b == "object" or b in plain for bases in all_bases for b in bases):
                plain.add(name)
                grew = True
    return plain
