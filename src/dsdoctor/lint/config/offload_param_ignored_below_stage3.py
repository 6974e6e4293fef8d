"""offload-param-ignored-below-stage3: offload_param with ZeRO stage 0-2 does nothing."""

from __future__ import annotations

from typing import Iterator

from ... import names as N
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from .fields import offload_device, stage


def check(t: Target) -> Iterator[Hit]:
    got = offload_device(t, "offload_param")
    st = stage(t)
    if got and got[0] in ("cpu", "nvme") and st is not None and st < 3:
        # an accelerate YAML's offload_param_device: one answer of a plugin's settings, read by nothing below stage
        # 3; the run is the stage-2 run the file asks for (blind readers judged every such warning debatable)
        yaml = t.path.endswith((".yaml", ".yml"))
        yield RULE.hit(t, t.key_pos("zero_optimization", "offload_param"),
                       f"offload_param (device {got[0]}) is ignored with ZeRO stage {st}: parameters stay on the GPU" +
                       (f" (offload_param_device of an accelerate YAML: the run is the stage-{st} run it asks for)"
                        if yaml else ""),
                       fixes=(Fix("use stage 3 to offload parameters, or delete offload_param", "unsafe"),),
                       severity=Severity.INFO if yaml else None)


RULE = Rule(
    spec(
        N.OFFLOAD_PARAM_IGNORED_BELOW_STAGE3,
        "ds_config",
        Severity.WARNING,
        summary="offload_param is set but ZeRO stage < 3 never reads it",
        what="zero_optimization.offload_param with device cpu/nvme and stage 0, 1 or 2.",
        why="Only ZeRO-3 partitions and offloads parameters; stages 1-2 ignore the block silently (no version checks it), "
        "so the memory you planned for is not freed.",
        fix="Switch to stage 3, or remove offload_param."),
    check=check,
    valid=(Example('{"zero_optimization": {"stage": 3, "offload_param": {"device": "cpu"}}}'),),
    invalid=(Example('{"zero_optimization": {"stage": 2, "offload_param": {"device": "cpu"}}}'),),
)
