"""The project's plain classes: those whose bases, followed through the project's own classes, never reach
Transformers' TrainingArguments, a TRL config or anything else outside the project.

``HfArgumentParser((ModelArguments, GenerationArguments))`` over such classes builds dataclasses and nothing more:
only a TrainingArguments (or a subclass) registers the DeepSpeed config with Transformers (its ``__post_init__``
makes the HfTrainerDeepSpeedConfig that ``is_deepspeed_zero3_enabled`` reads). An inference or chat script that
parses plain argument classes this way is no training script (lint/script ``_trains``).

A class name a file imports from a module of the project that never mentions it (no star import either) is counted
with them: the import raises ImportError, so a parser over it never runs (a chat script left behind when the
project renamed its argument classes), unless the project defines a class of that name elsewhere.
"""

from __future__ import annotations

import re
from typing import Dict, Iterable, List, Mapping, Optional, Set, Tuple

from ..knowledge import transformers as TF
from .discover import _read

_CLASS = re.compile(r"^[ \t]*class[ \t]+(\w+)[ \t]*(?:\(([^)]*)\))?[ \t]*:", re.M)
_STAR = re.compile(r"import[ \t(]+\*")  # opens with its literal, which re finds fast; the word start tested apart
_REGISTERING = re.compile(rf"^(?:{'|'.join(TF.ZERO3_REGISTERING_CLASSES)}|\w*TrainingArguments|\w*Config)$")


def _bases(raw: str) -> List[str]:
    out = []
    for part in re.sub(r"\[[^\]]*\]", "", raw).split(","):
        part = part.strip()
        if part and "=" not in part:  # metaclass=... is no base
            out.append(part.split(".")[-1])
    return out


def _star_import(text: str) -> bool:
    return any(m.start() == 0 or not (text[m.start() - 1].isalnum() or text[m.start() - 1] == "_")
               for m in _STAR.finditer(text))


def unbound_imports(named: Mapping[Tuple[str, str], Optional[Set[str]]]) -> Set[str]:
    """Capitalised names some file imports from a project module (``named``: reach.import_graph's edges with the
    names taken) whose text never has them, with no star import or module ``__getattr__``: the import fails."""
    out: Set[str] = set()
    open_ended: Dict[str, bool] = {}  # module -> binds names the text does not spell (star import, __getattr__)
    for (_, imported), names in named.items():
        wanted = [n for n in names or () if n[:1].isupper()]
        if wanted:
            text = _read(imported, 4 * 2**20)
            if imported not in open_ended:
                open_ended[imported] = "__getattr__" in text or _star_import(text)
            if not open_ended[imported]:
                out.update(n for n in wanted if n not in text)
    return out


def plain_classes(files: Iterable[str], unbound: Iterable[str] = ()) -> Set[str]:
    """The names of classes defined in ``files`` (every definition, where a name has several) whose bases are
    ``object`` or other plain classes of the project; never a name of a registering class (TrainingArguments,
    a TRL ``...Config``, Accelerator ...), whatever its bases. ``unbound`` (:func:`unbound_imports`) names no
    class of ``files`` defines are plain too: nothing binds them."""
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
    return plain | {n for n in unbound if n not in defs and not _REGISTERING.match(n)}
