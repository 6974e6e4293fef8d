"""communication-data-type-renamed: a communication_data_type this DeepSpeed does not accept ("bfp16" became
"bf16" in 0.14.1)."""

from __future__ import annotations

from typing import Iterator

from ... import names as N
from ...knowledge import deepspeed as K
from ...model import Fix, Severity
from ..rule import Edit, Example, Hit, Rule, spec
from ..target import Target

_SPELLINGS = {"bfp16": "bf16", "bf16": "bfp16"}  # the same dtype, before / from 0.14.1


def check(t: Target) -> Iterator[Hit]:
    accepted = K.comm_data_types(t.usage.ds)
    for key in K.COMM_DATA_TYPE_KEYS:
        node = t.node(key)
        if node is None or not isinstance(node.value, str) or node.value.lower() in accepted:
            continue
        msg = K.MSG_COMM_DATA_TYPE.format(types=list(accepted), val=node.value.lower())
        other = _SPELLINGS.get(node.value.lower())
        new = other if other in accepted else None
        q = t.text[node.start:node.start + 1]
        edits = (Edit(t.path, node.start, node.end, f"{q}{new}{q}" if q in "\"'" else new, "safe", f"{key}: {new}"),) \
            if new else ()
        yield RULE.hit(t, node.start, f"{key} {node.value!r} for DeepSpeed {t.usage.ds}: `{msg}`",
                       fixes=(Fix(f'write "{new}"' if new else f"write one of {', '.join(accepted)}",
                                  "safe" if new else "unsafe", (f'"{key}": "{new}"',) if new else ()),), edits=edits)


RULE = Rule(
    spec(
        N.COMMUNICATION_DATA_TYPE_RENAMED,
        "ds_config",
        Severity.ERROR,
        summary="communication_data_type not accepted by this DeepSpeed (bfp16 is bf16 from 0.14.1)",
        what="communication_data_type (or seq_parallel_communication_data_type) other than the values the DeepSpeed "
         "version accepts: fp16 / bfp16 / fp32 up to 0.14.0, fp16 / bf16 / fp32 from 0.14.1.",
        why="DeepSpeedConfig raises `Invalid communication_data_type. Supported data types: ...` before training starts; "
        "DeepSpeed's own spelling of bfloat16 changed from \"bfp16\" to \"bf16\" in 0.14.1.",
        fix='Write "bf16" (DeepSpeed >= 0.14.1) or "bfp16" (older), "fp16" or "fp32".'),
    check=check,
    valid=(Example('{"communication_data_type": "bf16"}'),
           Example('{"communication_data_type": "bfp16"}', (("ds", "0.13.5"),))),
    invalid=(Example('{"communication_data_type": "bfp16"}', fixed='{"communication_data_type": "bf16"}'),
             Example('{"communication_data_type": "int8"}')),
)
