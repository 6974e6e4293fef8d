"""The ``--max_grad_norm`` a config's launches pass (issue 18: a recipe that turns clipping off on purpose,
``--max_grad_norm 1e11``, loses nothing when DeepSpeed's default is no clipping)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple

if TYPE_CHECKING:
    from .recipe import Recipe

# a max_grad_norm at or above this clips nothing a real run produces: the recipe turns clipping off
NO_CLIPPING_FROM = 1e6


def launch_grad_norms(recipes: Sequence["Recipe"]) -> Dict[str, Tuple[float, ...]]:
    """ds_config -> the ``--max_grad_norm`` values of the launches that hand it over, only where every one of
    them passes a number (a launch without it leaves the Trainer's default, which the rule assumes anyway)."""
    seen: Dict[str, List[Optional[float]]] = {}
    for r in recipes:
        val = _value(r.flags)
        for cfg in [*r.configs, *([r.yaml] if r.yaml else [])]:  # an accelerate YAML's launches too
            seen.setdefault(cfg, []).append(val)
    return {cfg: tuple(v for v in vals if v is not None) for cfg, vals in seen.items()
            if vals and all(v is not None for v in vals)}


def _value(flags: "set[str]") -> Optional[float]:
    for f in flags:
        name, _, val = f.partition("=")
        if name == "max_grad_norm" and val:
            try:
                return float(val)
            except ValueError:
                return None
    return None


def clipping(norm: float) -> float:
    """What a max_grad_norm asks of DeepSpeed's gradient_clipping: 0 (none) for 0, a negative or a huge value."""
    return 0.0 if norm <= 0 or norm >= NO_CLIPPING_FROM else norm
