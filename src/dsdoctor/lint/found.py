"""What a scan of the paths linted finds (:func:`.discover.scan`), and what the project model adds to it
(:mod:`.launched`): one record every lint module reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Dict, FrozenSet, List, Optional, Set, Tuple

if TYPE_CHECKING:
    from .recipe import Recipe


# never_zero3's reason for a file under a test directory (lint/launched.py writes it; readers compare with it)
TEST_FILE = "a test file: no launch of the project runs it under ZeRO-3"


@dataclass
class Found:
    kinds: Dict[str, str] = field(default_factory=dict)  # path -> kind
    loaded_by: Dict[str, str] = field(default_factory=dict)  # ds_config path -> trainer|accelerate|deepspeed
    accelerate_save_16bit: Dict[str, bool] = field(default_factory=dict)  # ds_config path -> its YAML's value
    world_size: Optional[int] = None
    world_size_source: str = ""
    # file -> (passes its own optimizer, its own lr_scheduler) to the deepspeed.initialize it calls (lint/client_passed.py)
    client_passed: Dict[str, Tuple[bool, bool]] = field(default_factory=dict)
    config_client: Dict[str, Tuple[Optional[bool], Optional[bool]]] = field(default_factory=dict)  # per config: its launches'
    saves_16bit: Optional[bool] = None
    peft: Optional[bool] = None  # a Python file of the project imports peft
    # ds_config -> do its launches save (launched.py); None: unknown, every launch starts a script the project lacks
    config_saves: Dict[str, Optional[bool]] = field(default_factory=dict)
    accelerate_fills: Set[str] = field(default_factory=set)  # "auto" keys its DummyOptim / DummyScheduler fill
    multinode: Optional[bool] = None
    accelerator: Optional[str] = None
    # the project model (lint/launched.py): its recipes, each config's launch world size, the Python files'
    # ZeRO-3 context from the recipes that reach them, and files never run under ZeRO-3 (tests, FSDP / Megatron)
    recipes: List["Recipe"] = field(default_factory=list)
    config_world: Dict[str, Tuple[Optional[int], str]] = field(default_factory=dict)  # None: not known
    recipe_loaded: Set[str] = field(default_factory=set)  # configs whose loaded_by a recipe decided
    launches: Dict[str, Tuple[Optional[bool], str]] = field(default_factory=dict)
    lower_stages: Dict[str, Tuple[int, str]] = field(default_factory=dict)  # file -> ZeRO stage 0-2 of every launch, why
    never_zero3: Dict[str, str] = field(default_factory=dict)
    imported: Dict[str, Optional[Set[str]]] = field(default_factory=dict)  # modules of ZeRO-3 launches -> names used
    zero3_flags: Dict[str, Set[str]] = field(default_factory=dict)  # file -> options its ZeRO-3 launches pass
    reach_values: Dict[str, List[FrozenSet[str]]] = field(default_factory=dict)  # entry_options.reach_values
    launch_flags: Dict[str, Set[str]] = field(default_factory=dict)  # file -> options any launch reaching it passes
    zero_init_off: Set[str] = field(default_factory=set)  # files every ZeRO-3 launch runs with zero3_init_flag false
    zero3_defaults: Dict[str, Dict[str, str]] = field(default_factory=dict)  # file -> their code's option defaults
    no_deepspeed: Dict[str, str] = field(default_factory=dict)  # file -> why: its project never names DeepSpeed
    named_only: Dict[str, List[Tuple[int, int, str]]] = field(default_factory=dict)  # "named"/"unused", why
    named: Set[str] = field(default_factory=set)  # files named alone, in their project's context (lint/named.py)
    unrun: Dict[str, str] = field(default_factory=dict)  # file -> why: no recipe runs it, no project file imports it
    guarded: Optional[Callable[[str], Optional[str]]] = None  # a broken module only guarded imports reach: why
    own_setup: Dict[str, str] = field(default_factory=dict)  # file -> why no accelerate YAML sets it up (yaml_scope)
    entries: Set[str] = field(default_factory=set)  # the Python files the project's DeepSpeed recipes start
    plain_classes: Set[str] = field(default_factory=set)  # lint/plain_classes.py: never TrainingArguments
    # ds_config -> why the file that names it does not load it (a Python config with ``deepspeed = False``, a
    # recipe whose script never reads its command line); ``code_named``: configs Python code names and may load
    not_loaded: Dict[str, str] = field(default_factory=dict)
    code_named: Dict[str, Set[str]] = field(default_factory=dict)  # config -> the Python files naming it
    not_read: List[str] = field(default_factory=list)  # what a walk that stopped at MAX_FILES left out (why, where)
    yaml_trainer: Dict[str, bool] = field(default_factory=dict)  # accelerate YAML -> every launch's script uses a Trainer
    hf_unseen: Dict[str, str] = field(default_factory=dict)  # file -> why Transformers never sees ZeRO-3 in it (hf_scope)
    hf_unseen_old_accelerate: Dict[str, str] = field(default_factory=dict)  # the same on accelerate before 1.0
    trainer_launches: Dict[str, List[Tuple[str, Dict[str, float], Tuple[str, ...]]]] = field(default_factory=dict)
    no_train: Set[str] = field(default_factory=set)  # the launches (``where``) whose entry never calls a train()
    training_options: Dict[str, List[Tuple[int, str]]] = field(default_factory=dict)  # trainer_args, training_options
    unlaunched: Set[str] = field(default_factory=set)  # configs only YAMLs no launch names hand over (launched.py)
    config_peft: Dict[str, bool] = field(default_factory=dict)  # config -> do its launches' files import peft
    config_consolidates: Set[str] = field(default_factory=set)  # configs whose launches consolidate ZeRO-3 weights
    # config -> {key path: where}: keys every launch's script sets in code in the config it loads (code_filled.py)
    code_filled: Dict[str, Dict[str, str]] = field(default_factory=dict)
    # config -> "script:line" where every launch's script merges it into a config built in code: a fragment
    fragments: Dict[str, str] = field(default_factory=dict)
    templates: Dict[str, str] = field(default_factory=dict)  # config template -> the module that loads it (templates.py)
    zero_to_fp32: str = ""  # a README / shell script of the project that runs or tells to run zero_to_fp32.py
    # the directories linted: the project model (lint/launched.py) read their recipes; a config's mentions are
    # looked for in the one that holds it (lint/mentions.py)
    roots: List[str] = field(default_factory=list)
    # (root, config) -> the configs nobody launches that alone name it (lint/mentions.py), computed once
    namers_memo: Dict[Tuple[str, str], Optional[Set[str]]] = field(default_factory=dict)
