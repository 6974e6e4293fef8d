"""zero3-low-cpu-mem-usage-conflict: a truthy ``low_cpu_mem_usage`` in ``from_pretrained`` under ZeRO-3."""

from __future__ import annotations

import os
from typing import Iterator, Optional, Set

from ... import names as N
from ...knowledge import transformers as TF
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from . import emit, guard_import, replace
from .model_loaded_before_ds_config import LATENT, early_loads
from .model_loads import arg, false_if_zero3, guard_message, loads, truthy, version_note


def check(t: Target) -> Iterator[Hit]:
    early: Optional[Set[int]] = None  # the file's loads before ZeRO-3 is registered, asked once
    for c, e in loads(t):
        a = arg(c, e, "low_cpu_mem_usage")
        if a is None or not truthy(a):
            continue
        early = early_loads(c, t.usage, t.path) if early is None else early
        latent = id(e.call) in early  # loaded before ZeRO-3 is registered: raises once that is fixed
        if e.before_own and not latent:  # before the script's only ZeRO-3 config, and not the model to move after it
            continue
        raises = c.on_tf(TF.low_cpu_mem_usage_raises_under_zero3)
        edit = replace(t, a.site, false_if_zero3(t, a), "safe" if raises is not False else "unsafe",
                       "low_cpu_mem_usage off under ZeRO-3")
        fix = Fix("`low_cpu_mem_usage=not is_deepspeed_zero3_enabled()` (or drop it)", "safe")
        unseen = t.usage.hf_unseen.get(os.path.normpath(t.path))
        if unseen is not None:  # lint/hf_scope.py: no HfDeepSpeedConfig is alive where this runs
            yield from emit(RULE, t, a.anchor,
                            f"low_cpu_mem_usage=True {c.under}, but Transformers does not see ZeRO-3 in this file "
                            f"({unseen}): no ValueError; the model loads whole, then DeepSpeed partitions it",
                            fixes=(fix,), edits=(edit,) + guard_import(t, edit.applicability), severity=Severity.INFO)
        elif raises is False:
            yield from emit(RULE, t, a.anchor,
                            f"low_cpu_mem_usage=True is a dead argument {c.under} on {version_note(c)}: ignored "
                            "(not a parameter in 5.x); it raised on 4.20-4.50", fixes=(fix,),
                            edits=(edit,) + guard_import(t, edit.applicability), severity=Severity.INFO)
        else:
            known = "" if raises else f" ({version_note(c)}: an error on 4.20-4.50, ignored from 4.51)"
            yield from emit(RULE, t, a.anchor,
                            f"low_cpu_mem_usage=True {c.under}: ValueError \"{guard_message(c, 'low_cpu_mem_usage')}\""
                            + known + (LATENT if latent else ""),
                            fixes=(fix,), edits=(edit,) + guard_import(t, edit.applicability),
                            severity=Severity.INFO if latent else
                            c.zero3_severity if raises else c.at_most(Severity.WARNING))


RULE = Rule(
    spec(
        N.ZERO3_LOW_CPU_MEM_USAGE_CONFLICT,
        "python",
        Severity.ERROR,
        summary="low_cpu_mem_usage=True in from_pretrained under ZeRO-3",
        what="A truthy `low_cpu_mem_usage` (literal, variable, `**kwargs`, argparse/dataclass default) reaches a model's "
         "`from_pretrained` under ZeRO-3. PEFT's argument of the same name (`PeftModel.from_pretrained`, "
         "`get_peft_model`) is not this one, nor is a loader that is not Transformers' (a class of the project with its own "
         "`from_pretrained`, or deriving from diffusers' `ModelMixin`; diffusers' own classes; in a project with a wrapper class "
         "whose `from_pretrained` is an instance method, an object's `self.wrapper.from_pretrained`). Info at a load that runs before "
         "ZeRO-3 is registered "
         "(model-loaded-before-ds-config reports it): it raises once that is fixed. Info too where Transformers does not see "
         "ZeRO-3: a process without TrainingArguments, Trainer, accelerate or TRL whose HfDeepSpeedConfig objects are "
         "locals of functions that never reach the load's file (DeepSpeed-Chat's layout), or one whose only registration "
         "is `accelerate launch` with `zero3_init_flag: false` on accelerate before 1.0 (pinned): accelerate registers "
         "ZeRO-3 with Transformers only under that flag before 1.0, whatever it says from 1.0.",
        why="Transformers 4.20-4.50 raise a ValueError (ZeRO-3 builds the model under zero.Init instead); from 4.51 "
        "the argument is ignored under ZeRO-3, and 5.x dropped it: a dead argument (info where every release the "
        "project allows ignores it: the run loses nothing; readers of 4 repositories judged those warnings false).",
        fix="`low_cpu_mem_usage=not is_deepspeed_zero3_enabled()` (dsdoctor fix), or remove it.",
        section="Script"),
    check=check,
    valid=(Example('from transformers import AutoModelForCausalLM, TrainingArguments\n'
                   'from peft import PeftModel\n'
                   'args = TrainingArguments("out", deepspeed={"zero_optimization": {"stage": 3}})\n'
                   'model = AutoModelForCausalLM.from_pretrained("m")\n'
                   'model = PeftModel.from_pretrained(model, "a", low_cpu_mem_usage=True)\n'),),
    invalid=(Example('from dataclasses import dataclass\n'
                     'from transformers import AutoModelForCausalLM, TrainingArguments\n'
                     '@dataclass\nclass ModelArguments:\n    low_cpu_mem_usage: bool = True\n'
                     'args = TrainingArguments("out", deepspeed={"zero_optimization": {"stage": 3}})\n'
                     'model = AutoModelForCausalLM.from_pretrained("m", low_cpu_mem_usage=margs.low_cpu_mem_usage)\n',
                     (("transformers", "4.46.3"),),
                     fixed='from dataclasses import dataclass\n'
                           'from transformers import AutoModelForCausalLM, TrainingArguments\n'
                           'from transformers.integrations.deepspeed import is_deepspeed_zero3_enabled\n'
                           '@dataclass\nclass ModelArguments:\n    low_cpu_mem_usage: bool = True\n'
                           'args = TrainingArguments("out", deepspeed={"zero_optimization": {"stage": 3}})\n'
                           'model = AutoModelForCausalLM.from_pretrained("m", low_cpu_mem_usage=False if '
                           'is_deepspeed_zero3_enabled() else margs.low_cpu_mem_usage)\n'),),
)
