"""ds-config-auto-without-trainer: "auto" values that only HF fills, in a config raw DeepSpeed loads."""

from __future__ import annotations

from typing import Iterator, List, Optional, Tuple

from ... import names as N
from ...fixes import AUTO_WITHOUT_TRAINER_FIX as FIX  # shared with explain's same cause
from ...knowledge import deepspeed as K
from ...knowledge import transformers as TF
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from .assumed_loader import autos

# DeepSpeedConfigModel drops "auto" keys: defaults apply silently ("bfloat16" is bf16's old name, read by the same
# model; before 0.17.1 an "enabled": "auto" there is kept, a true string: knowledge ds_config.auto_dropped)
_SILENT = ("zero_optimization", "fp16", "bf16", "bfloat16")


def _accelerate_fills(t: Target, keys: Tuple[str, ...]) -> Tuple[Tuple[str, ...], Tuple[str, ...]]:
    """The "auto" keys accelerate's prepare() fills for this config, and those it fills only if the code asks.

    With an "optimizer" block accelerate accepts no optimizer but a DummyOptim (any other stops prepare() with
    "You cannot specify an optimizer in the config file and in the code at the same time"), and a DummyOptim always
    has an lr and a weight_decay; a "scheduler" block likewise needs a DummyScheduler, which fills the warmup values
    (total_num_steps only when given one). That is what a config tells where no code of the project was read (a
    config linted alone); where code was read, its Dummy* calls say it (a script that passes no optimizer to
    prepare() leaves the block's "auto" values unfilled)."""
    filled = TF.ACCELERATE_AUTO_KEYS + t.usage.accelerate_fills
    maybe: Tuple[str, ...] = ()
    if t.usage.code_read:
        return filled, maybe
    if "optimizer" in keys:
        filled += TF.ACCELERATE_DUMMY_OPTIM_KEYS
    if "scheduler" in keys:
        filled += TF.ACCELERATE_DUMMY_SCHEDULER_KEYS
        maybe = (TF.ACCELERATE_DUMMY_TOTAL_STEPS_KEY,)
    return filled, maybe


def _client(t: Target, path: str) -> Optional[str]:
    """The argument of deepspeed.initialize that makes DeepSpeed ignore the block ``path`` is in: a client
    optimizer (``optimizer=``) the "optimizer" block (but its max_grad_norm, which the config compares with 0), a
    client ``lr_scheduler=`` the "scheduler" block (engine._configure_optimizer / _configure_lr_scheduler, 0.19.8)."""
    if path.startswith("optimizer.") and t.usage.client_optimizer and not path.endswith(".max_grad_norm"):
        return "optimizer"
    if path.startswith("scheduler.") and t.usage.client_scheduler:
        return "lr_scheduler"
    return None


def _fails(accelerate: bool, path: str) -> str:
    """How a load stops on ``path``'s "auto": accelerate's own message (its first sentence, knowledge/transformers),
    or raw DeepSpeed's comparison of the string."""
    if accelerate:
        return f"accelerate's prepare() stops (ValueError: {TF.MSG_ACCELERATE_AUTO_UNFILLED.split('. ')[0].format(key=path)})"
    return "DeepSpeed fails (TypeError: '>' not supported between instances of 'str' and 'int')"


def check(t: Target) -> Iterator[Hit]:
    root = t.doc.root if t.doc else None
    if root is None or root.kind != "object" or t.usage.loaded_by not in ("deepspeed", "accelerate"):
        return
    accelerate = t.usage.loaded_by == "accelerate"
    filled, maybe = _accelerate_fills(t, tuple(m.key for m in root.members)) if accelerate else ((), ())
    who = "accelerate without the HF Trainer" if accelerate else "raw deepspeed.initialize"
    hits: List[Hit] = []
    for path, pos in autos(root):
        if path in filled:
            continue
        top = path.split(".")[0]
        client = _client(t, path) if not accelerate else None
        if client is not None:
            hits.append(RULE.hit(t, pos, f'{path}: "auto" is never read while the script passes its own {client} '
                                 "to deepspeed.initialize (DeepSpeed then ignores the config's block; where that "
                                 f"argument is None it builds the block and fails on the string)",
                                 fixes=(FIX,), severity=Severity.INFO))
            continue
        if path in maybe:
            hits.append(RULE.hit(t, pos, f'{path}: "auto" under {who} is filled only when the script\'s DummyScheduler '
                                 f"is given total_num_steps; otherwise {_fails(accelerate, path)}",
                                 fixes=(FIX,), severity=Severity.WARNING))
        elif top in _SILENT and not accelerate:
            what = ("bf16/fp16 stays OFF (fp32 training)" if path.endswith("enabled") else "the default is used")
            if path.endswith(".enabled") and K.auto_dropped(top, t.usage.ds) is False:
                what = f'DeepSpeed {t.usage.ds} keeps the string, which is true: {top} is ON'
            hits.append(RULE.hit(t, pos, f'{path}: "auto" under {who} is silently dropped: {what}',
                                 'DeepSpeed\'s config models drop keys whose value is "auto" and use the defaults.',
                                 (Fix("write the value you want", "safe"),), severity=Severity.WARNING))
        else:
            hits.append(RULE.hit(t, pos, f'{path}: "auto" under {who} is left as a string: {_fails(accelerate, path)}',
                                 fixes=(FIX,)))
    yield from hits


RULE = Rule(
    spec(
        N.DS_CONFIG_AUTO_WITHOUT_TRAINER,
        "ds_config",
        Severity.ERROR,
        summary='"auto" values in a config used without the HF Trainer',
        what='"auto" is a Hugging Face Trainer convention. Under raw DeepSpeed (or accelerate without the Trainer, for '
         "the keys it does not fill: its own, and those the script's DummyOptim / DummyScheduler give; a config linted "
         "alone with an \"optimizer\" / \"scheduler\" block is taken to get them, as accelerate accepts no other "
         "optimizer or scheduler with one) it is never replaced: accelerate's prepare() stops with a ValueError, raw "
         "DeepSpeed with a TypeError. A script that passes its own optimizer (lr_scheduler) to deepspeed.initialize "
         "makes DeepSpeed ignore the config's optimizer (scheduler) block, so its \"auto\" values are info. "
         "Reported where that loader is known (--loaded-by, or the "
         "project's launch and training scripts): a config nothing says the loader of is, by its \"auto\" values, "
         "taken as the HF Trainer's.",
        why='Top-level batch / clipping / optimizer / scheduler values stay the string "auto" and crash with a TypeError; '
        'inside zero_optimization / fp16 / bf16 the key is dropped silently, so "bf16": {"enabled": "auto"} trains in fp32.',
        fix="Write concrete values, or use the HF Trainer."),
    check=check,
    valid=(Example('{"train_micro_batch_size_per_gpu": "auto", "bf16": {"enabled": "auto"}}', (("loaded_by", "trainer"),)),
           Example('{"optimizer": {"type": "AdamW", "params": {"lr": "auto", "weight_decay": "auto"}}}',
                   (("loaded_by", "accelerate"), ("accelerate_fills", TF.ACCELERATE_DUMMY_OPTIM_KEYS))),
           Example('{"train_batch_size": 8, "optimizer": {"type": "AdamW", "params": {"lr": "auto"}}, '
                   '"scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": "auto"}}}',
                   (("loaded_by", "deepspeed"), ("client_optimizer", True), ("client_scheduler", True)),
                   note="the script passes optimizer= and lr_scheduler= to deepspeed.initialize: the blocks are "
                        "never read")),
    invalid=(Example('{"optimizer": {"type": "AdamW", "params": {"lr": "auto", "betas": "auto"}}}',
                     (("loaded_by", "accelerate"), ("accelerate_fills", TF.ACCELERATE_DUMMY_OPTIM_KEYS))),
             Example('{"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": 1}',
                     (("loaded_by", "deepspeed"),)),
             Example('{"train_batch_size": 8, "bf16": {"enabled": "auto"}}', (("loaded_by", "deepspeed"),)),
             Example('{"train_batch_size": 8, "bfloat16": {"enabled": "auto"}}', (("loaded_by", "deepspeed"),),
                     note='"bfloat16", bf16\'s old name, is dropped the same way (kept, and true, before 0.17.1)')),
)
