"""gradient-clipping-unset-under-trainer: the HF Trainer's max_grad_norm never reaches a config without
gradient_clipping."""

from __future__ import annotations

from typing import Iterator, Tuple

from ... import names as N
from ...knowledge import deepspeed as K
from ...model import Applicability, Fix, Severity
from ..grad_norms import unset_clipping
from ..rule import Edit, Example, Hit, Rule, spec
from ..target import Target
from .fields import add_member

KEY = "gradient_clipping"


def check(t: Target) -> Iterator[Hit]:
    root = t.doc.root if t.doc else None
    if t.usage.loaded_by != "trainer" or root is None or root.kind != "object" or root.get(KEY) is not None:
        return
    default, on = t.usage.ds_range(K.gradient_clipping_default)  # a pinned range: every release it allows
    verdict = unset_clipping(default, t.usage.max_grad_norms, t.usage.some_grad_norms)
    if verdict is None:
        return
    now, sev = verdict
    # "auto" is right only if the Trainer really loads it: under raw DeepSpeed it would crash
    how: Applicability = "unsafe" if t.usage.loaded_by_assumed else "safe"
    add = add_member(t, root, KEY, '"auto"', how, f'add "{KEY}": "auto"')
    edits: Tuple[Edit, ...] = (add,) if add else ()
    reason = 'the loader is assumed from the "auto" values: under raw deepspeed.initialize, write a number' \
        if t.usage.loaded_by_assumed else ""
    yield RULE.hit(t, root.start, f"no {KEY} under the HF Trainer: --max_grad_norm is ignored, {now} ({on})",
                   fixes=(Fix(f'add "{KEY}": "auto" (the Trainer fills it from max_grad_norm)', how,
                              (f'"{KEY}": "auto"',), reason),), edits=edits, severity=sev)


RULE = Rule(
    spec(
        N.GRADIENT_CLIPPING_UNSET_UNDER_TRAINER,
        "ds_config",
        Severity.WARNING,
        summary="A config the HF Trainer uses without gradient_clipping: max_grad_norm is silently ignored",
        what="A ds_config loaded through the HF Trainer (TrainingArguments(deepspeed=...); --loaded-by trainer; or a "
         "config with \"auto\" values and no known loader) with no gradient_clipping key. A warning where a launch "
         "of the config passes a --max_grad_norm DeepSpeed will not apply (DeepSpeed's default is no clipping up to "
         "0.19.2, 1.0 from 0.19.3); nothing when the launches ask what DeepSpeed does anyway (0, or a huge value like "
         "1e11, with the no-clipping default); info where no launch sets --max_grad_norm: only the Trainer's "
         "implicit default (1.0) is lost, and the recipe's published runs trained that way.",
        why="Under DeepSpeed the Trainer leaves clipping to the engine (accelerate's clip_grad_norm_ does nothing) and "
        "only fills gradient_clipping when the config says \"auto\"; without the key DeepSpeed uses its own default: "
        "0.0, no clipping, up to 0.19.2 (1.0 from 0.19.3), whatever max_grad_norm says.",
        fix='Add "gradient_clipping": "auto" (or the value you want).'),
    check=check,
    valid=(Example('{"gradient_clipping": "auto", "zero_optimization": {"stage": 3}}', (("loaded_by", "trainer"),)),
           Example('{"zero_optimization": {"stage": 3}}', (("loaded_by", "deepspeed"),)),
           Example('{"zero_optimization": {"stage": 3}}', (("loaded_by", "trainer"), ("ds", "0.16.9"),
                                                            ("max_grad_norms", (1e11,))),
                   note="the launches turn clipping off: DeepSpeed's default 0 does just that")),
    invalid=(Example('{\n  "zero_optimization": {"stage": 3}\n}', (("loaded_by", "trainer"), ("ds", "0.16.9"),
                                                              ("max_grad_norms", (1.0,))),
                     note="the launches ask for clipping at 1.0; DeepSpeed 0.16.9 does not clip",
                     fixed='{\n  "zero_optimization": {"stage": 3},\n  "gradient_clipping": "auto"\n}'),
             Example('{\n  "zero_optimization": {"stage": 3}\n}',
                     (("loaded_by", "trainer"), ("ds", "0.19.8"), ("max_grad_norms", (0.0,))),
                     note="the launches turn clipping off; DeepSpeed 0.19.3+ clips at 1.0",
                     fixed='{\n  "zero_optimization": {"stage": 3},\n  "gradient_clipping": "auto"\n}')),
)
