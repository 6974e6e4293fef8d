"""Whether the optimizer a project hands to ``deepspeed.initialize`` can be DeepSpeedCPUAdam: a project whose own code
builds one (an optimizer factory choosing ``cpu_adam`` from its YAML, as ArcticTraining's does) may pass exactly the
optimizer ZeRO-Offload accepts (offload-client-optimizer)."""

from __future__ import annotations

from typing import Iterable, Optional

from ..literal_gate import gated
from .discover import _read

# built (``DeepSpeedCPUAdam(...)``), or the class taken as a value to build later (``opt_cls = DeepSpeedCPUAdam``,
# ``... else DeepSpeedCPUAdam``, ``{"cpu": DeepSpeedCPUAdam}``, ``return DeepSpeedCPUAdam``; Megatron's --cpu-optimizer)
_CPU_ADAM = gated(r"\bDeepSpeedCPUAdam\s*\(|(?:[=:]|\belse|\breturn)[ \t]*DeepSpeedCPUAdam\b")


def builds_cpu_adam(pyfiles: Iterable[str]) -> Optional[str]:
    """"file:line" of the first DeepSpeedCPUAdam the files construct; None when none does."""
    for py in sorted(pyfiles):
        text = _read(py)
        m = _CPU_ADAM.search(text)
        if m is not None:
            return f"{py}:{text.count(chr(10), 0, m.start()) + 1}"
    return None
