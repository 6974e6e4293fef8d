"""How a run's training went, read across lines (the scanner keeps them: ``Scanner.marks["overflow"]``): an fp16 loss
scale that collapsed. DeepSpeed's dynamic loss scaler logs each overflowing step (``OVERFLOW! Rank 0 Skipping step.
Attempted loss scale: 64, reducing to 32``) and halves the scale; when the scale reaches ``min_loss_scale`` (1 unless
the config sets it) the next overflow raises ``Current loss scale already at minimum``. A walk of such lines, each one
starting at the scale the one before reduced to (no step in between raised it again), that has come down to
:data:`LOW` or less is that collapse under way: the fp16 gradients overflow on every step.

A walk that stays high is the scaler's calibration at the start of a run (``65536, reducing to 32768``, ...), and a
single low line is one bad step: neither is a failure. The scale already at its minimum (``reducing to 1`` from 1) is
a message signature of the cause itself (``causes/training.py``)."""

from __future__ import annotations

import re
from typing import List, Optional, Set, Tuple

from .. import names as N
from ..knowledge import deepspeed as K
from .match import Hit, Scanner

# the walk has come to within three halvings of the default minimum (1): the run aborts a few overflows later
LOW = 8 * K.FP16_MIN_LOSS_SCALE_DEFAULT
MIN_STEPS = 3  # overflowing steps in the walk, each halving the scale
_STEP = re.compile(r"Skipping step\. Attempted loss scale: (\d{1,12}(?:\.\d{1,8})?), reducing to (\d{1,12}(?:\.\d{1,8})?)"
                   r"(?![\d.])")


def _scales(h: Hit) -> Optional[Tuple[float, float]]:
    m = _STEP.search(h.text)
    return (float(m.group(1)), float(m.group(2))) if m else None


def collapsed(sc: Scanner) -> List[Hit]:
    """The last walk of overflowing steps that brought the fp16 loss scale down to :data:`LOW` or less, as hits of
    ``fp16-loss-scale-collapse`` (its last :data:`MIN_STEPS` lines); [] when the log shows none."""
    walk: List[Hit] = []
    last = 0.0
    seen: Set[Tuple[str, int]] = set()
    for h in sorted(sc.marks["overflow"], key=lambda h: h.order):
        got = _scales(h)
        if (h.source, h.line) in seen:  # a line read twice (once more joined with the next, for a hard wrap)
            continue
        seen.add((h.source, h.line))
        if got is None:  # "..., but hysteresis is 2. Reducing hysteresis to 1": the same scale, one more try
            continue
        cur, nxt = got
        if not (walk and cur == last):
            walk = []
        if nxt < cur:
            walk.append(h)
            last = nxt
        else:  # at the minimum already: the message signature names it
            walk, last = [], nxt
    if len(walk) < MIN_STEPS or last > LOW:
        return []
    return [Hit(N.FP16_LOSS_SCALE_COLLAPSE, h.source, h.line, h.stream, h.text, groups={"scale": f"{last:g}"}, order=h.order)
            for h in walk[-MIN_STEPS:]]
