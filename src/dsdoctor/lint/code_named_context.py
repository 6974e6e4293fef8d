"""A ds_config that no launch of the project names but Python code does (a script's ``default="ds_config_z3.json"``, a
test's ``DeepSpeedConfig(get_test_path("ds_batch_config.json"))``): where no launch runs that code, the project's
launches say nothing of how it is used. Its world size is then unknown (not the first launch script's), and whether
a model save reads its 16-bit gathering flag (and whether PEFT is used) is what that code does (DeepSpeed's own repository: its torch.compile
test scripts' ZeRO-3 configs, which they never save with, and a unit test's batch config read at world size 2, both
judged by an unrelated example's ``deepspeed --num_gpus 8``).

Only where every file naming it is one no launch reaches; the saves only where each
of them is a script of its own (no project file imports it: what runs it is that file, not an importer that might
save).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Set

from .save_strategy import code_saves

if TYPE_CHECKING:
    from .found import Found
    from .launched import _Entries


def code_named_context(found: "Found", entries: "_Entries", under: Set[str], reached: Set[str]) -> None:
    """Set ``config_world`` (unknown) and ``config_saves`` (its namers') of each config of ``under`` (the configs
    Python files of the directory whose project model was just built name) that only code none of its launches
    reaches (not in ``reached``) names (module doc)."""
    imported = {f for deps in entries.graph.values() for f in deps}
    for cfg in sorted(under):
        namers = found.code_named.get(cfg)
        if not namers or cfg in found.recipe_loaded or cfg in found.config_world:
            continue
        if namers & reached:
            continue  # a launch runs the code naming it: the project's launches are its context
        found.config_world[cfg] = (None, "")
        if cfg not in found.config_saves and all(n in entries.graph and n not in imported for n in namers):
            found.config_saves[cfg] = any(code_saves(n, entries) for n in namers)
            found.config_peft[cfg] = any(entries.uses(n, "peft") for n in namers)
