"""accelerate's DummyOptim / DummyScheduler placeholders: the "auto" ds_config keys accelerate's prepare() fills
from the arguments the code gives them."""

from __future__ import annotations

import re
from typing import Set

from ..knowledge import transformers as TF
from ..literal_gate import gated

# accelerate's placeholders, whose arguments prepare() writes into the config's "auto" values (one level of nested
# parentheses in the arguments: ``DummyScheduler(opt, total_num_steps=len(loader) * epochs)``)
_PY_DUMMY = gated(r"\b(DummyOptim|DummyScheduler)\s*\(((?:[^()]|\([^()]*\))*)\)")
# the class named, not called (``optimizer_cls = AdamW if ... else DummyOptim``), outside an import
_PY_DUMMY_NAMED = gated(r"^(?![ \t]*(?:from|import)\b).*\b(DummyOptim|DummyScheduler)\b(?!\s*\()", re.M)


def dummy_fills(text: str) -> Set[str]:
    """The "auto" config keys accelerate's prepare() fills from the DummyOptim / DummyScheduler the code makes."""
    out: Set[str] = set()
    for m in _PY_DUMMY.finditer(text):
        if m.group(1) == "DummyOptim":
            out.update(TF.ACCELERATE_DUMMY_OPTIM_KEYS)
        elif "lr_scheduler_callable" not in m.group(2):
            out.update(TF.ACCELERATE_DUMMY_SCHEDULER_KEYS)
            if "total_num_steps" in m.group(2):
                out.add(TF.ACCELERATE_DUMMY_TOTAL_STEPS_KEY)
    for m in _PY_DUMMY_NAMED.finditer(text):  # called through a name: its arguments are not known here
        out.update(TF.ACCELERATE_DUMMY_OPTIM_KEYS if m.group(1) == "DummyOptim" else TF.ACCELERATE_DUMMY_SCHEDULER_KEYS)
    return out
