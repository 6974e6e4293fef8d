"""The project model: what the project's launch recipes run, and with which configs.

From the recipes (:mod:`.recipes`) and the import graph (:mod:`.reach`) of each directory linted:

- every ds_config a recipe hands over is linted, as its launch loads it (HF Trainer when the entry script uses
  Trainer / TrainingArguments, accelerate when ``accelerate launch`` starts it, else raw
  ``deepspeed.initialize``) and with its launch line's world size;
- the ZeRO-3 context of each Python file: ZeRO-3 where a ZeRO-3 recipe's entry reaches it; off where the project
  has DeepSpeed recipes that start Python files and none with ZeRO-3 reaches it; never in tests
  (``tests/``, ``test_*.py``, ``conftest.py``) or in files that use FSDP / Megatron-Core and not DeepSpeed.
  A project without such recipes keeps the project-wide context (a lone training script is still linted), unless
  nothing in it names DeepSpeed (:mod:`.no_deepspeed`): then its files are off ZeRO-3. Options: :mod:`.launch_reach`;
  what each Trainer launch checks its config against: :mod:`.trainer_args`."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Set, Tuple

from ..knowledge.transformers import TRAINER_CLASS, TRL_CONFIGS
from ..literal_gate import GatedPattern, gated
from .called import called
from .calls import Read, function_reach
from .closure import Verdicts
from .config_links import code_links, launch_links
from .defaults import merge
from .discover import _PY_PEFT, _PY_TRAINS, _read
from .entry_options import reach_values
from .entry_texts import EntryTexts
from .found import TEST_FILE
from .hf_scope import record_unseen
from .launch_reach import contexts, launch_flags, launch_source, off_contexts, zero_init_off
from .no_deepspeed import REASON, uses_deepspeed
from .option_values import Values
from .plain_classes import plain_classes, unbound_imports
from .reach import Graph, Memo, _resolve, import_graph, reach
from .recipe import Recipe, own_stage
from .recipe_files import add_recipe_files
from .recipe_yaml import default_stage
from .recipes import read_recipes
from .save_strategy import launch_saves
from .saves import save_lines, zero_to_fp32
from .standalone import never_registered
from .templates import code_templates
from .test_paths import is_test
from .unrun import unrun
from .yaml_scope import own_setup

if TYPE_CHECKING:
    from .discover import Found

_OTHER_ENGINE = gated(r"^[ \t]*(?:from|import)[ \t]+(torch\.distributed(?:\._composable)?\.fsdp|megatron|"
                      r"olmo_core\.(?:train|nn))\b|"  # OLMo-core's trainer / models: its own FSDP engine
                      r"\bFullyShardedDataParallel\b", re.M)
_DEEPSPEED = gated(r"\bdeepspeed\b|\bTrainingArguments\b|\bSFTConfig\b|\bDeepSpeedPlugin\b")
# MyTrainer(, Seq2SeqTrainerForChatGLM(; not `class X(Trainer)`
_TRAINER = gated(r"(?<!class )\b(?:\w*TrainingArguments|\w*SFTConfig|" + TRAINER_CLASS + r")\s*\(")
# ... and Hugging Face's: one of the files imports a Trainer / TrainingArguments / TRL config from transformers or trl
# (trlx's own trainers and configs, Lightning's Trainer are none)
_HF_NAMES = r"\b(?:\w*Trainer|\w*TrainingArguments|" + TRL_CONFIGS + r")\b"
_HF_TRAINER = gated(r"\bfrom[ \t]+(?:transformers|trl)\b[\w.]*[ \t]+import[ \t]+(?:\([^)]*|[^\n]*)" + _HF_NAMES +
                    r"|\b(?:transformers|trl)\." + _HF_NAMES)
_REGISTERS = gated(r"^[ \t]*(?:from|import)[ \t]+(?:deepspeed|accelerate|trl)\b|\bTrainer\b|\bTrainingArguments\b|"
                   r"\bHfArgumentParser\b|\bHfDeepSpeedConfig\b", re.M)
_INIT = gated(r"\bdeepspeed\.initialize\s*\(")
# DeepSpeed's ZeRO-3 consolidation called directly: it gathers whatever stage3_gather_16bit_weights_on_model_save says;
# or zero_to_fp32's functions (deepspeed.utils.zero_to_fp32), which turn the ZeRO checkpoint save_checkpoint wrote
# into full weights, as running zero_to_fp32.py does
_CONSOLIDATES = gated(r"\._zero3_consolidated_16bit_state_dict\s*\(|(?<!def )\b(?:convert_zero_checkpoint_to_fp32_state_dict|"
                      r"get_fp32_state_dict_from_zero_checkpoint|load_state_dict_from_zero_checkpoint)\s*\(")
# anything that may read the command line (a parser, sys.argv, a CLI library): the script may read --deepspeed
_ARGV = gated(r"\b(?:argv|argparse|ArgumentParser|parse_args|parse_known_args|HfArgumentParser|TrlParser|fire|click|"
              r"typer|hydra|tyro|jsonargparse|docopt|absl|simple_parsing|optparse|getopt|LightningCLI|from_cli|"
              r"CLI)\b")
# training arguments built in code (TrainingArguments(...), SFTConfig(...), GRPOConfig(...) ...)
_ARGS_IN_CODE = gated(r"(?:TrainingArguments|" + TRL_CONFIGS + r")\s*\(")  # MyTrainingArguments( too (only found or not)
_USES = (("registers", _REGISTERS), ("trainer", _TRAINER), ("hf", _HF_TRAINER), ("initialize", _INIT), ("argv", _ARGV),
         ("args_in_code", _ARGS_IN_CODE), ("trains", _PY_TRAINS), ("accelerator", gated(r"\bAccelerator\s*\(")),
         ("consolidates", _CONSOLIDATES), ("peft", _PY_PEFT))


def other_engine(path: str) -> Optional[str]:
    """The FSDP / Megatron import of a file that never mentions DeepSpeed (or the HF DeepSpeed integration)."""
    text = _read(path)
    m = _OTHER_ENGINE.search(text)
    return None if m is None or _DEEPSPEED.search(text) else m.group(1) or "FullyShardedDataParallel"


def project_model(paths: Sequence[str], found: "Found") -> None:
    """Fill ``found`` (configs, loaded_by, config_world, launches, never_zero3) from each directory of ``paths``."""
    for p in paths:
        if os.path.isdir(p):
            _model(os.path.normpath(p), found)


def _under(path: str, root: str) -> bool:
    return root == "." and not os.path.isabs(path) and not path.startswith("..") or \
        path.startswith(root.rstrip(os.sep) + os.sep)


class _Entries:
    """What each entry script's process runs (the files it reaches) and uses (Trainer, deepspeed.initialize, a
    DeepSpeed registration anywhere in those files), read once per entry."""

    def __init__(self, graph: Graph, named: Dict[Tuple[str, str], Optional[Set[str]]], root: str = ".") -> None:
        self.graph, self.named, self.root = graph, named, root
        self._files = set(graph)
        self._memo: Memo = {}
        self._seen: Dict[str, Tuple[Set[str], Set[str]]] = {}
        self._calls: Dict[Tuple[str, Optional[str], Values], "Verdicts"] = {}
        self._read: Dict[Tuple[str, bool, Values], Read] = {}  # lint/calls.py: each file read once for all entries
        self._saved: Dict[str, bool] = {}
        self._hits: Dict[Tuple[str, str], bool] = {}  # (file, what): does _USES' pattern match
        self._texts: Dict[str, EntryTexts] = {}

    def calls(self, entry: str, selects: Optional[str] = None, values: Values = ()) -> "Verdicts":
        """The verdict on each top-level function of the files ``entry`` reaches (:mod:`.calls`; ``selects``: what
        its launches hand it, lint/registry_select.py; ``values``: what they give its options, option_values.py)."""
        key = (entry, selects, values)
        if key not in self._calls:
            self._calls[key] = function_reach(self.reached(entry), entry, self._read, self._resolves, selects, values)
        return self._calls[key]

    def defaults(self, entry: str) -> Dict[str, str]:
        """The option defaults the files ``entry`` reaches declare (lint/defaults.py; read with :meth:`calls`)."""
        self.calls(entry)
        return merge(got[5] for f in sorted(self.reached(entry)) for got in [self._read.get((f, f == entry, ()))]
                     if got is not None)

    def _resolves(self, path: str, level: int, module: str, names: List[str]) -> Dict[str, Optional[Set[str]]]:
        """The files of the project this import of ``path`` names, with the names it takes (:mod:`.reach`)."""
        return _resolve(path, level, module, names, self.root, self._files, self._memo)

    def texts(self, entry: str) -> EntryTexts:
        """The texts of the files ``entry`` reaches (up to 1 MiB each), read once (:mod:`.entry_texts`)."""
        if entry not in self._texts:
            self._texts[entry] = EntryTexts([_read(f, 2**20) for f in sorted(self.reached(entry))])
        return self._texts[entry]

    def reached(self, entry: str) -> Set[str]:
        return self._get(entry)[0]

    def taken(self, entry: str, module: str) -> Optional[Set[str]]:
        """The names the files ``entry`` reaches take from ``module`` (None: the module itself)."""
        out: Set[str] = set()
        for src in self.reached(entry):
            if (src, module) in self.named:
                names = self.named[(src, module)]
                if names is None:
                    return None
                out |= names
        return out

    def uses(self, entry: str, what: str) -> bool:
        """``what``: "registers" | "trainer" | "initialize" | "argv" (may read the command line) | "args_in_code"
        (builds its training arguments in code) | "accelerator" | "saves" (saves a model with a save that reads the
        16-bit gathering flag: save_model / save_16bit_model / get_state_dict) | "trains" (calls a ``train()``: with a
        Trainer, it saves checkpoints) | "consolidates" (calls DeepSpeed's ``_zero3_consolidated_16bit_state_dict()``)."""
        if what == "saves":
            return self._saves(entry)
        return what in self._get(entry)[1]

    def _saves(self, entry: str) -> bool:
        """Does code ``entry`` runs call a model save? A call in a top-level function nothing that runs calls
        (:mod:`.calls`: dead), or in an override of a save method, is none."""
        if entry not in self._saved:
            verdicts: Optional[Verdicts] = None
            self._saved[entry] = False
            for f in sorted(self.reached(entry)):
                lines = save_lines(_read(f), self.uses(entry, "trainer") or self.uses(entry, "accelerator"))
                if not lines:
                    continue
                verdicts = self.calls(entry) if verdicts is None else verdicts
                dead = [(a, b) for v, a, b, _ in verdicts.get(f, {}).values() if v == "dead"]
                if any(not any(a <= ln <= b for a, b in dead) for ln in lines):
                    self._saved[entry] = True
                    break
        return self._saved[entry]

    def _has(self, path: str, what: str, pat: GatedPattern) -> bool:  # once per file
        if (path, what) not in self._hits:
            self._hits[(path, what)] = pat.search(_read(path)) is not None
        return self._hits[(path, what)]

    def ignores_argv(self, entry: str) -> bool:
        """Does ``entry``'s process build its training arguments in code and never read its command line (no
        parser, no ``sys.argv`` in any file it reaches)? Then a ``--deepspeed`` option given to it is not read."""
        return self.uses(entry, "args_in_code") and not self.uses(entry, "argv")

    def _get(self, entry: str) -> Tuple[Set[str], Set[str]]:
        if entry not in self._seen:
            files = reach(self.graph, [entry]) if entry in self.graph else {entry}
            uses: Set[str] = set()
            for f in sorted(files):
                for what, pat in _USES:
                    if what not in uses and self._has(f, what, pat):
                        uses.add(what)
            if "hf" not in uses:
                uses.discard("trainer")
            self._seen[entry] = (files, uses)
        return self._seen[entry]


def _model(root: str, found: "Found") -> None:
    from .client_passed import config_clients
    from .code_named_context import code_named_context
    from .trainer_args import trainer_launches  # it reads this module's patterns
    from .training_options import training_options
    kinds = {p: k for p, k in found.kinds.items() if _under(p, root)}
    every = read_recipes(root, kinds)
    for r in every:
        for cfg in r.configs if r.off else ():
            found.kinds.setdefault(cfg, "ds_config")
            found.not_loaded.setdefault(cfg, r.off)
    own_stage(every)
    default_stage(every)  # after the scripts' own configs: they win over the YAML's default
    recipes = [r for r in every  # a test's launch is no recipe of the project
               if r.deepspeed and not is_test(r.file, root)]
    found.recipes += recipes
    add_recipe_files(recipes, kinds, found)  # an accelerate JSON; entry scripts below a bounded walk's depth
    pyfiles = [p for p, k in kinds.items() if k == "python"]
    ds_used = bool(recipes) or (bool(pyfiles) and uses_deepspeed(root, kinds))
    if pyfiles and not ds_used:
        found.no_deepspeed.update((f, REASON) for f in pyfiles)
    named: Dict[Tuple[str, str], Optional[Set[str]]] = {}
    entries = _Entries(import_graph(pyfiles, root, named), named, root)
    for r in recipes:
        launch_links(r, entries, root)
    # launches before YAMLs: a config an accelerate YAML names is loaded as the launch using that YAML loads it
    hows = {r.where: _configs(r, entries, found) for r in sorted(recipes, key=lambda r: r.launcher is None)}
    _unlaunched_accelerate(recipes, hows, found)
    _config_saves(recipes, entries, found)
    config_clients(recipes, entries, found)
    _yaml_trainer(recipes, entries, found, kinds)
    found.trainer_launches.update(trainer_launches(recipes, entries))
    found.no_train.update(r.where for r in recipes if r.entry in entries.graph and not entries.uses(r.entry, "trains"))
    found.training_options.update(training_options(recipes, entries))
    _unlaunched(recipes, found)
    found.zero_to_fp32 = found.zero_to_fp32 or zero_to_fp32(root, kinds)
    if ds_used:  # the config templates the project's code loads and fills
        code_templates((f for f in pyfiles if not is_test(f, root)), found)
    unrun(every, entries.graph, root, found, _read)
    for f in pyfiles:
        if is_test(f, root):
            found.never_zero3[f] = TEST_FILE
        else:
            engine = other_engine(f)
            if engine is not None:
                found.never_zero3[f] = f"it uses {engine}, not DeepSpeed"
    found.never_zero3.update(never_registered(entries.graph, lambda f: reach(entries.graph, [f]), _read, found.never_zero3))
    started = [r for r in recipes if r.entry is not None and r.entry in entries.graph]
    found.launch_flags.update(launch_flags([r for r in every if r.entry in entries.graph and not is_test(r.file, root)],
                                            entries))
    found.entries.update(r.entry for r in started if r.entry is not None)
    found.plain_classes |= plain_classes(pyfiles, unbound_imports(named))
    found.own_setup.update(own_setup([r for r in every if r.entry in entries.graph], started, entries, kinds))
    if started:
        found.launches.update(contexts(started, entries, found.imported, found.zero3_flags, found.lower_stages))
        found.zero_init_off.update(zero_init_off(started, entries))
        found.reach_values.update(reach_values(started, entries.reached))
        record_unseen(found, started, entries.reached, _read)
    off = off_contexts([r for r in every if not is_test(r.file, root)], entries)  # DeepSpeed named, never used
    found.launches.update((f, c) for f, c in off.items() if f not in found.launches)
    for r in recipes:  # a ZeRO-3 launch of a script outside the directories linted (``deepspeed ../train.py``)
        if r.stage == 3 and r.entry is not None and r.entry not in entries.graph and r.entry.endswith(".py"):
            found.launches.setdefault(os.path.normpath(r.entry), (True, launch_source(r, r.entry)))
            found.zero3_flags.setdefault(os.path.normpath(r.entry), set()).update(r.flags)
    called(started, entries, found)
    code_named_context(found, entries, {c for c, by in found.code_named.items() if any(_under(n, root) for n in by)},
                       {f for r in started if r.entry is not None for f in entries.reached(r.entry)})


def _unlaunched_accelerate(recipes: List[Recipe], hows: Dict[str, str], found: "Found") -> None:
    """A config named only by an accelerate YAML that no launch uses (a YAML is a recipe of its own): taken as the
    project's accelerate launches load theirs, when every one of them starts a Trainer script (the Trainer fills
    its "auto" values)."""
    acc = {hows[r.where] for r in recipes if r.launcher == "accelerate"}
    if acc != {"trainer"}:
        return
    launched = {cfg for r in recipes if r.launcher is not None for cfg in r.configs}
    yamls = {cfg for r in recipes if r.launcher is None and hows[r.where] == "accelerate" for cfg in r.configs}
    for cfg, how in list(found.loaded_by.items()):
        if how == "accelerate" and cfg not in launched and (cfg not in found.recipe_loaded or cfg in yamls):
            found.loaded_by[cfg] = "trainer"


def _config_saves(recipes: List[Recipe], entries: _Entries, found: "Found") -> None:
    """Per config (and accelerate YAML), does a launch that loads it save a model or train with a Trainer (``config_saves``)?
    Known where every launch of it starts a project script (an evaluation launch that never saves: no 16-bit save expected,
    whatever the project's training scripts save); None where every launch starts a script the project lacks (moved)."""
    launches: Dict[str, List[Recipe]] = {}
    for r in (r for r in recipes if r.launcher is not None):
        for cfg in [*r.configs, *([r.yaml] if r.yaml else [])]:  # an accelerate YAML builds a config too
            launches.setdefault(cfg, []).append(r)
    for cfg, started in launches.items():
        known = all(r.entry in entries.graph for r in started)
        if known and all(entries.uses(r.entry or "", "consolidates") for r in started):
            found.config_consolidates.add(cfg)
        if known:
            found.config_saves[cfg] = any(launch_saves(r, entries) for r in started)
            found.config_peft[cfg] = any(entries.uses(r.entry or "", "peft") for r in started)
        elif all(r.entry_absent for r in started):
            found.config_saves[cfg] = None


def _yaml_trainer(recipes: List[Recipe], entries: _Entries, found: "Found", kinds: Dict[str, str]) -> None:
    """Per accelerate YAML: does every launch naming it start a project script that trains with an HF Trainer
    (``yaml_trainer``)? Its model save is then the Trainer's save_model, whatever accelerate builds. A YAML no
    launch names is taken as the project's accelerate launches use theirs (as :func:`_unlaunched_accelerate`)."""
    every: List[bool] = []
    for r in recipes:
        if r.launcher != "accelerate":
            continue
        hf = r.entry is not None and r.entry in entries.graph and entries.uses(r.entry, "trainer") and \
            entries.uses(r.entry, "trains")
        every.append(hf)
        if r.yaml is not None:
            found.yaml_trainer[r.yaml] = found.yaml_trainer.get(r.yaml, True) and hf
    if every and all(every):
        found.yaml_trainer.update((p, True) for p, k in kinds.items() if k == "accelerate" and p not in found.yaml_trainer)


def _unlaunched(recipes: List[Recipe], found: "Found") -> None:
    """The configs only accelerate YAMLs that no launch names hand over (``unlaunched``): nothing in the project is
    known to run, let alone save, with them."""
    launched = {cfg for r in recipes if r.launcher is not None for cfg in r.configs}
    used = {r.yaml for r in recipes if r.yaml is not None}
    for r in recipes:
        if r.launcher is None and os.path.normpath(r.file) not in used:
            found.unlaunched.update(cfg for cfg in r.configs if cfg not in launched)


def _loads_nothing(r: Recipe, entries: _Entries) -> bool:
    """Does the launch start a project script that builds no training engine (no Trainer / training arguments,
    ``deepspeed.initialize``, Accelerator): an inference script handed ``--deepspeed_config`` it never loads? It does
    not say how the config is loaded."""
    return r.entry is not None and r.entry in entries.graph and \
        not any(entries.uses(r.entry, w) for w in ("trainer", "initialize", "accelerator"))


def _configs(r: Recipe, entries: _Entries, found: "Found") -> str:
    """Lint the recipe's configs as its launch loads them; how it loads them."""
    how = r.flag_loaded_by or "deepspeed"
    if r.entry is not None and entries.uses(r.entry, "trainer"):
        how = "trainer"
    elif r.flag_loaded_by == "trainer" and not (r.entry is not None and (
            entries.uses(r.entry, "initialize") or entries.uses(r.entry, "accelerator"))):
        how = "trainer"  # a training YAML's `deepspeed:` (TrainingArguments') read by a framework's Trainer (axolotl)
    elif r.launcher == "accelerate":
        how = "accelerate"
    elif r.entry is not None and entries.uses(r.entry, "initialize"):
        how = "deepspeed"
    elif r.entry is not None and entries.uses(r.entry, "accelerator"):  # DeepSpeedPlugin(hf_ds_config=...)
        how = "accelerate"
    ignored = r.entry is not None and r.entry in entries.graph and entries.ignores_argv(r.entry)
    for cfg in r.configs:
        found.kinds.setdefault(cfg, "ds_config")
        if r.launcher is not None:  # the keys every launch's script sets in code; the configs it merges
            code_links(r, cfg, entries, found)
        if ignored and cfg in r.arg_configs:
            found.not_loaded.setdefault(cfg, f"{r.where} passes it to {r.entry}, which builds its training "
                                             "arguments in code and never reads its command line")
            continue
        if cfg not in found.recipe_loaded and (how == "trainer" or not _loads_nothing(r, entries)):
            found.loaded_by[cfg] = how
            found.recipe_loaded.add(cfg)
        if (r.world_size is not None or r.world_source) and cfg not in found.config_world:
            found.config_world[cfg] = (r.world_size, r.world_source)
    return how
