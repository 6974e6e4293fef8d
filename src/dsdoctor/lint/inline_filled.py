"""Keys a framework's code sets in the config a training YAML writes inline under its ``deepspeed:`` key.

A framework that reads its YAML into a typed config (``deepspeed: Dict`` of a pydantic / dataclass model) and hands
``config.deepspeed`` to ``deepspeed.initialize`` often fills that dict first: ``ds_config = self.deepspeed`` then
``ds_config["train_micro_batch_size_per_gpu"] = self.micro_batch_size``, or ``self.deepspeed["train_batch_size"] = ...``
(ArcticTraining's trainer config). What the YAML leaves out there is the code's to set, and a value it writes there
is replaced: findings on those keys are info (:mod:`.code_filled`'s ``soften``), and a batch size the YAML lacks is
no missing batch size. Read with regular expressions on the project's Python files (tests excluded by the caller).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Dict, Iterable

from .code_filled import _assigned, _updated, module_text

if TYPE_CHECKING:
    from .discover import Found

# a name bound to the config's `deepspeed` field (`ds_config = self.deepspeed`, `= config.deepspeed`)
_BOUND = re.compile(r"^[ \t]*(\w+)[ \t]*(?::[^=\n]*)?=[ \t]*(?:\w+\.)+deepspeed[ \t]*(?:#.*)?$", re.M)
# the field assigned into directly: `self.deepspeed["train_batch_size"] = ...`
_DIRECT = re.compile(r"\b\w+\.deepspeed((?:\[\s*[\"'][^\"'\]]+[\"']\s*\])+)[ \t]*=(?!=)")
_KEY = re.compile(r"\[\s*[\"']([^\"'\]]+)[\"']\s*\]")


def field_filled(py: str) -> Dict[str, str]:
    """Key path -> "file:line" of each key ``py`` sets in a config's ``deepspeed`` field."""
    text = module_text(py)
    if text is None or ".deepspeed" not in text:
        return {}
    out: Dict[str, str] = {}
    for m in _BOUND.finditer(text):
        for key, line in _assigned(text, m.group(1), m.end()) + _updated(text, m.group(1), m.end()):
            out.setdefault(key, f"{py}:{line}")
    for m in _DIRECT.finditer(text):
        out.setdefault(".".join(_KEY.findall(m.group(1))), f"{py}:{text.count(chr(10), 0, m.start()) + 1}")
    return out


def inline_filled(pyfiles: Iterable[str], found: "Found") -> None:
    """Add the keys the project's code sets in a ``deepspeed`` field to ``found.code_filled`` of every config written
    inline under a YAML's ``deepspeed:`` key (:mod:`.embedded`)."""
    inline = [c for c, k in found.kinds.items() if k == "ds_config" and re.search(r"\.ya?ml#L\d+$", c)]
    if not inline:
        return
    filled: Dict[str, str] = {}
    for py in sorted(pyfiles):
        for key, where in field_filled(py).items():
            filled.setdefault(key, where)
    if filled:
        for cfg in inline:
            found.code_filled[cfg] = {**filled, **found.code_filled.get(cfg, {})}
