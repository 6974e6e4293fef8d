"""ds-config-auto-without-trainer: "auto" values that only HF fills, in a config raw DeepSpeed loads."""

from __future__ import annotations

from typing import Any, Iterator, List, Optional, Sequence, Tuple

from ... import names as N
from ...fixes import AUTO_WITHOUT_TRAINER_FIX as FIX  # shared with explain's same cause
from ...knowledge import deepspeed as K
from ...knowledge import transformers as TF
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from .assumed_loader import autos
from .fields import stage

# DeepSpeedConfigModel drops "auto" keys: defaults apply silently ("bfloat16" is bf16's old name, read by the same
# model; before 0.17.1 an "enabled": "auto" there is kept, a true string: knowledge ds_config.auto_dropped)
_SILENT = ("zero_optimization", "fp16", "bf16", "bfloat16")


_WHY = ('Top-level batch / clipping / optimizer / scheduler values stay the string "auto" and crash with a TypeError; '
        'inside zero_optimization / fp16 / bf16 the key is dropped silently, so "bf16": {"enabled": "auto"} trains in '
        "fp32.")


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


def _inert(t: Target, path: str) -> Optional[str]:
    """Why DeepSpeed never reads the key ``path`` of this config, whatever its value (None: it may): a key of an
    fp16 / bf16 section that is off (``"enabled": false`` or no ``enabled``), or a ZeRO-3 key (``stage3_*``,
    ``sub_group_size``) below stage 3."""
    top, _, rest = path.partition(".")
    if top in ("fp16", "bf16", "bfloat16") and rest and rest != "enabled":
        section = t.node(top)
        on = section.get("enabled") if section is not None and section.kind == "object" else None
        if on is None or on.value is False:
            return f"{top} is off"
    if top == "zero_optimization" and (rest.startswith("stage3_") or rest == "sub_group_size"):
        s = stage(t)
        if s is not None and s < 3:
            return f"stage {s} reads no ZeRO-3 key"
    return None


def check(t: Target) -> Iterator[Hit]:
    root = t.doc.root if t.doc else None
    if root is None or root.kind != "object" or t.usage.loaded_by not in ("deepspeed", "accelerate"):
        return
    accelerate = t.usage.loaded_by == "accelerate"
    filled, maybe = _accelerate_fills(t, tuple(m.key for m in root.members)) if accelerate else ((), ())
    who = "accelerate without the HF Trainer" if accelerate else "raw deepspeed.initialize"
    client: List[Tuple[str, int, str]] = []  # path, position, the initialize argument that makes it unread
    maybes: List[Tuple[str, int]] = []
    silent: List[Tuple[str, int, str]] = []  # path, position, what the dropped key leaves
    strings: List[Tuple[str, int]] = []
    coded: List[Tuple[str, int, str]] = []  # path, position, where the launch's script sets it in code
    inert: List[Tuple[str, int, str]] = []  # path, position, why DeepSpeed never reads it
    for path, pos in autos(root):
        if path in filled:
            continue
        why = _inert(t, path)
        if why is not None:
            inert.append((path, pos, why))
            continue
        top = path.split(".")[0]
        where = next((w for k, w in t.usage.code_filled.items() if path == k or path.startswith(k + ".")), None)
        if where is not None:
            coded.append((path, pos, where))
            continue
        arg = _client(t, path) if not accelerate else None
        if arg is not None:
            client.append((path, pos, arg))
        elif path in maybe:
            maybes.append((path, pos))
        elif top in _SILENT and not accelerate:
            what = ("bf16/fp16 stays OFF (fp32 training)" if path.endswith("enabled") else "the default is used")
            if path.endswith(".enabled") and K.auto_dropped(top, t.usage.ds) is False:
                what = f'DeepSpeed {t.usage.ds} keeps the string, which is true: {top} is ON'
            silent.append((path, pos, what))
        else:
            strings.append((path, pos))
    # one finding per problem: the "auto" values one loader leaves in one way, at the first of them
    if strings:
        yield RULE.hit(t, strings[0][1], f'{_paths(strings)}: "auto" under {who} is left as a string: '
                       f"{_fails(accelerate, strings[0][0])}", _listed(strings) + _WHY, fixes=(FIX,))
    if maybes:
        yield RULE.hit(t, maybes[0][1], f'{_paths(maybes)}: "auto" under {who} is filled only when the script\'s '
                       f"DummyScheduler is given total_num_steps; otherwise {_fails(accelerate, maybes[0][0])}",
                       _listed(maybes) + _WHY, fixes=(FIX,), severity=Severity.WARNING)
    if silent:
        yield RULE.hit(t, silent[0][1], f'{silent[0][0]}: "auto" under {who} is silently dropped: {silent[0][2]}'
                       + _more(silent),
                       _listed(silent) + 'DeepSpeed\'s config models drop keys whose value is "auto" and use the '
                       "defaults" + (": " + ", ".join(f"{p} ({w})" for p, _, w in silent) + "." if len(silent) > 1
                                     else "."),
                       (Fix("write the value you want", "safe"),), severity=Severity.WARNING)
    if inert:
        yield RULE.hit(t, inert[0][1], f'{_paths(inert)}: "auto" under {who}, in keys DeepSpeed never reads here ('
                       + "; ".join(dict.fromkeys(w for _, _, w in inert)) + "): no effect",
                       _listed(inert) + _WHY, fixes=(FIX,), severity=Severity.INFO)
    if coded:
        yield RULE.hit(t, coded[0][1], f'{_paths(coded)}: "auto" under {who}, set in code by the launch\'s script '
                       f"before it hands the config over ({coded[0][2]})", _listed(coded) + _WHY, fixes=(FIX,),
                       severity=Severity.INFO)
    if client:
        yield RULE.hit(t, client[0][1], f'{_paths(client)}: "auto" is never read while the script passes its own '
                       f"{client[0][2]} to deepspeed.initialize (DeepSpeed then ignores the config's block; where that "
                       "argument is None it builds the block and fails on the string)", _listed(client) + _WHY,
                       fixes=(FIX,), severity=Severity.INFO)


def _paths(found: "Sequence[Tuple[Any, ...]]") -> str:
    """``optimizer.params.lr``, or ``optimizer.params.lr, optimizer.params.betas and 3 more``."""
    names = [f[0] for f in found]
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _listed(found: "Sequence[Tuple[Any, ...]]") -> str:
    """The sentence naming every "auto" key of one finding (its title names the first three)."""
    return "The \"auto\" values: " + ", ".join(f[0] for f in found) + ". "


def _more(found: "Sequence[Tuple[Any, ...]]") -> str:
    return f" (and {len(found) - 1} more \"auto\" value{'s' if len(found) > 2 else ''} dropped)" if len(found) > 1 else ""


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
         "makes DeepSpeed ignore the config's optimizer (scheduler) block, so its \"auto\" values are info; so are "
         "those in keys DeepSpeed never reads in this config: an fp16 / bf16 section that is off, a ZeRO-3 key "
         "(`stage3_*`, `sub_group_size`) below stage 3. "
         "Reported where that loader is known (--loaded-by, or the "
         "project's launch and training scripts): a config nothing says the loader of is, by its \"auto\" values, "
         "taken as the HF Trainer's. One finding per way the config's \"auto\" values are lost (left as strings, "
         "silently dropped, unread beside a client optimizer), at the first of them, naming them all.",
        why=_WHY,
        fix="Write concrete values, or use the HF Trainer."),
    check=check,
    valid=(Example('{"train_micro_batch_size_per_gpu": "auto", "bf16": {"enabled": "auto"}}', (("loaded_by", "trainer"),)),
           Example('{"optimizer": {"type": "AdamW", "params": {"lr": "auto", "weight_decay": "auto"}}}',
                   (("loaded_by", "accelerate"), ("accelerate_fills", TF.ACCELERATE_DUMMY_OPTIM_KEYS))),
           Example('{"train_batch_size": 8, "optimizer": {"type": "AdamW", "params": {"lr": "auto"}}, '
                   '"scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": "auto"}}}',
                   (("loaded_by", "deepspeed"), ("client_optimizer", True), ("client_scheduler", True)),
                   note="the script passes optimizer= and lr_scheduler= to deepspeed.initialize: the blocks are "
                        "never read"),
           Example('{"train_batch_size": 8, "fp16": {"enabled": false, "auto_cast": "auto"}, '
                   '"zero_optimization": {"stage": 2, "stage3_prefetch_bucket_size": "auto", "sub_group_size": "auto"}}',
                   (("loaded_by", "deepspeed"),),
                   note="fp16 is off and stage 2 reads no ZeRO-3 key: those \"auto\" values have no effect (info)")),
    invalid=(Example('{"optimizer": {"type": "AdamW", "params": {"lr": "auto", "betas": "auto"}}}',
                     (("loaded_by", "accelerate"), ("accelerate_fills", TF.ACCELERATE_DUMMY_OPTIM_KEYS))),
             Example('{"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": 1}',
                     (("loaded_by", "deepspeed"),)),
             Example('{"train_batch_size": 8, "bf16": {"enabled": "auto"}}', (("loaded_by", "deepspeed"),)),
             Example('{"train_batch_size": 8, "bfloat16": {"enabled": "auto"}}', (("loaded_by", "deepspeed"),),
                     note='"bfloat16", bf16\'s old name, is dropped the same way (kept, and true, before 0.17.1)')),
)
