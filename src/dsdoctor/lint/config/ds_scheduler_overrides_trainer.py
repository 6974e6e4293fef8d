"""ds-scheduler-overrides-trainer: a config's "scheduler" block replaces the HF Trainer's, so the --lr_scheduler_type
a launch passes is ignored."""

from __future__ import annotations

from typing import Iterator, List

from ... import names as N
from ...knowledge import transformers as TF
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target


def check(t: Target) -> Iterator[Hit]:
    root = t.doc.root if t.doc else None
    if t.usage.loaded_by != "trainer" or root is None or root.kind != "object" or t.usage.client_scheduler:
        return
    block = root.get("scheduler")
    kind = block.get("type") if block is not None and block.kind == "object" else None
    if kind is None or not isinstance(kind.value, str):
        return
    like = TF.DS_SCHEDULER_LIKE.get(kind.value, ())
    ignored: List[str] = [v for v in t.usage.lr_scheduler_types if v.lower() not in like]
    if not ignored:
        return
    fixes = [Fix('remove the "scheduler" block: the Trainer then builds the --lr_scheduler_type scheduler and '
                 "DeepSpeed steps it", "unsafe", (), "the schedule of the run changes to the one the launch asks")]
    if like:
        fixes.append(Fix(f"or pass --lr_scheduler_type {like[0]}, the Trainer's name for the curve {kind.value} follows "
                         "after its warm-up (its warm-up may differ: DeepSpeed's warmup_type defaults to log)",
                         "unsafe", (f"--lr_scheduler_type {like[0]}",), "the launch then says what runs"))
    yield RULE.hit(t, kind.start, f"the config's scheduler {kind.value} replaces the HF Trainer's: the launches' "
                   f"--lr_scheduler_type {', '.join(ignored)} is ignored",
                   "With a \"scheduler\" block the Trainer builds no scheduler of its own (transformers "
                   "deepspeed_optim_sched) and says nothing: DeepSpeed's " + kind.value + " sets the learning rate "
                   "of the run" + (f" ({' / '.join(like)} in the Trainer's terms)." if like else "."),
                   fixes=tuple(fixes))


RULE = Rule(
    spec(
        N.DS_SCHEDULER_OVERRIDES_TRAINER,
        "ds_config",
        Severity.WARNING,
        summary="A config's scheduler block silently replaces the --lr_scheduler_type a launch passes",
        what="A ds_config loaded through the HF Trainer with a \"scheduler\" block, where a launch of that config "
         "passes a --lr_scheduler_type whose curve the block's type does not follow (WarmupLR is constant after the "
         "warm-up, WarmupDecayLR linear, WarmupCosineLR cosine; OneCycle and LRRangeTest have no Trainer "
         "counterpart). Nothing where no launch passes one: the config's block is then the only schedule asked for.",
        why="Transformers' deepspeed_optim_sched builds DeepSpeed's scheduler from the block and skips the Trainer's "
        "own (every release since the integration); the --lr_scheduler_type is accepted and ignored, so a run "
        "asked to decay along a cosine keeps a constant learning rate, or decays linearly.",
        fix="Remove the scheduler block (the Trainer's scheduler then runs under DeepSpeed), or pass the "
        "--lr_scheduler_type that names what the block does."),
    check=check,
    valid=(Example('{"scheduler": {"type": "WarmupDecayLR", "params": {"total_num_steps": "auto"}}}',
                   (("loaded_by", "trainer"), ("lr_scheduler_types", ("linear",)))),
           Example('{"scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": "auto"}}}',
                   (("loaded_by", "trainer"),), note="no launch asks for another schedule")),
    invalid=(Example('{"scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": "auto"}}}',
                     (("loaded_by", "trainer"), ("lr_scheduler_types", ("cosine",))),
                     note="the launch asks for a cosine decay; WarmupLR keeps the rate constant after the warm-up"),),
)
