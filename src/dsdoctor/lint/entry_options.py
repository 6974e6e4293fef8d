"""The options each launch that may run a script under ZeRO-3 passes it (issue 18: a test on an option's value).

``low_cpu_mem_usage=False if "stage3" in training_args.deepspeed else True``: where every such launch of the
script passes ``--deepspeed`` with a path the shell model knows, the test has one answer under ZeRO-3
(lint/script/evaluation.py). Launches of unknown stage count (they may be ZeRO-3); stage 0-2 ones do not.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, AbstractSet, Callable, Dict, FrozenSet, List, Sequence, Set, Tuple

EVERY = "+"  # ``+x`` among a file's ZeRO-3 options: every ZeRO-3 launch reaching it passes ``--x`` (launched.py)


def given(flags: AbstractSet[str], name: str) -> Set[str]:
    """The values a launch's options (``Recipe.flags``: ``name`` and ``name=value``) give ``--name``."""
    prefix = name + "="
    return {f[len(prefix):] for f in flags if f.startswith(prefix)}

if TYPE_CHECKING:
    from .recipe import Recipe


def zero3_entry_flags(recipes: Sequence["Recipe"]) -> Dict[str, List[FrozenSet[str]]]:
    """Entry script -> the options (``deepspeed``, ``deepspeed=cfgs/zero3.json``: lint/recipes.py) of each
    DeepSpeed launch of stage 3 or unknown stage that starts it (:func:`reach_values`, each entry reaching itself)."""
    return reach_values(recipes, lambda entry: {entry})


def reach_values(recipes: Sequence["Recipe"], reached: Callable[[str], Set[str]]) -> Dict[str, List[FrozenSet[str]]]:
    """Each file a launch of stage 3 or unknown stage reaches (its entry and the modules it imports) -> the options
    of each such launch: a test on ``training_args.deepspeed`` in an imported module reads the launch's values as
    the entry's own would."""
    out: Dict[str, List[FrozenSet[str]]] = {}
    for r in recipes:
        if r.entry is not None and r.stage in (3, None):
            for f in reached(r.entry):
                out.setdefault(os.path.normpath(f), []).append(frozenset(r.flags))
    return out


def config_flag_values(recipes: Sequence["Recipe"], name: str) -> Dict[str, Tuple[str, ...]]:
    """ds_config -> the values (sorted, distinct) its launches pass for ``--name`` (``--lr_scheduler_type``); a config
    none passes it for is absent. A value taken from a shell variable is not known and not counted (recipes keep no
    ``$`` value)."""
    out: Dict[str, Set[str]] = {}
    for r in recipes:
        vals = given(r.flags, name) - {""}
        for cfg in r.configs if vals else ():
            out.setdefault(cfg, set()).update(vals)
    return {cfg: tuple(sorted(v)) for cfg, v in out.items()}
