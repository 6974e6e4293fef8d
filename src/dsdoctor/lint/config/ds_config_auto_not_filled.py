"""ds-config-auto-not-filled: an "auto" value the HF Trainer never fills, in a config the Trainer loads."""

from __future__ import annotations

from typing import Iterator, List, Optional, Set, Tuple

from ... import names as N
from ...knowledge import deepspeed as K
from ...knowledge import transformers as TF
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from .assumed_loader import autos

_FIX = Fix("write the value you want (the HF Trainer fills only its own keys: bf16.enabled, not bfloat16.enabled)",
           "safe")


def _judged(t: Target) -> Tuple[Tuple[Optional[str], ...], str]:
    """The Transformers releases judged (the one known, or every release the pins allow; (None,) when unknown)
    and how to name them."""
    u = t.usage
    if u.transformers:
        return u.tf_releases(), f"transformers {u.transformers}" + (f", {u.transformers_source}"
                                                                     if u.transformers_source else "")
    return u.tf_releases(), u.transformers_source if u.transformers_pins else "transformers version unknown"


def _reaches_deepspeed(t: Target, path: str) -> Optional[Tuple[str, bool]]:
    """What DeepSpeed does with the "auto" at ``path`` (with the DeepSpeed judged) where that is known, else None;
    and whether every release judged keeps the string (the precision ON: an upgrade's hazard)."""
    block, key = path.split(".")[0], path.rsplit(".", 1)[-1]
    since = K.AUTO_DROPPED_SINCE.get(block)
    if since is None or "." not in path:
        return None  # a top-level key: kept as a string, what each reader makes of it was not read
    enabled = key == "enabled" and block != "zero_optimization"
    dropped = f"drops it silently: {block} stays OFF" if enabled else "drops it silently: its default applies"
    kept = f'keeps the string "auto", which is true: {block} is ON whatever --bf16/--fp16 say'
    if t.usage.ds_source.startswith("no DeepSpeed") and not t.usage.ds_pins:  # no DeepSpeed pinned or installed
        return f"DeepSpeed {since}+ {dropped}" + (f"; older releases {kept.replace('keeps', 'keep')}" if enabled else ""), \
            False
    drops, on = t.usage.ds_range(lambda ds: K.auto_dropped(block, ds))
    if drops:
        return f"{on} {dropped}", False
    # an older release's handling of another key was not read
    return (f"{on} {kept}; from DeepSpeed {since} it is dropped (OFF)", True) if enabled else None


def check(t: Target) -> Iterator[Hit]:
    root = t.doc.root if t.doc else None
    if root is None or root.kind != "object" or t.usage.loaded_by != "trainer":
        return
    tfs, tf_note = _judged(t)
    filled: Set[str] = {k for v in tfs for k in TF.trainer_filled_autos(v)}
    via = {TF.trainer_via_accelerate(v) for v in tfs}
    hits: List[Hit] = []
    for path, pos in autos(root):
        if path in filled:
            continue
        crash = TF.MSG_ACCELERATE_AUTO_UNFILLED.format(key=path)
        reached = _reaches_deepspeed(t, path) if via & {False, None} else None
        direct, kept = reached if reached else ("", False)
        if via == {True}:
            sev = Severity.WARNING if t.usage.loaded_by_assumed else Severity.ERROR
            hits.append(RULE.hit(t, pos, f'{path}: "auto" the HF Trainer never fills ({tf_note}): accelerator.prepare() '
                                 f'stops with "ValueError: {crash}"', fixes=(_FIX,), severity=sev))
        elif via == {False} and direct:
            # the pinned DeepSpeed keeps the (true) string: the precision is on, as a config written for it means;
            # DeepSpeed 0.17.1+ would drop it (fp32): info, the upgrade's hazard
            hits.append(RULE.hit(t, pos, f'{path}: "auto" the HF Trainer never fills ({tf_note}) reaches DeepSpeed: '
                                 f"{direct}", fixes=(_FIX,), severity=Severity.INFO if kept else None))
        elif via != {False}:  # unknown, or the pins allow both kinds of release
            then = f"; up to 4.29 it reaches DeepSpeed: {direct}" if direct else ""
            hits.append(RULE.hit(t, pos, f'{path}: "auto" the HF Trainer never fills ({tf_note}): from transformers '
                                 f'{TF.TRAINER_VIA_ACCELERATE_FROM} accelerator.prepare() stops with "ValueError: '
                                 f'{crash}"{then}', fixes=(_FIX,)))
    yield from hits


RULE = Rule(
    spec(
        N.DS_CONFIG_AUTO_NOT_FILLED,
        "ds_config",
        Severity.WARNING,
        summary='An "auto" value the HF Trainer never fills, in a config the Trainer loads',
        what='A ds_config loaded by the HF Trainer (--deepspeed; --loaded-by trainer; or assumed from its "auto" '
         'values) with "auto" on a key the Trainer path of the Transformers release(s) judged never fills: the '
         "Trainer fills only its own list (HfTrainerDeepSpeedConfig's fill_match / fill_only calls: batch sizes, "
         "gradient_clipping, optimizer lr/betas/eps/weight_decay, the WarmupLR/WarmupDecayLR params, fp16.enabled, "
         "bf16.enabled, the three hidden-size zero_optimization keys, amp up to 4.x) and, from 4.30, what accelerate's "
         'DeepSpeedPlugin and prepare() fill. "bfloat16": {"enabled": "auto"} (the old key name) is the usual case.',
        why="From transformers 4.30 the Trainer initialises DeepSpeed through accelerator.prepare(), which walks the "
        'whole config and stops with a ValueError on any "auto" it has no value for. Up to 4.29 the Trainer hands '
        'the config to deepspeed.initialize as it is: DeepSpeed\'s config models drop keys whose value is "auto" and '
        'use the default (zero_optimization from DeepSpeed 0.7.0, fp16/bf16/bfloat16 from 0.17.1), so "bfloat16": '
        '{"enabled": "auto"} trains in fp32 although --bf16 was passed; older DeepSpeed keeps the string, which is '
        "true: that precision is on whatever the flags say.",
        fix='Write the value (true / false / a number), or use the key the Trainer fills ("bf16" for "bfloat16").'),
    check=check,
    valid=(Example('{"bf16": {"enabled": "auto"}, "train_micro_batch_size_per_gpu": "auto"}',
                   (("loaded_by", "trainer"), ("transformers", "4.18.0"))),
           Example('{"bfloat16": {"enabled": "auto"}}', (("loaded_by", "deepspeed"), ("transformers", "4.18.0")),
                   note="raw DeepSpeed: ds-config-auto-without-trainer's case"),
           Example('{"zero_optimization": {"stage": "auto", "offload_param": {"device": "auto"}}}',
                   (("loaded_by", "trainer"), ("transformers", "4.46.3")),
                   note="accelerate's DeepSpeedPlugin fills these under the Trainer from 4.30"),
           Example('{"bfloat16": {"enabled": "auto"}}',
                   (("loaded_by", "trainer"), ("transformers", "4.18.0"), ("ds", "0.15.4"), ("ds_source", "--ds-version")),
                   note="DeepSpeed before 0.17.1 keeps the true string: bf16 on, an info note (0.17.1+ drops it)")),
    invalid=(Example('{"bfloat16": {"enabled": "auto"}, "fp16": {"enabled": "auto"}}',
                     (("loaded_by", "trainer"), ("transformers", "4.18.0"), ("ds", "0.19.8"), ("ds_source", "--ds-version")),
                     note="bf16 stays off: the run trains in fp32 with --bf16"),
             Example('{"bfloat16": {"enabled": "auto"}, "zero_optimization": {"stage": 2}}',
                     (("loaded_by", "trainer"), ("transformers", "4.46.3"))),
             Example('{"zero_optimization": {"stage": "auto"}}',
                     (("loaded_by", "trainer"), ("transformers", "4.25.1"), ("ds", "0.19.8"), ("ds_source", "--ds-version"))),
             Example('{"bfloat16": {"enabled": "auto"}}', (("loaded_by", "trainer"), ("transformers", "4.18.0")),
                     note="no DeepSpeed pinned: both outcomes")),
)
