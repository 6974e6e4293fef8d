"""zero3-save-on-rank0-only: a save that gathers the ZeRO-3 partitions, called on rank 0 only."""

from __future__ import annotations

from typing import Any, Iterator

from ... import names as N
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from . import emit, uncalled, where, zero3_candidate

# What only rank 0 (the main process) sees as true / as 0.
_RANK_NAMES = ("local_rank", "global_rank", "rank", "process_index", "local_process_index")
_RANK_CALLS = ("get_rank", "get_global_rank", "get_local_rank", "get_process_index")
_MAIN_FLAGS = ("is_main_process", "is_local_main_process", "should_save", "is_world_process_zero")


def rank0_test(test: Any) -> bool:
    """Is ``if test:`` taken on rank 0 only (``args.local_rank == 0``, ``trainer.args.should_save``,
    ``accelerator.is_main_process``, ``dist.get_rank() == 0``, and conjunctions with them)?"""
    import libcst as cst

    from .dataflow import dotted

    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return rank0_test(test.left) or rank0_test(test.right)
    if isinstance(test, cst.Call):
        return dotted(test.func).split(".")[-1] in _MAIN_FLAGS
    if isinstance(test, (cst.Attribute, cst.Name)):
        return dotted(test).split(".")[-1] in _MAIN_FLAGS
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and \
            isinstance(test.comparisons[0].operator, cst.Equal):
        sides = (test.left, test.comparisons[0].comparator)
        if not any(isinstance(x, cst.Integer) and x.value == "0" for x in sides):
            return False
        for x in sides:
            name = dotted(x.func if isinstance(x, cst.Call) else x).split(".")[-1]
            if name in _RANK_NAMES or (isinstance(x, cst.Call) and name in _RANK_CALLS):
                return True
    return False


def check(t: Target) -> Iterator[Hit]:
    c = zero3_candidate(t)
    if c is None:
        return
    from .dataflow import dotted

    assert c.script is not None
    for e in c.script.events:
        if e.kind != "gather" or e.dead or uncalled(c, e):
            continue
        receiver = dotted(e.call.func.value)
        if e.call.func.attr.value == "save_model" and receiver in ("self", ""):
            continue  # a class' own save_model (a callback helper), not Trainer.save_model
        test = next((x for x, body in reversed(e.conds) if body and rank0_test(x)), None)
        if test is None:
            continue
        yield from emit(RULE, t, e.call,
                        f"{receiver}.{e.call.func.attr.value}() runs on rank 0 only {c.under}: it gathers the "
                        "partitions from every rank, so the other ranks never join (the run hangs until the "
                        "collective times out)",
                        fixes=(Fix(f"call {receiver}.{e.call.func.attr.value}() on every rank (it writes on the "
                                   "main process only)", "safe"),),
                        severity=c.zero3_severity, evidence=(where(c, test, "the rank-0 test"),))


RULE = Rule(
    spec(
        N.ZERO3_SAVE_ON_RANK0_ONLY,
        "python",
        Severity.ERROR,
        summary="A gathering ZeRO-3 save called on rank 0 only",
        what="`trainer.save_model()`, `accelerator.get_state_dict()`, `engine.save_16bit_model()` / `save_checkpoint()` "
         "inside `if local_rank == 0:` / `if trainer.args.should_save:` / `if accelerator.is_main_process:` in a "
         "ZeRO-3 project.",
        why="Under ZeRO-3 these gather every parameter's partitions (a collective all ranks must enter); called on rank "
        "0 alone, rank 0 waits for the others forever (NCCL timeout) and nothing is saved.",
        fix="Call the save on every rank: Trainer / Accelerate / DeepSpeed write the file on the main process only. "
        "A save after `trainer = kwargs.get(\"trainer\")` / `if trainer is None: return` in a TrainerCallback's "
        "`on_*` method is not reported: no Transformers release passes callbacks a `trainer` (derived from the "
        "released sources, knowledge/callback_kwargs), so it never runs.",
        section="Script"),
    check=check,
    valid=(Example('from transformers import Trainer\ntrainer = Trainer(model=model)\ntrainer.train()\n'
                   'trainer.save_model("out")\n', (("zero3", True),)),
           # the Trainer hands callbacks no "trainer": the save after the None test never runs
           Example('from transformers import TrainerCallback\n\n\nclass Saver(TrainerCallback):\n'
                   '    def on_save(self, args, state, control, **kwargs):\n'
                   '        trainer = kwargs.get("trainer")\n        if trainer is None:\n            return\n'
                   '        if state.is_world_process_zero:\n            trainer.save_model("out")\n',
                   (("zero3", True),))),
    invalid=(Example('from transformers import Trainer\ntrainer = Trainer(model=model)\ntrainer.train()\n'
                     'if trainer.args.local_rank == 0:\n    trainer.save_model("out")\n', (("zero3", True),)),),
)
