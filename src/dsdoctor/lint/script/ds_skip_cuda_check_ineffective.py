"""ds-skip-cuda-check-ineffective (script form): ``os.environ["DS_SKIP_CUDA_CHECK"]`` set to a value DeepSpeed
ignores, or set only after ``deepspeed.initialize`` has built the ops."""

from __future__ import annotations

from typing import Iterator

from ... import names as N
from ...knowledge import deepspeed as K
from ...model import Fix, Severity
from ..rule import Edit, Example, Hit, Rule, spec
from ..target import Target
from . import active, emit, where


def check(t: Target) -> Iterator[Hit]:
    if active(t) is None:  # not parsed (nothing a rule reads): libcst stays unimported
        return
    import libcst as cst

    from .execution_order import entries

    c = active(t)
    if c is None or c.script is None:
        return
    for stream in entries(c.script):
        for i, e in enumerate(stream):
            if e.kind != "env" or e.name != K.SKIP_CUDA_CHECK_VAR:
                continue
            value = e.call.value
            if isinstance(value, cst.SimpleString) and value.evaluated_value != K.SKIP_CUDA_CHECK_ON:
                yield from emit(RULE, t, e.call, f"{K.SKIP_CUDA_CHECK_VAR}={value.value}: DeepSpeed only accepts the "
                                "exact string \"1\", so the CUDA version check still runs",
                                fixes=(Fix(f'os.environ["{K.SKIP_CUDA_CHECK_VAR}"] = "1"', "safe"),),
                                edits=(Edit(t.path, *c.src.span(value), '"1"', "safe", "set it to \"1\""),))
                continue
            built = next((x for x in stream[:i] if x.kind in ("initialize", "opbuild")), None)
            if built is not None:
                what = built.name.split(".")[-1] or "the op build"
                yield from emit(RULE, t, e.call, f"{K.SKIP_CUDA_CHECK_VAR} is set after {what}, which already built "
                                "(and checked) the ops", fixes=(Fix("set it before the first op is built, or in the "
                                                                    "launch environment", "safe"),),
                                evidence=(where(c, built.call, "the ops are built here"),))


RULE = Rule(
    spec(
        N.DS_SKIP_CUDA_CHECK_INEFFECTIVE,
        "python",
        Severity.WARNING,
        summary="DS_SKIP_CUDA_CHECK is set in a way that cannot help",
        what='`os.environ["DS_SKIP_CUDA_CHECK"] = "true"` (any value but "1"), or setting it after `deepspeed.initialize`.',
        why='DeepSpeed reads `os.getenv("DS_SKIP_CUDA_CHECK", "0") == "1"` when it builds an op: any other value, or a '
        "value set after the build, leaves the CUDA version check in place.",
        fix='`os.environ["DS_SKIP_CUDA_CHECK"] = "1"` before deepspeed.initialize (dsdoctor fix rewrites the value).',
        section="Script"),
    check=check,
    valid=(Example('import os\nos.environ["DS_SKIP_CUDA_CHECK"] = "1"\n'),),
    invalid=(Example('import os\nos.environ["DS_SKIP_CUDA_CHECK"] = "true"\n',
                     fixed='import os\nos.environ["DS_SKIP_CUDA_CHECK"] = "1"\n'),
             Example('import os\nfrom deepspeed.ops.adam import DeepSpeedCPUAdam\nopt = DeepSpeedCPUAdam(params)\n'
                     'os.environ["DS_SKIP_CUDA_CHECK"] = "1"\n')),
)
