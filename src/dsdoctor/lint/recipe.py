"""A recipe: one launch of the project, as :mod:`.recipes` reads it, and how the files it names are found."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Set, Tuple

from .embedded import shown
from .script.context import config_stage


@dataclass
class Recipe:
    """One launch of the project."""

    where: str  # "path:line" of the recipe
    entry: Optional[str] = None  # the project's Python file it starts (None: not named or not in the project)
    launcher: Optional[str] = None  # deepspeed | torchrun | accelerate | python | cli (a framework's) | None (a YAML)
    configs: List[str] = field(default_factory=list)  # ds_config files it hands over (existing files)
    stage: Optional[int] = None
    stage_source: str = ""
    world_size: Optional[int] = None
    world_source: str = ""
    flag_loaded_by: Optional[str] = None  # what the option naming the config implies (trainer | deepspeed | accelerate)
    names_config: bool = False  # a config option is given (its file may not resolve)
    flags: Set[str] = field(default_factory=set)  # the options passed to the entry script (``--bits 4`` -> "bits")
    passed: Set[str] = field(default_factory=set)  # every option name passed to it (``--fp16 False`` too)
    opaque: bool = False  # it also passes arguments not known here (``$EXTRA_ARGS``, ``"$@"``, ``...``)
    arg_configs: Set[str] = field(default_factory=set)  # configs given as the entry script's own options
    handed: List[str] = field(default_factory=list)  # its configuration files (a training YAML, a Python config ...)
    yaml: Optional[str] = None  # the accelerate YAML an ``accelerate launch --config_file`` names
    yaml_named: str = ""  # its ``--config_file`` as written (also where it does not resolve)
    off: str = ""  # not a launch: why the configs it names are not loaded (a Python config with deepspeed = False)
    # literal relative config paths of a shell launch that resolve nowhere (none where a ``cd`` went somewhere unknown)
    missing: List[str] = field(default_factory=list)
    missing_options: Dict[str, str] = field(default_factory=dict)  # a missing path -> the entry's option naming it
    module: str = ""  # the ``-m`` module it starts, as written ("": a script)
    entry_missing: bool = False  # the launch names another project's .py script (launch_dirs.foreign: a copied launch)
    entry_absent: str = ""  # its .py script as written where no file of the project is that script (moved, renamed)
    save16: Optional[bool] = None  # ``accelerate launch --zero3_save_16bit_model true|false`` (fills an "auto")
    # accelerate's zero3_init_flag (its YAML, or --zero3_init_flag): False where the launch turns zero.Init off, so
    # a model from_pretrained builds is whole until accelerator.prepare partitions it
    zero_init: Optional[bool] = None
    # config -> {key path: "script:line"}: keys the entry script sets in code in the config it loads (code_filled.py)
    filled: Dict[str, Dict[str, str]] = field(default_factory=dict)
    # config -> the entry script's option that names it (``deepspeed_config``; "" for a path the entry formats):
    # what the code it imports loads
    options: Dict[str, str] = field(default_factory=dict)
    hostfile: str = ""  # the deepspeed launcher's -H / --hostfile: the file where it resolves, else as written

    @property
    def file(self) -> str:
        """The file the recipe is in (``where`` without its line)."""
        return self.where.rsplit(":", 1)[0]

    def override(self, name: str, value: str, unset: bool, off: Set[str]) -> None:
        """Option ``name`` set to ``value`` over a config file's (``unset``: given as false, put in ``off``, which the
        caller takes out of the options at the end)."""
        if unset:
            off.add(name)
            self.flags.discard(name)
            return
        off.discard(name)
        self.flags.add(name)
        if "$" not in value:
            self.flags.add(f"{name}={value}")

    @property
    def deepspeed(self) -> bool:
        """Does this launch use DeepSpeed (a deepspeed launcher, a config or a ZeRO stage)?"""
        return self.launcher == "deepspeed" or self.names_config or self.stage is not None


_PLACEHOLDER = re.compile(r"^\$\{?[A-Za-z_]\w*\}?/(.+)$")


def resolve(ref: str, recipe: str, root: str, exists: Callable[[str], bool] = os.path.isfile) -> Optional[str]:
    """The existing file ``ref`` names, from the recipe's directory, then its parents up to ``root``, then
    ``root`` (also where ``ref`` starts with the name of the project's own directory: a script run from the
    checkout's parent, ``SEED-X/configs/x.yaml``; or is an absolute path through a directory of that name:
    :func:`in_checkout`, also after a variable the script leaves unset: ``${YOUR_PATH_TO}/CPM-distill/x.json``);
    None when none exists. ``exists``: what counts as found (``os.path.isdir`` for a
    directory)."""
    if not ref:
        return None
    if "$" in ref:  # `${YOUR_PATH}/PROJ/configs/x.json`: a placeholder, then the checkout's own directory
        m = _PLACEHOLDER.match(ref)
        mine = in_checkout(os.sep + m.group(1), root) if m and "$" not in m.group(1) else None
        return mine if mine is not None and exists(mine) else None
    if os.path.isabs(ref):
        if exists(ref):
            return ref
        mine = in_checkout(ref, root)
        return mine if mine is not None and exists(mine) else None
    d = os.path.dirname(recipe) or "."
    root = os.path.normpath(root)
    seen = set()
    while True:
        cand = os.path.normpath(os.path.join(d, ref))
        if cand not in seen and exists(cand):
            return _home(cand, root)
        seen.add(cand)
        if os.path.normpath(d) == root or d in ("", ".", os.sep):
            break
        d = os.path.dirname(os.path.normpath(d)) or "."
    cand = os.path.normpath(os.path.join(root, ref))
    if exists(cand):
        return cand
    head, _, rest = os.path.normpath(ref).partition(os.sep)  # `PROJ/configs/x.json`, run from the checkout's parent
    if rest and head == checkout_name(root):
        cand = os.path.normpath(os.path.join(root, rest))
        return cand if exists(cand) else None
    return None


def _home(path: str, root: str) -> str:
    """``path`` as a path below ``root`` where it leaves the root only to come back into it (``../RISE/x.py`` from a
    checkout named RISE: ``x.py``, one file linted once)."""
    if not path.startswith(".." + os.sep) and not os.path.isabs(path):
        return path
    real = os.path.join(os.path.realpath(os.path.dirname(path) or "."), os.path.basename(path))  # the file's own link kept
    top = os.path.realpath(root)
    if not real.startswith(top.rstrip(os.sep) + os.sep):
        return path
    return os.path.normpath(os.path.join(root, os.path.relpath(real, top)))


def checkout_name(root: str) -> str:
    """The name of the project's own directory (a path written through it runs from the checkout's parent)."""
    return os.path.basename(os.path.realpath(root))


def in_checkout(ref: str, root: str) -> Optional[str]:
    """The project path an absolute ``ref`` names through the writer's checkout of this repository: the part after
    its last directory named as the project's root (``/root/work/CPM-2-Finetune/configs/z3.json`` in a checkout
    named CPM-2-Finetune: ``configs/z3.json``, existing or not); None where no directory is named so."""
    parts = ref.strip(os.sep).split(os.sep)
    mine = checkout_name(root)
    at = [i for i, p in enumerate(parts[:-1]) if p.lower() == mine.lower()]  # a clone may differ in case
    return os.path.normpath(os.path.join(root, *parts[at[-1] + 1:])) if at and mine else None


def settle_stage(r: Recipe) -> None:
    """The recipe's ZeRO stage from its configs when nothing else gave it (stage 3 wins over the others)."""
    if r.stage is not None:
        return
    for cfg in r.configs:
        st = config_stage(cfg)
        if st is not None and (r.stage is None or st == 3):
            r.stage, r.stage_source = st, f"zero_optimization stage {st} in {shown(cfg)} ({r.where})"


def own_stage(every: List[Recipe]) -> None:
    """A launch that names no config and no stage, of a script whose own code names a config
    (``TrainingArguments(deepspeed="z3.json")``: its recipe as a Python file), runs at that config's stage, with the
    options the launch passes (FLAT's README run of unlearn.py: its Hydra config's save_model)."""
    own = {r.entry: r for r in every if r.launcher == "python" and r.where == f"{r.entry}:1" and r.stage is not None}
    for r in every:
        mine = own.get(r.entry) if r.entry is not None else None
        if mine is not None and r is not mine and r.stage is None and not r.configs and r.launcher is not None:
            r.stage, r.stage_source = mine.stage, f"{mine.stage_source}, named in {r.entry} itself"


def literal_path(ref: str) -> bool:
    """A relative path written out (no variable, glob, ``~``; ``/path/to/ds.json``: a placeholder of the reader's)."""
    return not (os.path.isabs(ref) or ref.startswith("~") or any(c in ref for c in "$*?{}<>`"))


def merged(recipes: List[Recipe]) -> List[Recipe]:
    """One recipe per distinct launch (entry, configs, stage ...) of a line read on several paths, with the options
    of those paths together; a path whose config and stage are unknown (set from an argument) is left out where
    another path of the line has them."""
    out: Dict[Tuple[object, ...], Recipe] = {}
    if any(r.stage is not None or r.configs for r in recipes):  # a path that sets neither (``DS_CONFIG=$1``)
        recipes = [r for r in recipes if r.stage is not None or r.configs]  # adds nothing the script ships
    for r in recipes:
        key = (r.entry, r.launcher, tuple(r.configs), r.stage, r.world_size, r.flag_loaded_by, r.names_config,
               tuple(sorted(r.arg_configs)), r.off)
        if key in out:
            out[key].flags |= r.flags
        else:
            out[key] = r
    return list(out.values())
