"""A DeepSpeed config that a Python file names but does not load: a Python config with a module-level
``deepspeed = False``, or code whose every engine choice names another engine than DeepSpeed (FlagAI's
``Trainer(env_type="bmtrain", deepspeed_config=...)``, Lightning's ``strategy="fsdp"``)."""

from __future__ import annotations

import re

from ..literal_gate import gated
from .reading import per_text

_PY_DS_OFF = gated(r"^deepspeed\s*=\s*False\s*(?:#.*)?$", re.M)
_PY_DS_ASSIGN = gated(r"^[ \t]*(?:self\.)?deepspeed\s*(?:=(?!=)|:[^\n=]*=)", re.M)
# a framework's engine choice in code (FlagAI's ``Trainer(env_type="bmtrain", deepspeed_config=...)``, Lightning's
# ``strategy="fsdp"``): a config named beside it is read only by the DeepSpeed engine
_PY_ENGINE = gated(r"\b(?:env_type|train_engine|engine|strategy)\s*=\s*['\"]([\w+-]{2,40})['\"]")
_OTHER_ENGINES = frozenset({"bmtrain", "pytorch", "pytorchddp", "torch_ddp", "ddp", "fsdp", "megatron", "colossalai",
                            "horovod", "xla"})


def commented(text: str, pos: int) -> bool:
    """Is ``pos`` on a comment line of Python ``text`` (``# deepspeed='config/ds_config.json',``: not loaded)?"""
    return text[text.rfind("\n", 0, pos) + 1:pos].lstrip().startswith("#")


def off_note(path: str, line: int, text: str = "") -> str:
    """Why a config a Python config names next to ``deepspeed = False`` (at ``path:line``), or beside an engine
    choice that is not DeepSpeed (:func:`deepspeed_off`), is not loaded."""
    m = _PY_ENGINE.search(text) if text else None
    if m is not None and text.count("\n", 0, m.start()) + 1 == line:
        return f"{path}:{line} names it beside `{m.group(0)}`, another engine than DeepSpeed"
    return f"{path}:{line} names it beside `deepspeed = False`"


@per_text  # asked by discovery and by the recipes of every Python file
def deepspeed_off(text: str) -> int:
    """The line of a module-level ``deepspeed = False`` (a Python config that turns DeepSpeed off), or of the first
    engine choice where every one in the file names another engine, else 0; 0
    too where the file assigns ``deepspeed`` anywhere else (a flag a script may turn on)."""
    m = _PY_DS_OFF.search(text)
    if m is None or len(_PY_DS_ASSIGN.findall(text)) > 1:
        engines = list(_PY_ENGINE.finditer(text))
        if engines and all(e.group(1).lower() in _OTHER_ENGINES for e in engines):
            return text.count("\n", 0, engines[0].start()) + 1  # every engine choice in the file is another's
        return 0
    return text.count("\n", 0, m.start()) + 1
