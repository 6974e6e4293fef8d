"""zero3-unsupported-quantization: 8-bit bitsandbytes, GPTQ or AWQ models trained under ZeRO-3."""

from __future__ import annotations

from typing import Any, Iterator, List

from ...model import Fix, Severity
from ..rule import Example, Hit, Rule
from ..target import Target
from . import emit, where
from ._loads import arg, loads

_UNSUPPORTED = ("GPTQConfig", "AwqConfig", "AqlmConfig", "EetqConfig", "HqqConfig")


def _bad(node: Any) -> str:
    import libcst as cst

    from ._flow import dotted

    if not isinstance(node, cst.Call):
        return ""
    last = dotted(node.func).split(".")[-1]
    if last in _UNSUPPORTED:
        return last.replace("Config", "")
    if last == "BitsAndBytesConfig":
        for a in node.args:
            if a.keyword is not None and a.keyword.value == "load_in_8bit" and dotted(a.value) == "True":
                return "8-bit bitsandbytes"
    return ""


def check(t: Target) -> Iterator[Hit]:
    for c, e in loads(t):
        hits: List[Any] = []
        q = arg(c, e, "quantization_config")
        for v in q.values if q else []:
            what = _bad(v.node)
            if what:
                hits.append((what, v.node))
        l8 = arg(c, e, "load_in_8bit")
        if l8 and any(v.kind == "true" for v in l8.values):
            hits.append(("8-bit bitsandbytes", l8.anchor))
        for what, node in hits[:1]:
            yield from emit(RULE, t, e.call, f"{what} quantized model loaded {c.under}: ZeRO-3 cannot partition it",
                            fixes=(Fix("use 4-bit bitsandbytes with bnb_4bit_quant_storage (QLoRA), or ZeRO-2", "safe"),),
                            severity=c.zero3_severity, evidence=(where(c, node, f"{what} comes from here"),))


RULE = Rule(
    name="zero3-unsupported-quantization", kind="python", severity=Severity.ERROR, section="Script",
    summary="An 8-bit / GPTQ / AWQ quantized model trained under ZeRO-3",
    what="`from_pretrained(..., quantization_config=X)` where X can be `GPTQConfig`, `AwqConfig` or "
         "`BitsAndBytesConfig(load_in_8bit=True)` (also through a conditional expression), or `load_in_8bit=True`.",
    why="Only 4-bit bitsandbytes with a matching `bnb_4bit_quant_storage` can be partitioned by ZeRO-3; the other "
        "quantized weight formats fail or are left whole on every rank.",
    fix="QLoRA with `BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_storage=torch.bfloat16)`, or ZeRO-2.",
    check=check,
    valid=(Example('from transformers import TrainingArguments\n'
                   'model = AutoModelForCausalLM.from_pretrained("m", quantization_config=BitsAndBytesConfig('
                   'load_in_4bit=True, bnb_4bit_quant_storage=torch.bfloat16))\n', (("zero3", True),)),),
    invalid=(Example('from transformers import TrainingArguments\n'
                     'model = AutoModelForCausalLM.from_pretrained("m", quantization_config=GPTQConfig(bits=4) '
                     'if q_lora else None)\n', (("zero3", True),)),),
)
