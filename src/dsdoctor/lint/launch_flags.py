"""The values the launches of each ds_config pass for one option of the entry script (``--lr_scheduler_type``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Sequence, Set, Tuple

if TYPE_CHECKING:
    from .recipe import Recipe


def config_flag_values(recipes: Sequence["Recipe"], name: str) -> Dict[str, Tuple[str, ...]]:
    """ds_config -> the values (sorted, distinct) its launches pass for ``--name``; a config none passes it for
    is absent. A value taken from a shell variable is not known and not counted (recipes keep no ``$`` value)."""
    out: Dict[str, Set[str]] = {}
    prefix = name + "="
    for r in recipes:
        vals = {f[len(prefix):] for f in r.flags if f.startswith(prefix) and len(f) > len(prefix)}
        for cfg in r.configs if vals else ():
            out.setdefault(cfg, set()).update(vals)
    return {cfg: tuple(sorted(v)) for cfg, v in out.items()}
