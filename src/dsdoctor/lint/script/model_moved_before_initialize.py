"""model-moved-before-initialize: ``.cuda()`` / ``.to(device)`` on the model before DeepSpeed takes it."""

from __future__ import annotations

from typing import Any, Iterator, List, Set

from ... import names as N
from ...model import Fix, Severity
from ..rule import Edit, Example, Hit, Rule, spec
from ..target import Target
from . import emit, where, zero3_candidate

_DTYPES = ("float16", "bfloat16", "float32", "half", "float", "dtype")


def _receiver_is_model(call: Any, models: Set[str]) -> bool:
    import libcst as cst

    from .dataflow import is_model_call

    recv = call.func.value
    return (isinstance(recv, cst.Name) and recv.value in models) or is_model_call(recv)


def _is_cast(call: Any) -> bool:
    """``.half()``, ``.to(torch.bfloat16)`` / ``.to(dtype=...)`` only cast (where the model is: the engine itself
    calls ``module.half()`` under fp16, deepspeed 0.8.3 runtime/engine.py ``_configure_distributed_model``); a device
    move is what this rule is about."""
    from .dataflow import dotted

    if call.func.attr.value == "half":
        return True
    if call.func.attr.value != "to":
        return False
    for a in call.args:
        if a.keyword is not None and a.keyword.value == "dtype":
            return True
        if a.keyword is None and dotted(a.value).split(".")[-1] in _DTYPES:
            return True
    return False


def _built_partitioned(before: List[Any]) -> bool:
    """Was the model the move ends on loaded after the run registered its ZeRO-3 config (``TrainingArguments``
    with the config, a kept ``HfDeepSpeedConfig``)? Then ``from_pretrained`` built it under ``zero.Init``: each
    rank holds only its partition, and the move carries no full copy."""
    load = next((j for j in range(len(before) - 1, -1, -1) if before[j].kind == "load"), None)
    # ``from_pretrained(...).cuda()``: the move's event comes first (the outer call), its load right after it
    end = len(before) - 1 if load is None else load
    return any(x.kind in ("register", "hfds") and not x.dead for x in before[:end])


def check(t: Target) -> Iterator[Hit]:
    c = zero3_candidate(t)
    if c is None:  # not parsed (libcst stays unimported), or known not to run under ZeRO-3
        return
    from .dataflow import model_names
    from .execution_order import entries

    assert c.script is not None
    models = model_names(c.script)
    seen: Set[int] = set()
    for stream in entries(c.script):
        for i, e in enumerate(stream):
            if e.kind != "move" or id(e.call) in seen or e.dead or _is_cast(e.call) or not _receiver_is_model(e.call, models):
                continue
            later = next((x for x in stream[i + 1:] if x.kind in ("initialize", "trainer")
                          or x.name.endswith(".prepare")), None)
            if later is None or _built_partitioned(stream[:i + 1]):
                continue
            seen.add(id(e.call))
            edit = None
            if e.bare:  # ``model.cuda()`` as a statement: delete its line
                start = c.src.offset(c.src.positions[e.stmt].start.line, 0)
                end = c.src.text.find("\n", c.src.span(e.stmt)[1])
                edit = Edit(t.path, start, len(c.src.text) if end < 0 else end + 1, "", "unsafe", "delete the move")
            yield from emit(RULE, t, e.call, f"the model is moved ({e.name.split('.')[-1]}()) before "
                            f"{later.name.split('.')[-1] or 'DeepSpeed'} {c.under}: a full copy per GPU before ZeRO-3 "
                            "partitions it (defeats zero.Init and offload)",
                            fixes=(Fix("delete the call: DeepSpeed / the Trainer place the model", "unsafe"),),
                            edits=(edit,) if edit else (), severity=c.at_most(Severity.WARNING),
                            evidence=(where(c, later.call, "DeepSpeed takes the model here"),))


RULE = Rule(
    spec(
        N.MODEL_MOVED_BEFORE_INITIALIZE,
        "python",
        Severity.WARNING,
        summary="The model is moved to a device before deepspeed.initialize / the Trainer",
        what="`model.cuda()` or `model.to(device)` before `deepspeed.initialize`, `accelerator.prepare` "
         "or the Trainer, in a ZeRO-3 project (dtype-only casts such as `.half()` or `.to(torch.bfloat16)` are not "
         "reported: they leave the model where it is).",
        why="It puts the whole model on every GPU before ZeRO-3 partitions it: CUDA OOM even with offload; the Trainer "
        "and DeepSpeed place the model themselves.",
        fix="Delete the call (an unsafe fix: the line is removed).",
        section="Script"),
    check=check,
    valid=(Example('import deepspeed\nmodel = AutoModelForCausalLM.from_pretrained("m")\n'
                   'engine, *_ = deepspeed.initialize(model=model, config="ds.json")\n', (("zero3", True),)),
           Example('import deepspeed\nmodel = AutoModelForCausalLM.from_pretrained("m").half()\n'
                   'engine, *_ = deepspeed.initialize(model=model, config="ds.json")\n', (("zero3", True),)),
           Example('args = TrainingArguments(output_dir="out", deepspeed="ds.json")\n'
                   'model = AutoModelForCausalLM.from_pretrained("m").cuda()\nTrainer(model=model, args=args).train()\n',
                   (("zero3", True),), note="loaded after TrainingArguments registered ZeRO-3: zero.Init built it "
                   "partitioned, the move carries only the partitions")),
    invalid=(Example('import deepspeed\nmodel = AutoModelForCausalLM.from_pretrained("m")\nmodel.cuda()\n'
                     'engine, *_ = deepspeed.initialize(model=model, config="ds.json")\n', (("zero3", True),)),),
)
