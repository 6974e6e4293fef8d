"""Findings behind a command-line flag that no ZeRO-3 launch of the project passes.

A problem in the body of ``if args.bits in [4, 8]:`` (``args.q_lora``, ``training_args.load_in_4bit is not None``
...) only happens when the run passes that option. Where the project's ZeRO-3 launches are known and none of
those that reach the file passes it, the finding is ``info`` ("only with --bits ..."); a launch that passes the
option keeps it an error or warning. A negated test (``if not args.x``: the default path) never gates. So does a
call argument whose value is set only with the option (``load_in_8bit=args.bits == 8``, ``X if args.use_lora
else None``): an option given as false in the launch (``--use_lora False``) is not passed. Only for the rules in
``GATED``.
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
         N.ZERO3_UNSUPPORTED_QUANTIZATION, N.PREPARE_KBIT_UNDER_ZERO3,
         N.PEFT_CHECKPOINTING_REENTRANT}  # points at the use_reentrant=False that causes it
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


def _value_flags(value: Any) -> Set[str]:
    """The options a call argument's value is set only with: ``load_in_8bit=args.bits == 8`` (``==`` / ``in``
    a literal), ``quantization_config=BitsAndBytesConfig(...) if args.use_lora else None``."""
    if isinstance(value, cst.Comparison):
        ops = all(isinstance(t.operator, (cst.Equal, cst.In)) for t in value.comparisons)
        lits = all(isinstance(t.comparator, (cst.Integer, cst.SimpleString, cst.Tuple, cst.List, cst.Set))
                   for t in value.comparisons)
        return _flags(value) if ops and lits else set()
    if isinstance(value, cst.IfExp) and isinstance(value.orelse, cst.Name) and value.orelse.value in ("None", "False"):
        return _flags(value.test)
    return set()


def _gates(src: Any) -> "Gates":
    """(start, end, options) of the body of every ``if`` whose test reads options (whole lines), and of every call
    argument whose value is set only with an option (:func:`_value_flags`, to the column)."""
    out: Gates = []
    for node in src.positions:
        if isinstance(node, cst.If):
            flags = _flags(node.test)
            if flags:
                body = src.positions[node.body]
                out.append(((body.start.line, 0), (body.end.line, _EOL), flags))
        elif isinstance(node, cst.Arg) and node.keyword is not None:
            flags = _value_flags(node.value)
            if flags:
                r = src.positions[node]
                out.append(((r.start.line, r.start.column), (r.end.line, r.end.column), flags))
    return out


_EOL = 10**9
Pos = Tuple[int, int]  # (1-based line, 0-based column)
Gates = List[Tuple[Pos, Pos, Set[str]]]


def gating_flag(src: Any, where: List[Pos], passed: Set[str], cache: Dict[str, Gates]) -> Optional[str]:
    """The option (none of ``passed``) whose ``if`` body or argument holds every one of ``where``; None when none
    does."""
    if "gates" not in cache:
        cache["gates"] = _gates(src)
    found: Optional[str] = None
    for pos in where:
        hit = [sorted(f)[0] for start, end, f in cache["gates"] if start <= pos < end and not f & passed]
        if not hit:
            return None
        found = found or hit[0]
    return found
