"""Findings behind a command-line flag that no ZeRO-3 launch of the project passes.

A problem in the body of ``if args.bits in [4, 8]:`` (``args.q_lora``, ``training_args.load_in_4bit is not None``
...) only happens when the run passes that option. Where the project's ZeRO-3 launches are known and none of
those that reach the file passes it, the finding is ``info`` ("only with --bits ..."); a launch that passes the
option keeps it an error or warning. A negated test (``if not args.x``: the default path) never gates. Only
for the rules in ``GATED``.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Set, Tuple

import libcst as cst

from ... import names as N

# rules whose finding points at the value that causes the problem (a load argument, a quantization, a call), so
# that a finding inside a gated body happens only with the option (not e.g. a setting chosen in the other branch)
# zero3-device-map-conflict: also when every value it names as the source is in such a body (the load is not)
BY_SOURCE = {N.ZERO3_DEVICE_MAP_CONFLICT}
GATED = {N.ZERO3_DEVICE_MAP_CONFLICT, N.ZERO3_LOW_CPU_MEM_USAGE_CONFLICT, N.QLORA_QUANT_STORAGE_MISSING,
         N.ZERO3_UNSUPPORTED_QUANTIZATION, N.PREPARE_KBIT_UNDER_ZERO3}
_NAMESPACE = re.compile(r"^(\w*args|opts?|cfg)$")


def _flags(test: Any) -> Set[str]:
    """The options a test reads positively (``args.x``, ``args.x == 4``, ``args.x in (...)``, ``and`` / ``or``)."""
    if isinstance(test, cst.BooleanOperation):
        left, right = _flags(test.left), _flags(test.right)
        return left | right if left and right else set()
    if isinstance(test, cst.Comparison):
        test = test.left
    if isinstance(test, cst.Attribute) and isinstance(test.value, cst.Name) and _NAMESPACE.match(test.value.value):
        return {test.attr.value}
    return set()


def _gates(src: Any) -> "Gates":
    """(first line, last line, options) of the body of every ``if`` whose test reads options."""
    out = []
    for node in src.positions:
        if isinstance(node, cst.If):
            flags = _flags(node.test)
            if flags:
                body = src.positions[node.body]
                out.append((body.start.line, body.end.line, flags))
    return out


Gates = List[Tuple[int, int, Set[str]]]


def gating_flag(src: Any, lines: List[int], passed: Set[str], cache: Dict[str, Gates]) -> Optional[str]:
    """The option (none of ``passed``) whose ``if`` body holds every one of ``lines``; None when none does."""
    if "gates" not in cache:
        cache["gates"] = _gates(src)
    found: Optional[str] = None
    for line in lines:
        hit = [sorted(f)[0] for start, end, f in cache["gates"] if start <= line <= end and not f & passed]
        if not hit:
            return None
        found = found or hit[0]
    return found
