"""zero3-unsafe-save: ``save_pretrained`` / ``torch.save(model.state_dict())`` of a ZeRO-3 partitioned model."""

from __future__ import annotations

from typing import Any, Iterator, Set

from ...model import Fix, Severity
from ..rule import Example, Hit, Rule
from ..target import Target
from . import emit, zero3_candidate


def _is_model(node: Any, models: Set[str]) -> bool:
    import libcst as cst

    from ._flow import dotted

    if isinstance(node, cst.Name):
        return node.value in models
    name = dotted(node)
    return bool(name) and name.split(".")[-1] in ("model", "module") and "tokenizer" not in name


def check(t: Target) -> Iterator[Hit]:
    c = zero3_candidate(t)
    if c is None:  # not parsed (libcst stays unimported), or known not to run under ZeRO-3
        return
    import libcst as cst

    from ._flow import dotted, model_names

    assert c.script is not None  # active() only returns parsed scripts
    models = model_names(c.script)
    for e in c.script.events:
        if e.kind != "save" or e.dead or e.gathered:
            continue
        call = e.call
        if e.name == "torch.save":
            first = call.args[0].value if call.args else None
            if not (isinstance(first, cst.Call) and dotted(first.func).endswith(".state_dict")
                    and isinstance(first.func, cst.Attribute) and _is_model(first.func.value, models)):
                continue
            what = "torch.save(model.state_dict())"
        else:
            if any(a.keyword is not None and a.keyword.value == "state_dict" for a in call.args):
                continue
            if not _is_model(call.func.value, models):
                continue
            what = f"{dotted(call.func.value)}.save_pretrained()"
        yield from emit(RULE, t, call, f"{what} {c.under} saves the local partitions: size-0 tensors (no weights)",
                        fixes=(Fix("trainer.save_model(), or gather first: state_dict = "
                                   "accelerator.get_state_dict(model) / deepspeed.zero.GatheredParameters, then "
                                   "save_pretrained(dir, state_dict=state_dict) on rank 0", "safe"),),
                        severity=c.zero3_severity)


RULE = Rule(
    name="zero3-unsafe-save", kind="python", severity=Severity.ERROR, section="Script",
    summary="A ZeRO-3 partitioned model saved without gathering",
    what="`model.save_pretrained(dir)` without a consolidated `state_dict=`, or `torch.save(model.state_dict(), ...)`, "
         "outside `deepspeed.zero.GatheredParameters`, in a ZeRO-3 project (`trainer.save_model()` is fine).",
    why="Under ZeRO-3 each rank holds only its partition: the saved tensors have shape (0,), and loading them later "
        "fails with `copying a param with shape torch.Size([0])` (PEFT >= 0.21 warns the adapter was not gathered).",
    fix="`trainer.save_model()`, or a state dict gathered on all ranks (accelerator.get_state_dict / "
        "GatheredParameters) saved on rank 0 with `save_pretrained(dir, state_dict=...)`.",
    check=check,
    valid=(Example('model = AutoModelForCausalLM.from_pretrained("m")\ntrainer = Trainer(model=model)\n'
                   'trainer.save_model("out")\nmodel.save_pretrained("out", state_dict=sd)\n', (("zero3", True),)),),
    invalid=(Example('model = AutoModelForCausalLM.from_pretrained("m")\ntrainer = Trainer(model=model)\ntrainer.train()\n'
                     'model.save_pretrained("out")\n', (("zero3", True),)),),
)
