"""peft-checkpointing-reentrant: PEFT + non-reentrant gradient checkpointing with DeepSpeed <= 0.19.2."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Dict, Iterator, Optional, Set

from ... import names as N
from ...fixes import PEFT_REENTRANT_FIX as FIX  # shared with explain's same cause
from ...knowledge.deepspeed import PEFT_NONREENTRANT_SINCE as FIXED_IN
from ...knowledge.versions import parse
from ...model import Evidence, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from . import emit, where, zero3_candidate
from .peft_makers import MAKERS, project_makers


def _reentrant(c: Any, value: Any, scope: Any = None) -> Optional[bool]:
    """``use_reentrant`` in a gradient_checkpointing_kwargs expression (None: unset / unknown)."""
    import libcst as cst

    from .dataflow import kw_key

    assert c.values is not None and c.script is not None
    for v in c.values.of(value, scope or c.script.module_scope):
        node = v.node
        if isinstance(node, cst.Dict):
            for el in node.elements:
                if isinstance(el, cst.DictElement) and kw_key(el.key) == "use_reentrant":
                    return isinstance(el.value, cst.Name) and el.value.value == "True"
    return None


def check(t: Target) -> Iterator[Hit]:
    """One finding per file: the run's checkpointing mode is one problem, however many calls set it (a script that
    enables checkpointing again after generation); the other calls are its evidence."""
    hits = list(_sites(t))
    if not hits:
        return
    first = max(hits, key=lambda h: h.finding.severity.rank)  # the first of the most severe
    also = tuple(Evidence("non-reentrant checkpointing is also enabled here", f"{h.finding.path}:{h.finding.line}",
                          h.finding.path, h.finding.line, h.finding.col) for h in hits if h is not first)
    if also:
        first = Hit(replace(first.finding, evidence=first.finding.evidence + also), first.edits)
    yield first


def _sites(t: Target) -> Iterator[Hit]:
    c = zero3_candidate(t)
    if c is None:  # not parsed (libcst stays unimported), or known not to run under ZeRO-3
        return
    from .dataflow import dotted

    assert c.script is not None  # active() only returns parsed scripts
    if not any(v.startswith("peft") for v in c.script.imported.values()):
        return
    ds: Any = t.usage.ds if not t.usage.ds_source.startswith("no DeepSpeed") else None  # None: not pinned, not installed
    fixed, judged = t.usage.ds_range(lambda v: v >= parse(FIXED_IN))  # type: ignore[operator]
    if t.usage.ds_pins and judged != f"DeepSpeed {t.usage.ds}":  # a pinned range whose releases all agree
        if fixed:
            return
        ds = judged
    elif ds is not None and ds >= parse(FIXED_IN):
        return
    # non-reentrant by default on 5.x: on the release judged, or every one the project's pins allow (lint/pins.py)
    five = c.on_tf(lambda v: None if parse(v) is None else parse(v).major >= 5)  # type: ignore[union-attr]
    for call, name in c.script.calls_with:
        last = name.split(".")[-1]
        kw = {a.keyword.value: a for a in call.args if a.keyword is not None}
        if id(call) in c.script.dead_calls:  # a branch no ZeRO-3 run takes (lint/script/local.py)
            continue
        if last == "gradient_checkpointing_enable":
            on = True
        elif last in c.script.args_classes:
            on = "gradient_checkpointing" in kw and dotted(kw["gradient_checkpointing"].value) == "True"
        else:
            continue
        if not on:
            continue
        gk = kw.get("gradient_checkpointing_kwargs")
        re_ = _reentrant(c, gk.value) if gk is not None else None
        if re_ is True or (re_ is None and not five):
            continue
        why = "use_reentrant=False" if re_ is False else f"use_reentrant unset (non-reentrant by default on {c.tf_note})"
        yield from _hit(t, c, call, why, ds)
    for attr, value, stmt, scope in c.script.attr_assigns:  # training_args.gradient_checkpointing_kwargs = {...}
        if attr == "gradient_checkpointing_kwargs" and _reentrant(c, value, scope) is False \
                and id(stmt) not in c.script.dead_calls:
            yield from _hit(t, c, stmt, "use_reentrant=False", ds)


def _makes(name: str, helpers: Set[str], imported: Dict[str, str]) -> bool:
    """A call that makes the PEFT model: peft's own makers however reached, the project's helpers called by name or
    through a module the file imports (not a method of another object: ``trainer.train()`` is no ``train()``)."""
    head, _, last = name.rpartition(".")
    return last in MAKERS or last in helpers and (not head or head in imported)


def _hit(t: Target, c: Any, node: Any, why: str, ds: Any) -> Iterator[Hit]:
    """On a known DeepSpeed <= 0.19.2; where none is known (the project does not pin it, none is installed), info:
    a fresh install gets a release with the fix, so only a run on an older one meets it."""
    on = (f"on DeepSpeed {ds}" if not isinstance(ds, str) else f"on every release of {ds}") if ds is not None else \
        f"if DeepSpeed is older than {FIXED_IN} (none pinned or installed; current releases have the fix)"
    # where the file makes its PEFT model: behind options no ZeRO-3 launch passes, so is the problem (lint/script/flags)
    # (also by a helper of the project whose body calls get_peft_model: lint/script/peft_makers.py)
    import libcst as cst

    line = c.src.linecol(c.src.span(node)[0])[0]
    holding = {s.name.value for s in c.src.module.body if isinstance(s, cst.FunctionDef)
               and c.src.positions[s].start.line <= line <= c.src.positions[s].end.line}  # no helper of its own site
    helpers = project_makers(t.path, c.src.text, c.script.import_nodes) - holding
    made = tuple(where(c, call, "the PEFT model is made here") for call, name in c.script.calls_with
                 if _makes(name, helpers, c.script.imported))
    yield from emit(RULE, t, node, f"PEFT with gradient checkpointing, {why}, {on} {c.under}: "
                    f"CheckpointError: Recomputed values ... (fixed in DeepSpeed {FIXED_IN})",
                    fixes=(FIX,),
                    severity=c.zero3_severity if ds is not None else Severity.INFO,
                    evidence=made[:3] + (where(c, node, "non-reentrant checkpointing is enabled here"),) if made else ())


RULE = Rule(
    spec(
        N.PEFT_CHECKPOINTING_REENTRANT,
        "python",
        Severity.ERROR,
        summary="PEFT + non-reentrant gradient checkpointing under ZeRO-3 on DeepSpeed <= 0.19.2",
        what="A PEFT script enabling gradient checkpointing with `use_reentrant=False` (in the call, or set later as "
         "`training_args.gradient_checkpointing_kwargs = {...}`; or unset on Transformers >= 5, where non-reentrant "
         "is the default), with DeepSpeed <= 0.19.2; info where no DeepSpeed version is known (none pinned "
         "exactly, none installed, no --ds-version: a fresh install gets a release with the fix).",
        why="The recomputed activations differ from the saved ones under ZeRO-3 on those DeepSpeed versions: "
        "`torch.utils.checkpoint.CheckpointError: Recomputed values for the following tensors have different metadata`.",
        fix='`gradient_checkpointing_kwargs={"use_reentrant": True}`, or DeepSpeed >= 0.19.3.',
        section="Script"),
    check=check,
    valid=(Example('import peft\nargs = TrainingArguments("o", gradient_checkpointing=True, '
                   'gradient_checkpointing_kwargs={"use_reentrant": True})\n', (("zero3", True), ("ds", "0.19.2"),
                                                                               ("ds_source", "--ds-version"))),),
    invalid=(Example('import peft\nargs = TrainingArguments("o", gradient_checkpointing=True, '
                     'gradient_checkpointing_kwargs={"use_reentrant": False})\n', (("zero3", True), ("ds", "0.19.2"),
                                                                                  ("ds_source", "--ds-version"))),),
)
