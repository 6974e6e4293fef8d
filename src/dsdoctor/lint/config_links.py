"""What a launch's code says of the configs it loads, beyond their names (for lint/launched.py): the config a
launch that names none gets from its entry's option default, the keys the code sets in a config it loads
(:mod:`.code_filled`), whether it merges the file into a config it builds (:mod:`.fragment`); and an option of the
entry's own that names one (:func:`own_config_option`, for lint/recipes.py)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .code_filled import reached_filled
from .fragment import merged_at
from .launch.shell import DS_CONFIG_FLAGS
from .option_gate import unread
from .recipe import Recipe, resolve

if TYPE_CHECKING:
    from .discover import Found
    from .launched import _Entries

_DS_OPTION = re.compile(r"(?:^|_)(?:ds|deepspeed)(?:_|$)")  # an option named for DeepSpeed: --ds, --ds_json


def launch_links(r: Recipe, entries: "_Entries", root: str) -> None:
    """What the launch's entry code says of its options: the config it declares as a default where the launch names
    none (:func:`default_config`); a missing config its code never reads on this launch (:mod:`.option_gate`: the
    option read only on a DeepSpeed path the launch's engine option does not take) is no missing file."""
    default_config(r, entries, root)
    if r.missing and r.entry is not None and r.entry in entries.graph:
        files = entries.reached(r.entry) | {r.entry}
        r.missing = [m for m in r.missing if not (r.missing_options.get(m) and unread(
            r.missing_options[m], files, r.flags, entries.defaults(r.entry)))]


def default_config(r: Recipe, entries: "_Entries", root: str) -> None:
    """A launch that names no config runs its entry with the config its own code declares as a config option's
    default (``deepspeed_config: str = field(default="conf/ds.json")``, ``add_argument("--deepspeed_config",
    default=...)``; lint/defaults.py): that file, where it exists (from the launch's directory up, or the root)."""
    if r.launcher is None or r.names_config or r.configs or r.entry is None or r.entry not in entries.graph:
        return
    declared = entries.defaults(r.entry)
    for flag in DS_CONFIG_FLAGS:
        name = flag[2:].replace("-", "_")
        val = declared.get(name, "")
        cfg = resolve(val, r.file, root) if val.endswith(".json") else None
        if cfg is not None and name not in r.flags:
            r.configs.append(cfg)
            r.options[cfg] = name
            r.names_config = True
            r.flag_loaded_by = r.flag_loaded_by or ("deepspeed" if name == "deepspeed_config" else "trainer")
            return


def _merged_at(r: Recipe, cfg: str, entries: "_Entries") -> str:
    """"script:line" where the launch's entry (or code it imports) merges ``cfg`` into a config built in code
    (:mod:`.fragment`); "" where it hands it over whole, or nothing says."""
    if r.entry is None or r.entry not in entries.graph or cfg not in r.options:
        return ""
    option = r.options[cfg] or None
    for f in [r.entry] + (sorted(entries.reached(r.entry) - {r.entry}) if option else []):
        line = merged_at(f, option)
        if line is not None:
            return f"{f}:{line}"
    return ""


def code_links(r: Recipe, cfg: str, entries: "_Entries", found: "Found") -> None:
    """Record, for a launch of ``cfg``, the keys its code sets in the config (only those every launch sets count)
    and where it merges the file into a config it builds (a fragment only where every launch merges it)."""
    mine = r.filled.get(cfg, {})
    if r.entry in entries.graph and r.options.get(cfg):  # and the code it imports (a trainer class's method)
        own = {r.entry} if cfg in r.filled else set()  # a YAML's config: the entry's own assignments too
        mine = {**reached_filled(entries.reached(r.entry) - own, r.options[cfg]), **mine}
    if r.save16 is not None:  # true only where every launch giving a value says true
        had = found.accelerate_save_16bit.get(cfg)
        found.accelerate_save_16bit[cfg] = r.save16 if had is None else had and r.save16
    merged = _merged_at(r, cfg, entries)
    found.fragments[cfg] = merged if found.fragments.get(cfg, merged) else ""
    old = found.code_filled.get(cfg)
    found.code_filled[cfg] = dict(mine) if old is None else {k: w for k, w in old.items() if k in mine}


def own_config_option(r: Recipe, key: str, val: str, path: str, root: str) -> bool:
    """An option of the entry script's own (``--ds training/ds_config.json``) handed a DeepSpeed config: it names
    the config the run loads as ``--deepspeed`` does. Only where the file is a JSON object whose own keys are a
    config's (a training JSON that nests one, or an HF-arguments JSON, is none) and either holds a
    ``zero_optimization`` block or the option's name says DeepSpeed (``ds``, ``deepspeed``)."""
    import json

    from .discover import _DS_KEYS, _read

    if r.entry is None or not key.startswith("--") or not val.endswith(".json"):
        return False
    cfg = resolve(val, path, root)
    try:
        data = json.loads(_read(cfg, 2**20)) if cfg is not None else None
    except ValueError:
        return False  # not plain JSON: left unlinked rather than guessed
    if not isinstance(data, dict) or "deepspeed" in data or not any(_DS_KEYS.search(f'"{k}"') for k in data):
        return False  # ("deepspeed": an HF-arguments JSON naming its config)
    return "zero_optimization" in data or _DS_OPTION.search(key[2:].replace("-", "_").lower()) is not None
