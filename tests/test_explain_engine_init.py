"""explain/engine_init.py: a log that stops inside deepspeed.initialize's set-up is failure evidence (unknown), one
whose set-up finished or went on to other output is not."""

from __future__ import annotations

from typing import List

from dsdoctor.explain import diagnose_log
from dsdoctor.explain.engine_init import stops_in_setup

STAMP = "[2025-01-01 00:00:00,000] [INFO] "
START = STAMP + "[logging.py:128:log_dist] [Rank 0] DeepSpeed Basic Optimizer = AdamW"
ZERO = STAMP + "[logging.py:128:log_dist] [Rank 0] Creating torch.bfloat16 ZeRO stage 3 optimizer"
BUCKET = STAMP + "[stage3.py:170:__init__] Reduce bucket size 500000000"
FINAL = STAMP + "[logging.py:128:log_dist] [Rank 0] DeepSpeed Final Optimizer = DeepSpeedZeroOptimizer_Stage3"


def _hits(lines: List[str]) -> int:
    return len(stops_in_setup(enumerate((s.encode() for s in lines), 1), "log"))


def test_a_log_that_stops_in_the_set_up() -> None:
    assert _hits([START, ZERO, "Loading extension module utils...", BUCKET]) == 1
    assert diagnose_log("\n".join([START, ZERO, BUCKET]) + "\n").findings[0].name == "unknown"


def test_a_finished_set_up_or_other_output_after_it_is_not() -> None:
    assert _hits([START, ZERO, BUCKET, FINAL]) == 0
    assert _hits([START, ZERO, BUCKET, "{'loss': 1.25, 'learning_rate': 1e-05, 'epoch': 0.01}"]) == 0
    assert _hits([BUCKET, "Loading extension module utils..."]) == 0  # no set-up line of the engine's
    assert diagnose_log("\n".join([START, ZERO, BUCKET, FINAL]) + "\n").findings[0].name == "no-failure"


def test_a_later_engine_set_up_counts_again() -> None:  # a second engine (a reference model) that stops in its set-up
    assert _hits([START, FINAL, "{'loss': 1.25}", START, ZERO]) == 1
