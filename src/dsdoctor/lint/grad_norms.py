"""The ``--max_grad_norm`` a config's launches pass (issue 18: a recipe that turns clipping off on purpose,
``--max_grad_norm 1e11``, loses nothing when DeepSpeed's default is no clipping)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple

from ..knowledge.transformers import HF_MAX_GRAD_NORM_DEFAULT
from ..model import Severity

if TYPE_CHECKING:
    from .recipe import Recipe

# a max_grad_norm at or above this clips nothing a real run produces: the recipe turns clipping off
NO_CLIPPING_FROM = 1e6


def launch_grad_norms(recipes: Sequence["Recipe"]) -> Tuple[Dict[str, Tuple[float, ...]], Dict[str, Tuple[float, ...]]]:
    """ds_config -> the ``--max_grad_norm`` values of the launches that hand it over, where every one of them
    passes a number (a launch without it leaves the Trainer's default); and, where only some do, their values.
    ``recipes``: the launches that train (the caller leaves out those whose entry never does: a demo handed the same
    Python config as a training run asks for no clipping, ILLUME_plus)."""
    seen: Dict[str, List[Optional[float]]] = {}
    for r in recipes:
        val = _value(r.flags)
        for cfg in [*r.configs, *([r.yaml] if r.yaml else [])]:  # an accelerate YAML's launches too
            seen.setdefault(cfg, []).append(val)
    every = {cfg: tuple(v for v in vals if v is not None) for cfg, vals in seen.items()
             if vals and all(v is not None for v in vals)}
    some = {cfg: tuple(v for v in vals if v is not None) for cfg, vals in seen.items()
            if cfg not in every and any(v is not None for v in vals)}
    return every, some


def unset_clipping(default: float, every: Tuple[float, ...], some: Tuple[float, ...]) -> Optional[Tuple[str, Severity]]:
    """What a Trainer's run loses with no gradient_clipping, given DeepSpeed's ``default`` and the --max_grad_norm
    of its launches (``every``: each launch's, where all pass one; ``some``: those of the launches that do): None
    when they ask what DeepSpeed does anyway; a warning where a launch asks for a clipping DeepSpeed will not do;
    info where none asks (only the Trainer's implicit default is lost: blind readers of five sets judged that a
    choice, since the published runs trained so)."""
    if every and {clipping(n) for n in every} == {clipping(default)}:
        return None  # e.g. --max_grad_norm 1e11 with the no-clipping default
    lost = sorted({n for n in (every or some) if clipping(n) != clipping(default)})
    if lost:
        return (f"the launches pass --max_grad_norm {', '.join(f'{n:g}' for n in lost)}, DeepSpeed "
                + (f"clips at its default {default:g}" if default else "does not clip (its default 0)")), Severity.WARNING
    if default == HF_MAX_GRAD_NORM_DEFAULT:
        return f"DeepSpeed clips at its default {default:g} whatever max_grad_norm says", Severity.INFO
    return (f"no gradient clipping at all (DeepSpeed's default {default:g}); no launch sets --max_grad_norm, so what "
            f"is lost is the Trainer's default {HF_MAX_GRAD_NORM_DEFAULT:g}"), Severity.INFO


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
