"""zero3-device-map-conflict: a non-None ``device_map`` reaches ``from_pretrained`` under ZeRO-3."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Iterator, Optional, Set

from ... import names as N
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from . import Ctx, emit, guard_import, replace
from .model_loaded_before_ds_config import LATENT, early_loads
from .model_loads import arg, device_map_sources, guard_message, loads, non_none, none_unless_zero3, received

if TYPE_CHECKING:
    from .dataflow import Event


def check(t: Target) -> Iterator[Hit]:
    early: Optional[Set[int]] = None  # the file's loads before ZeRO-3 is registered, asked once
    for c, e in loads(t):
        a = arg(c, e, "device_map")
        bad = non_none(a)
        if a is None or not bad or e.fallback:  # fallback: the ``except:`` that loads without it runs instead
            continue
        early = early_loads(c, t.usage, t.path) if early is None else early
        latent = id(e.call) in early  # loaded before ZeRO-3 is registered: raises once that is fixed
        if e.before_own and not latent:  # before the script's only ZeRO-3 config, and not the model to move after it
            continue
        ev = device_map_sources(c, a, bad, e.call) + (received(c, e),)
        site, anchor = a.set_at(bad)
        edit = replace(t, site, none_unless_zero3(t, site), "safe", "device_map=None under ZeRO-3")
        fix = Fix("pass device_map=None under ZeRO-3: `device_map=None if is_deepspeed_zero3_enabled() else ...` "
                  "(DeepSpeed places the partitions)", "safe")
        unseen = t.usage.hf_unseen.get(os.path.normpath(t.path))
        if unseen is not None:  # lint/hf_scope.py: no HfDeepSpeedConfig is alive where this runs
            yield from emit(RULE, t, anchor,
                            f"device_map reaches {e.name.split('.')[-2]}.from_pretrained {c.under}, but Transformers "
                            f"does not see ZeRO-3 in this file ({unseen}): no ValueError; the model loads whole onto "
                            "its device_map", fixes=(fix,),
                            edits=(edit,) + guard_import(t), severity=Severity.INFO, evidence=ev)
            continue
        yield from emit(RULE, t, anchor,
                        f"device_map reaches {e.name.split('.')[-2]}.from_pretrained {c.under}: "
                        f"ValueError \"{guard_message(c, 'device_map')}\"" + (LATENT if latent else ""),
                        fixes=(fix,),
                        edits=(edit,) + guard_import(t), severity=Severity.INFO if latent else c.zero3_severity,
                        evidence=ev)


def raising_load(t: Target, c: Ctx, later: "Event") -> Optional["Event"]:
    """The load this rule reports that raises on every way to the event ``later``: in the same scope, earlier in a
    block that holds ``later``, with a device_map that is never None (not one loaded before ZeRO-3 is registered,
    nor a ``try:`` load with a fallback). Under ZeRO-3 ``later`` runs only once that load is fixed: a finding there
    is a second finding of the run's one problem."""
    at = c.src.span(later.call)[0]
    early: Optional[Set[int]] = None
    for _, e in loads(t):
        if e.block is None or e.fallback or e.before_own or e.scope is not later.scope or \
                not c.src.span(e.stmt)[1] <= at < c.src.span(e.block)[1]:
            continue
        a = arg(c, e, "device_map")
        if a is None or not a.values or len(non_none(a)) != len(a.values):
            continue
        early = early_loads(c, t.usage, t.path) if early is None else early
        if id(e.call) not in early:
            return e
    return None


RULE = Rule(
    spec(
        N.ZERO3_DEVICE_MAP_CONFLICT,
        "python",
        Severity.ERROR,
        summary="A device_map passed to from_pretrained under ZeRO-3",
        what="`from_pretrained(..., device_map=X)` where X can be non-None (a literal, a variable set in a branch, a "
         "`**kwargs` dict entry, an argparse/dataclass default) in a script that runs under ZeRO-3; Transformers' loader only "
         "(not a class of the project with its own `from_pretrained` or deriving from diffusers' `ModelMixin`; in a project with a "
         "wrapper class whose `from_pretrained` is an instance method, not an object's `self.wrapper.from_pretrained`). Info at a load that "
         "runs before ZeRO-3 is registered (model-loaded-before-ds-config reports it): it raises once that is fixed. Info too where "
         "Transformers does not see ZeRO-3: a process whose only registration is `accelerate launch` with `zero3_init_flag: false` "
         "on accelerate before 1.0 (pinned), or one without TrainingArguments, Trainer, accelerate or TRL whose HfDeepSpeedConfig "
         "objects are locals of functions that never reach the load's file.",
        why="Transformers refuses to load a model with a device_map while ZeRO-3 is registered (every version from "
        "4.20, all 5.x): ZeRO-3 decides where the partitions live.",
        fix="`device_map=None if is_deepspeed_zero3_enabled() else device_map` (dsdoctor fix writes this and the "
        "import). QLoRA under ZeRO-3 keeps None too.",
        section="Script"),
    check=check,
    valid=(Example('from transformers import AutoModelForCausalLM, TrainingArguments\n'
                   'args = TrainingArguments("out", deepspeed={"zero_optimization": {"stage": 3}})\n'
                   'model = AutoModelForCausalLM.from_pretrained("m", device_map=None)\n'),
           # an ``elif`` after the ZeRO-3 test never runs under ZeRO-3
           Example('from transformers import AutoModelForCausalLM, TrainingArguments\n'
                   'from transformers.integrations import is_deepspeed_zero3_enabled\n'
                   'args = TrainingArguments("out", deepspeed={"zero_optimization": {"stage": 3}})\n'
                   'if is_deepspeed_zero3_enabled():\n    model = AutoModelForCausalLM.from_pretrained("m")\n'
                   'elif args.local_rank == -1:\n'
                   '    model = AutoModelForCausalLM.from_pretrained("m", device_map="auto")\n')),
    invalid=(Example('from transformers import AutoModelForCausalLM, TrainingArguments\n'
                     'args = TrainingArguments("out", deepspeed={"zero_optimization": {"stage": 3}})\n'
                     'device_map = {"": 0} if q_lora else None\n'
                     'model = AutoModelForCausalLM.from_pretrained("m", device_map=device_map)\n',
                     fixed='from transformers import AutoModelForCausalLM, TrainingArguments\n'
                           'from transformers.integrations.deepspeed import is_deepspeed_zero3_enabled\n'
                           'args = TrainingArguments("out", deepspeed={"zero_optimization": {"stage": 3}})\n'
                           'device_map = {"": 0} if q_lora else None\n'
                           'model = AutoModelForCausalLM.from_pretrained("m", device_map=None if '
                           'is_deepspeed_zero3_enabled() else device_map)\n'),),
)
