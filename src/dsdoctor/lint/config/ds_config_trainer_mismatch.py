"""ds-config-trainer-mismatch: a config value the HF Trainer checks against its arguments, and a launch of the config
whose argument differs (the Trainer refuses to start)."""

from __future__ import annotations

import functools
from typing import Dict, Iterator, List, Optional, Tuple

from packaging.version import InvalidVersion, Version

from ... import names as N
from ...knowledge import transformers as TF
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target

_FIX = Fix('write "auto" there (the Trainer fills it from its argument), or pass the same value to the launch', "safe")


def _config_value(t: Target, key: str, width: int) -> Optional[Tuple[float, ...]]:
    """The number(s) at ``key`` (dotted), None where it is absent, "auto" or not numbers (DeepSpeed's own business)."""
    node = t.node(*key.split("."))
    if node is None:
        return None
    if key.endswith(".enabled"):  # a switch: 1.0 on
        return (1.0 if node.value else 0.0,) if isinstance(node.value, bool) else None
    vals = [i.value for i in node.items] if node.kind == "array" and node.items is not None else [node.value]
    if len(vals) != width or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals):
        return None
    return tuple(float(v) for v in vals)


@functools.lru_cache(maxsize=1)
def _checked_from() -> str:
    """The first Transformers release whose Trainer raises on a mismatch (trainer_config_finalize's message, in the
    message index: 4.7.0; 4.6 and older only fill "auto")."""
    from ...knowledge import messages

    spans = [m.message.span for m in messages.lookup(TF.MSG_CONFIG_MISMATCH, frozenset({"transformers"}))
             if m.message.function.endswith("trainer_config_finalize")]
    return (messages.union(spans).first() if spans else None) or "0"


def _checked(t: Target, built: bool) -> Optional[bool]:
    """Does the Trainer check the config (the one an accelerate YAML builds: from 4.30), with the Transformers
    judged: True on every release, None on some, False on none?"""
    since = max(Version(_checked_from()), Version(TF.PLUGIN_CONFIG_CHECKED_FROM) if built else Version("0"))
    got = set()
    for v in t.usage.tf_releases():
        try:
            got.add(v is None or Version(v) >= since)
        except InvalidVersion:
            got.add(True)
    return True if got == {True} else False if got == {False} else None


def check(t: Target) -> Iterator[Hit]:
    u = t.usage
    if t.doc is None or t.doc.root is None or t.doc.root.kind != "object" or not u.trainer_launches:
        return
    built = u.loaded_by == "accelerate"  # the config an accelerate YAML builds (lint/one_file.py lint_yaml)
    found = [(where, pairs) for where, values, defaulted in u.trainer_launches
             for pairs in [_mismatches(t, values, defaulted, built)] if pairs]
    checked = _checked(t, built) if found else False
    if not found or checked is False:
        return
    where, pairs = found[0]
    more = f" (and {len(found) - 1} more launch{'es' if len(found) > 2 else ''})" if len(found) > 1 else ""
    since = max(_checked_from(), TF.PLUGIN_CONFIG_CHECKED_FROM, key=Version) if built else _checked_from()
    when = "" if checked else f" (on transformers {since}+, which the pins allow)"
    yield RULE.hit(t, pairs[0][0], f"values the HF Trainer checks against its arguments differ for the launch at "
                   f"{where}{more}: {'; '.join(p[1] for p in pairs)}: it raises ValueError "
                   f"\"{TF.MSG_CONFIG_MISMATCH} ...\"{when}", fixes=(_FIX,),
                   severity=Severity.ERROR if checked else Severity.WARNING)


def _mismatches(t: Target, values: Dict[str, float], defaulted: Tuple[str, ...], built: bool) -> List[Tuple[int, str]]:
    """(offset, "key=V vs --option W") of each config value the launch's arguments contradict. In the config an
    accelerate YAML builds, a --fp16 / --bf16 the launch passes replaces the YAML's mixed_precision (TrainingArguments
    sets ACCELERATE_MIXED_PRECISION from it first): the switches agree then."""
    assert t.doc is not None and t.doc.root is not None
    out: List[Tuple[int, str]] = []
    switched = built and any(values.get(s) == 1.0 for s in TF.TRAINER_CHECKED_SWITCHES)
    for key, options, _ in TF.TRAINER_CHECKED:
        if switched and options[0] in TF.TRAINER_CHECKED_SWITCHES:
            continue
        ds = _config_value(t, key, len(options))
        hf = tuple(values.get(o) for o in options)
        if ds is None or any(v is None for v in hf) or hf == ds:
            continue
        dflt = all(o in defaulted for o in options)
        if key.endswith(".enabled"):
            ds_text, hf_text = str(bool(ds[0])).lower(), ("no " if not hf[0] else "") + f"--{options[0]}"
        else:
            ds_text = _num(ds[0] if len(ds) == 1 else list(ds))
            hf_text = ", ".join(f"{'' if dflt else '--'}{o}" for o in options) + " " + ", ".join(_num(v) for v in hf)
            hf_text += " (default)" if dflt else ""
        out.append((t.key_pos(*key.split(".")) or t.doc.root.start, f"{key}={ds_text} vs {hf_text}"))
    return out


def _num(v: object) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(_num(x) for x in v) + "]"
    return f"{v:g}" if isinstance(v, float) else str(v)


_LAUNCH = (("trainer_launches", (("run.sh:3", {"per_device_train_batch_size": 4.0, "gradient_accumulation_steps": 1.0,
                                               "max_grad_norm": 1.0, "learning_rate": 2e-5, "adam_beta1": 0.9,
                                               "adam_beta2": 0.999}, ("gradient_accumulation_steps",)),)),
           ("loaded_by", "trainer"))
_BODY: List[str] = ['"gradient_accumulation_steps": "auto"', '"gradient_clipping": 1.0']
RULE = Rule(
    spec(
        N.DS_CONFIG_TRAINER_MISMATCH,
        "ds_config",
        Severity.ERROR,
        summary="DeepSpeed config values contradict TrainingArguments",
        what="A config an HF Trainer launch of the project loads (--deepspeed, or the DeepSpeed config an accelerate "
             "YAML builds: gradient_accumulation_steps, gradient_clipping) gives a number where the Trainer checks "
             "it against its own argument (train_micro_batch_size_per_gpu / per_device_train_batch_size, "
             "gradient_accumulation_steps, gradient_clipping / max_grad_norm, optimizer lr / betas / eps / "
             "weight_decay, scheduler warmup_max_lr / learning_rate), and the launch passes another value, or leaves "
             "the argument at its default (where nothing else can set it: no training arguments built in code or "
             "read from a file the launch does not name, such as TrlParser's `--config $RECIPE`; no unknown $ARGS; "
             "no README's command; not the learning rate or bf16 of a TRL config, whose defaults are TRL's: bf16 is "
             "on unless fp16 from TRL 0.19). In a log: `Please correct the following "
             "DeepSpeed config values that mismatch TrainingArguments values`, listing each pair; or Accelerate's "
             "`` `--mixed_precision` arg cannot be set to `bf16` when `fp16` is set in the DeepSpeed config file``.",
        why="The Trainer fills an \"auto\" from its arguments and refuses any other value that differs: an explicit "
            "different value is ambiguous, so it raises before training (trainer_config_finalize, from Transformers "
            "4.7.0 as the message index reads its releases; 4.6 and older only fill \"auto\").",
        fix="Set the listed DeepSpeed keys to \"auto\" so the Trainer fills them (ds_config `\"<key>\": \"auto\"`), "
            "or pass the same values to the launch.",
        section="Config"),
    check=check,
    valid=(Example('{"train_micro_batch_size_per_gpu": "auto", ' + ", ".join(_BODY) + "}", _LAUNCH),
           Example('{"train_micro_batch_size_per_gpu": 4, "optimizer": {"type": "AdamW", "params": {"lr": 2e-5}}}',
                   _LAUNCH),
           Example('{"train_micro_batch_size_per_gpu": 2, ' + ", ".join(_BODY) + "}", (*_LAUNCH, ("transformers", "4.6.1")),
                   note="transformers 4.6 fills the \"auto\" values only: the check comes with 4.7.0")),
    invalid=(Example('{"train_micro_batch_size_per_gpu": 2, ' + ", ".join(_BODY) + "}", _LAUNCH),
             Example('{"optimizer": {"type": "AdamW", "params": {"lr": 2e-5, "betas": [0.9, 0.95]}}}', _LAUNCH)),
)
