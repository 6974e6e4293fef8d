"""gradient-clipping-unset-under-trainer: the HF Trainer's max_grad_norm never reaches a config without
gradient_clipping."""

from __future__ import annotations

from typing import Iterator, Tuple

from ... import names as N
from ...knowledge import deepspeed as K
from ...knowledge import transformers as TF
from ...model import Applicability, Fix, Severity
from ..grad_norms import clipping
from ..rule import Edit, Example, Hit, Rule, spec
from ..target import Target
from .fields import add_member

KEY = "gradient_clipping"


def check(t: Target) -> Iterator[Hit]:
    root = t.doc.root if t.doc else None
    if t.usage.loaded_by != "trainer" or root is None or root.kind != "object" or root.get(KEY) is not None:
        return
    default, on = t.usage.ds_range(K.gradient_clipping_default)  # a pinned range: every release it allows
    wanted = {clipping(n) for n in t.usage.max_grad_norms}  # what the config's launches ask for
    if wanted == {clipping(default)}:
        return  # the launches ask for what DeepSpeed does anyway (e.g. --max_grad_norm 1e11: no clipping)
    asked = ", ".join(sorted({f"{n:g}" for n in t.usage.max_grad_norms}))
    if wanted:
        now, sev = (f"the launches pass --max_grad_norm {asked}, DeepSpeed "
                    + (f"clips at its default {default:g}" if default else "does not clip (its default 0)")), \
            Severity.WARNING
    elif default == TF.HF_MAX_GRAD_NORM_DEFAULT:  # the same clipping unless the run asks another max_grad_norm
        now, sev = f"DeepSpeed clips at its default {default:g} whatever max_grad_norm says", Severity.INFO
    else:
        now, sev = f"no gradient clipping at all (DeepSpeed's default {default:g})", Severity.WARNING
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
         "config with \"auto\" values and no known loader) with no gradient_clipping key: "
         "a warning where DeepSpeed's default is no clipping (up to 0.19.2), an info from 0.19.3 (its default 1.0 is "
         "max_grad_norm's default, so only another --max_grad_norm is lost). Where every launch of the config passes "
         "--max_grad_norm, that value decides: nothing when it asks what DeepSpeed does anyway (0 or a huge value "
         "like 1e11 with the no-clipping default), a warning when they differ.",
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
    invalid=(Example('{\n  "zero_optimization": {"stage": 3}\n}', (("loaded_by", "trainer"), ("ds", "0.16.9")),
                     fixed='{\n  "zero_optimization": {"stage": 3},\n  "gradient_clipping": "auto"\n}'),
             Example('{\n  "zero_optimization": {"stage": 3}\n}',
                     (("loaded_by", "trainer"), ("ds", "0.19.8"), ("max_grad_norms", (0.0,))),
                     note="the launches turn clipping off; DeepSpeed 0.19.3+ clips at 1.0",
                     fixed='{\n  "zero_optimization": {"stage": 3},\n  "gradient_clipping": "auto"\n}')),
)
