"""zero3-16bit-save-disabled: stage 3 without stage3_gather_16bit_weights_on_model_save where a 16-bit save is expected."""

from __future__ import annotations

import os
import re
from typing import Iterator, Tuple

from ... import names as N
from ...knowledge import deepspeed as K
from ...knowledge import transformers as TF
from ...model import Fix, Severity
from ..rule import Edit, Example, Hit, Rule, spec
from ..target import Target
from .fields import add_member, stage, zero

KEY = "stage3_gather_16bit_weights_on_model_save"
# a config's file name that marks it for evaluation or inference (ds_eval_config_template.json, zero3_inference.json)
_EVAL_NAME = re.compile(r"(?i)(?:^|[_.-])(?:eval|evaluation|inference|infer)(?=[_.-]|$)")


def check(t: Target) -> Iterator[Hit]:
    z = zero(t)
    if z is None or stage(t) != 3:
        return
    trainer = t.usage.loaded_by == "trainer" or t.usage.trainer_saves
    if t.usage.saves_16bit is False or not (t.usage.saves_16bit or trainer):
        return  # False: the launches of this config never save (an evaluation config), whoever loads it
    member = next((m for m in map(z.member, (KEY, "gather_16bit_weights_on_model_save",
                                             "stage3_gather_fp16_weights_on_model_save")) if m), None)
    flag = member.value if member else None
    if flag is not None and (flag.value is True or (flag.value == "auto" and t.usage.accelerate_save_16bit)):
        return
    # the HF Trainer falls back to a ZeRO checkpoint that zero_to_fp32.py turns into weights (transformers 4.30.0 and
    # 4.45.0 trainer.py Trainer.save_model: save_checkpoint after "Saving the full checkpoint instead, use
    # zero_to_fp32.py to recover weights"): a note without PEFT, or where the project documents that step; with PEFT
    # the adapter file comes out empty, and a raw save_16bit_model writes nothing: warnings
    # a config nothing names in a project whose launches are known: no save is known to use it (a save needs one)
    # code beside the config that reads the flag and writes a ZeRO checkpoint itself when it is off (not the
    # Trainer's own save): nothing it saves is lost
    fallback = t.usage.save_fallback if not trainer else ""
    evaluation = _EVAL_NAME.search(os.path.basename(t.path)) is not None
    severity = Severity.INFO if trainer and (not t.usage.peft or t.usage.zero_to_fp32) or t.usage.consolidates or \
        t.usage.unnamed or fallback or evaluation else Severity.WARNING
    if flag is not None and flag.value == "auto":
        yield RULE.hit(t, member.start if member else None,
                       f'ZeRO-3 with {KEY}: "auto": false unless `accelerate launch` sets zero3_save_16bit_model: true'
                       + (f" (the project's saving code reads it itself, {fallback}, and saves a ZeRO checkpoint when "
                          "it is off)" if fallback else ""),
                       f"accelerate's DeepSpeedPlugin (also under the HF Trainer) fills this \"auto\" from "
                       f"zero3_save_16bit_model ({TF.ACCELERATE_SAVE_16BIT_ENV}, false when unset) and raw DeepSpeed "
                       f"drops it (default false): `{K.MSG_SAVE_16BIT.format(path='...')}`; the 16-bit save writes "
                       "no usable weights.",
                       (Fix(f'set "{KEY}": true (gathers the full model on rank 0 at save)', "unsafe", (f'"{KEY}": true',)),),
                       severity=severity)
        return
    add = add_member(t, z, KEY, "true", "unsafe", f"add {KEY}: true") if flag is None else None
    edits: Tuple[Edit, ...] = (add,) if add else ()
    where = t.key_pos("zero_optimization", KEY) or t.key_pos("zero_optimization")
    title = (f"ZeRO-3 without {KEY}: the HF Trainer's model save writes a ZeRO checkpoint, not weights "
             "(zero_to_fp32.py recovers them)" if severity == Severity.INFO and trainer
             else f"ZeRO-3 without {KEY}: the 16-bit model save writes no usable weights")
    if t.usage.consolidates:
        title += (" (its launches also consolidate the weights themselves: _zero3_consolidated_16bit_state_dict() or "
                  "zero_to_fp32's convert_zero_checkpoint_to_fp32_state_dict() ...)")
    if fallback:
        title = (f"ZeRO-3 without {KEY}: the project's saving code reads that flag itself ({fallback}) and, with it "
                 "off, saves a ZeRO checkpoint with save_checkpoint (zero_to_fp32.py recovers the weights)")
    if t.usage.unnamed:
        title += " (no launch of the project uses this config: no save is known to use it)"
    elif evaluation:
        title += " (its name marks it for evaluation or inference: the model a run saves is not expected to use it)"
    documented = f" The project documents that step ({t.usage.zero_to_fp32} names zero_to_fp32.py)." \
        if trainer and t.usage.zero_to_fp32 else ""
    if t.usage.consolidates:  # deepspeed/runtime/engine.py (v0.8.3, 0.19.8): only save_16bit_model reads the flag
        documented += (" Every launch of this config runs code that calls DeepSpeed's "
                       "_zero3_consolidated_16bit_state_dict() itself, which gathers the full weights whatever this "
                       "flag says: a save through it is whole.")
    yield RULE.hit(t, where, title,
                   f"`{K.MSG_SAVE_16BIT.format(path='...')}`; HF Trainer (4.x, full fine-tuning) then saves only a "
                   "ZeRO checkpoint and zero_to_fp32.py" + (" (a PEFT adapter comes out empty)." if t.usage.peft else ".")
                   + documented,
                   (Fix(f'set "{KEY}": true (gathers the full model on rank 0 at save)', "unsafe", (f'"{KEY}": true',)),),
                   edits, severity=severity)


RULE = Rule(
    spec(
        N.ZERO3_16BIT_SAVE_DISABLED,
        "ds_config",
        Severity.WARNING,
        summary="ZeRO-3 config where a 16-bit model save is expected but not enabled",
        what=f"Stage 3 without {KEY}: true, when the model is saved with a save that reads it: trainer.save_model (an "
        "HF Trainer that trains saves its checkpoints with it), save_16bit_model, accelerate's save_model / "
        "get_state_dict; a bare save_pretrained does not read it (under ZeRO-3 it writes the partitions whatever the "
        "flag says: zero3-unsafe-save). "
        "Info when the HF Trainer saves the model (the config's launches, or every launch of the accelerate YAML, run "
        "a Trainer script) and the code those launches run does not import peft (the project's code, where no launch "
        "is known) or the project documents zero_to_fp32.py (the Trainer's save "
        "falls back to a ZeRO checkpoint that zero_to_fp32.py converts); a warning with PEFT (the adapter comes out "
        "empty) or a raw `save_16bit_model` (nothing is written). Info also where the Python files beside the config (its "
        "nearest directory holding any) that save a model under DeepSpeed all read the flag themselves "
        "(ACCELERATE_DEEPSPEED_ZERO3_SAVE_16BIT_MODEL, zero3_save_16bit_model, the key) in a function that calls "
        "save_checkpoint in an if / else branch: a ZeRO checkpoint when it is off. Info too for a config whose file name "
        "marks it for evaluation or inference (`ds_eval_config.json`, `zero3_inference.json`): the engines built from "
        "it (a frozen reference or reward model, a generation run) are not the ones a run saves. Where every launch "
        "of the config starts a script the project does not have (a README's `main.py`, since moved or renamed), "
        "what that run saves is unknown: the project's other scripts' saves do not decide it. A config that only "
        "code no launch runs names (a test, a script of its own nothing imports) is judged by what that code saves.",
        why="DeepSpeed logs `Did not save the model ... because stage3_gather_16bit_weights_on_model_save is False`; "
        "HF Trainer falls back to a ZeRO checkpoint, leaving no loadable weights (PEFT adapters come out empty on 4.x).",
        fix=f"Set {KEY}: true (an unsafe --fix: it gathers the whole model to rank 0 when saving)."),
    check=check,
    valid=(Example('{"zero_optimization": {"stage": 3, "stage3_gather_16bit_weights_on_model_save": true}}',
                   (("loaded_by", "trainer"),)),),
    invalid=(Example('{"zero_optimization": {"stage": 3}}', (("loaded_by", "trainer"), ("peft", True))),
             Example('{"zero_optimization": {"stage": 3}}', (("loaded_by", "deepspeed"), ("saves_16bit", True)))),
)
