"""batch-size-mismatch: train_batch_size != micro x grad_acc x world size."""

from __future__ import annotations

from typing import Iterator, Optional

from ... import names as N
from ...fixes import batch_auto_fix as auto_fix  # shared with explain's same cause
from ...knowledge import deepspeed as K
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target


def _int(t: Target, key: str) -> "tuple[bool, Optional[int]]":
    n = t.node(key)
    if n is None or n.kind == "null":
        return True, None
    if isinstance(n.value, int) and not isinstance(n.value, bool):
        return True, n.value
    return False, None  # "auto" / other: another rule's business


def check(t: Target) -> Iterator[Hit]:
    if t.doc is None or t.doc.root is None or t.doc.root.kind != "object":
        return
    vals = {}
    for key in ("train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps"):
        ok, val = _int(t, key)
        if not ok:
            return
        vals[key] = val
    tb, mb, ga = vals["train_batch_size"], vals["train_micro_batch_size_per_gpu"], vals["gradient_accumulation_steps"]
    pos = t.key_pos("train_batch_size") or t.key_pos("train_micro_batch_size_per_gpu") or 0
    if t.usage.loaded_by in ("trainer", "accelerate"):
        if tb is not None and mb is not None and ga is not None and t.usage.world_size and tb != mb * ga * t.usage.world_size:
            yield RULE.hit(t, pos, f"train_batch_size {tb} != {mb} * {ga} * {t.usage.world_size} "
                           f"(world size from {t.usage.world_size_source}): HF reports a mismatch",
                           fixes=(auto_fix(),))
        return
    filled = [k for k in ("train_batch_size", "train_micro_batch_size_per_gpu") if k in t.usage.code_filled]
    if tb is None and mb is None and (filled or t.usage.loaded_by == "deepspeed"):  # filled: the code sets them
        if not filled:
            yield RULE.hit(t, t.doc.root.start, K.MSG_BATCH_NONE + " (raw DeepSpeed: nothing fills them)")
        return
    ws = t.usage.world_size
    if ws is None:
        if tb is not None and mb is not None and ga is not None and mb > 0 and ga > 0 and tb % (mb * ga):
            yield RULE.hit(t, pos, f"train_batch_size {tb} is not a multiple of {mb} * {ga}: no world size can satisfy "
                           "DeepSpeed's batch assertion")
        return
    try:
        tb2, mb2, ga2 = K.batch_sizes(tb, mb, ga, ws)
    except ValueError:
        yield RULE.hit(t, 0, K.MSG_BATCH_NONE)
        return
    except ZeroDivisionError:
        yield RULE.hit(t, pos, "a zero batch value: DeepSpeed's batch derivation fails with ZeroDivisionError")
        return
    for label, n in (("Train batch size", tb2), ("Micro batch size per gpu", mb2), ("Gradient accumulation steps", ga2)):
        if n <= 0:
            yield RULE.hit(t, pos, f"{label}: {n} has to be greater than 0 (world size {ws} from {t.usage.world_size_source})")
            return
    if tb2 != mb2 * ga2 * ws:
        yield RULE.hit(t, pos, K.MSG_BATCH.format(tb=tb2, mb=mb2, ga=ga2, ws=ws)
                       + f" (world size from {t.usage.world_size_source})",
                       fixes=(Fix("set two of the three and let DeepSpeed derive the third", "safe",
                                  (f'"train_micro_batch_size_per_gpu": {mb2}, "gradient_accumulation_steps": {max(ga2, 1)}'
                                   "  # and delete train_batch_size",)),))


RULE = Rule(
    spec(
        N.BATCH_SIZE_MISMATCH,
        "ds_config",
        Severity.ERROR,
        summary="train_batch_size != micro batch x gradient accumulation x world size",
        what="DeepSpeed's batch arithmetic (missing values derived by integer division, as `_set_batch_related_parameters` "
         "does) with the world size from the launcher args, the hostfile or --world-size: a config's own launches' "
         "size; where none names it, the project's launch (not where only code no launch runs names it: a test, a "
         "script nothing launches, whose world size no launch says).",
        why="DeepSpeedConfig asserts `train_batch_size == micro_batch_per_gpu * gradient_acc_step * world_size` at start.",
        fix="Give two of the three values (or \"auto\" under HF Trainer) and let the third be derived."),
    check=check,
    valid=(Example('{"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2}',
                   (("world_size", 4),)),
           Example('{"train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2}', (("world_size", 3),))),
    invalid=(Example('{"train_batch_size": 16, "train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 4}',
                     (("world_size", 4),)),
             Example('{"train_batch_size": 6, "train_micro_batch_size_per_gpu": 4}', (("world_size", 2),))),
)
