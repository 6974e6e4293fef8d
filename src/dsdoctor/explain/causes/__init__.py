"""The causes ``dsdoctor explain`` can name: one :class:`~.spec.Cause` per cause, in an area module
(``build``, ``op_build``, ``loading``, ``zero3_params``, ``config``, ``launch``, ``ranks``, ``resources``, ``generic``,
...), collected in ``registry.CAUSES``."""

from __future__ import annotations

from .cause import Advice, Cause, LogFacts, Seen, Signature
from .registry import BY_NAME, CAUSES, ENV_CAUSES, FRAME_SIGNATURES, SIGNATURES, all_signatures, cause

__all__ = ["Advice", "BY_NAME", "CAUSES", "Cause", "ENV_CAUSES", "FRAME_SIGNATURES", "LogFacts", "SIGNATURES", "Seen",
           "Signature", "all_signatures", "cause"]
