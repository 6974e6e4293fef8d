"""Whether the code that builds a config's engine hands ``deepspeed.initialize`` its own optimizer or lr_scheduler
(offload-client-optimizer, ds-config-auto-without-trainer, ds-scheduler-overrides-trainer read it).

Each Python file's first ``deepspeed.initialize(...)`` call says it (:func:`.discover._python`). A config its
launches start gets what the files they run say, where those agree; any other config what every non-test file of the
project says, where they agree, and nothing (unknown) where they differ. (It was the last file read: in a project
whose training script passes an optimizer and whose evaluation script does not, a config was judged by whichever
came last in the walk.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Iterable, List, Optional, Set, Tuple

from .found import TEST_FILE

if TYPE_CHECKING:
    from .found import Found
    from .launched import _Entries
    from .recipe import Recipe

Passed = Tuple[Optional[bool], Optional[bool]]


def _one(values: Iterable[Tuple[bool, bool]]) -> Passed:
    got = list(values)
    opt, sched = {o for o, _ in got}, {s for _, s in got}
    return (opt.pop() if len(opt) == 1 else None), (sched.pop() if len(sched) == 1 else None)


def agreed(found: "Found") -> Passed:
    """What every file calling deepspeed.initialize passes (tests left out where any other file calls it)."""
    own = [v for f, v in found.client_passed.items() if found.never_zero3.get(f) != TEST_FILE]
    return _one(own or found.client_passed.values())


def config_clients(recipes: List["Recipe"], entries: "_Entries", found: "Found") -> None:
    """``found.config_client`` of each config the launches of ``recipes`` start, from the files they run."""
    per: Dict[str, List[Set[Tuple[bool, bool]]]] = {}
    for r in recipes:
        if r.launcher is None or r.entry is None or r.entry not in entries.graph:
            continue
        said: Set[Tuple[bool, bool]] = {found.client_passed[f] for f in entries.reached(r.entry) if f in found.client_passed}
        for cfg in r.configs:
            per.setdefault(cfg, []).append(said)
    for cfg, launches in per.items():
        if all(launches):  # every launch runs a deepspeed.initialize call of the project
            found.config_client[cfg] = _one(v for said in launches for v in said)
