"""zero3-unsupported-quantization: 8-bit bitsandbytes, GPTQ or AWQ models trained under ZeRO-3."""

from __future__ import annotations

from typing import Any, Iterator, List, Tuple

from ... import names as N
from ...knowledge import trl as TRL
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from . import Ctx, emit, where
from .model_loads import arg, loads, maybe_true, received
from .values import UNSUPPORTED_QUANT_CONFIGS as UNSUPPORTED


def _bad(c: Ctx, node: Any) -> Tuple[str, Any]:
    """(what, where) when the quantization config ``node`` can be an unsupported format."""
    import libcst as cst

    from .dataflow import dotted

    if not isinstance(node, cst.Call):
        return "", None
    last = dotted(node.func).split(".")[-1]
    if last in UNSUPPORTED:
        return last.replace("Config", ""), node
    if last == TRL.QUANTIZATION_CONFIG:  # 8-bit with --load_in_8bit
        return "8-bit bitsandbytes", node
    if last == "BitsAndBytesConfig":
        assert c.values is not None and c.script is not None
        scope = c.script.scope_at(node)
        for a in node.args:
            if a.keyword is not None and a.keyword.value == "load_in_8bit" and maybe_true(c.values.of(a.value, scope)):
                return "8-bit bitsandbytes", a
    return "", None


def check(t: Target) -> Iterator[Hit]:
    for c, e in loads(t):
        hits: List[Tuple[str, Any]] = []
        l8 = arg(c, e, "load_in_8bit")
        if l8 and maybe_true(l8.values):
            hits.append(("8-bit bitsandbytes", l8.anchor))
        q = arg(c, e, "quantization_config")
        for v in q.values if q else []:
            what, node = _bad(c, v.node)
            if what:
                hits.append((what, node))
        for what, node in hits[:1]:
            yield from emit(RULE, t, node, f"{what} quantized model loaded by {e.name.split('.')[-2]}.from_pretrained "
                            f"{c.under}: ZeRO-3 cannot partition it",
                            fixes=(Fix("use 4-bit bitsandbytes with bnb_4bit_quant_storage (QLoRA), or ZeRO-2", "safe"),),
                            severity=c.zero3_severity, evidence=(where(c, node, f"{what} comes from here"),
                                                                 received(c, e)))


RULE = Rule(
    spec(
        N.ZERO3_UNSUPPORTED_QUANTIZATION,
        "python",
        Severity.ERROR,
        summary="An 8-bit / GPTQ / AWQ quantized model trained under ZeRO-3",
        what="`from_pretrained(..., quantization_config=X)` where X can be `GPTQConfig`, `AwqConfig` or "
         "`BitsAndBytesConfig(load_in_8bit=V)` with V that can be true (a literal, `args.bits == 8`, a flag), also "
         "through a conditional expression, a `**kwargs` dict or TRL's `get_quantization_config`; or `load_in_8bit=V`.",
        why="Only 4-bit bitsandbytes with a matching `bnb_4bit_quant_storage` can be partitioned by ZeRO-3; the other "
        "quantized weight formats fail or are left whole on every rank.",
        fix="QLoRA with `BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_storage=torch.bfloat16)`, or ZeRO-2.",
        section="Script"),
    check=check,
    valid=(Example('from transformers import TrainingArguments\n'
                   'model = AutoModelForCausalLM.from_pretrained("m", quantization_config=BitsAndBytesConfig('
                   'load_in_4bit=True, bnb_4bit_quant_storage=torch.bfloat16))\n', (("zero3", True),)),),
    invalid=(Example('from transformers import TrainingArguments\n'
                     'model = AutoModelForCausalLM.from_pretrained("m", quantization_config=GPTQConfig(bits=4) '
                     'if q_lora else None)\n', (("zero3", True),)),),
)
