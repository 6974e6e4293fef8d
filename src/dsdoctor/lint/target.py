"""What a rule looks at: one file (with its text and positions) and what is known about how it is used."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Set, Tuple

from packaging.version import Version

from ..hjsondoc import Document, Node
from ..knowledge.deepspeed import LATEST_KNOWN
from ..textpos import HasLines, LineIndex

# Usage.ds_source where the project lists DeepSpeed without one release (a range, conflicting pins, no version)
NO_SINGLE_DS = "no DeepSpeed release pinned exactly"  # starts as the default: rules read both as unknown

@dataclass
class Usage:
    """How the files are used, from the launch scripts, Python code and options (None = unknown)."""

    ds: Version = field(default_factory=lambda: Version(LATEST_KNOWN))
    ds_source: str = f"no DeepSpeed found: assuming {LATEST_KNOWN}"
    # ds not given (no option, no exact pin): the DeepSpeed releases the project's range allows (Pinned.allowed) and
    # the range as written; rules that read them judge every release (gradient clipping, PEFT checkpointing)
    ds_pins: Tuple[str, ...] = ()
    ds_pins_source: str = ""
    world_size: Optional[int] = None
    world_size_source: str = ""
    loaded_by: Optional[str] = None  # "trainer" | "accelerate" | "deepspeed" (raw deepspeed.initialize)
    loaded_by_source: str = ""
    loaded_by_assumed: bool = False  # loaded_by is lint's guess from "auto" values, not said by anything
    client_optimizer: Optional[bool] = None  # the script passes its own optimizer to deepspeed.initialize
    client_cpu_adam: Optional[str] = None  # "file:line" where the project's code builds a DeepSpeedCPUAdam
    client_scheduler: Optional[bool] = None  # ... and its own lr_scheduler
    saves_16bit: Optional[bool] = None  # a save that reads the 16-bit flag: save_model / save_16bit_model / get_state_dict
    unnamed: bool = False  # a ds_config of a project with launches that no launch uses (nothing names it, or only
    # accelerate YAMLs no launch names)
    consolidates: bool = False  # every launch of the config calls _zero3_consolidated_16bit_state_dict() (or
    # zero_to_fp32's convert_zero_checkpoint_to_fp32_state_dict ...) itself
    save_fallback: str = ""  # where the code beside the config chooses its save by the 16-bit flag itself and
    # writes a ZeRO checkpoint (save_checkpoint) when it is off (lint/saves.py save_fallback)
    trainer_saves: bool = False  # an accelerate YAML whose launches all save through an HF Trainer's save_model
    zero_to_fp32: str = ""  # where the project documents consolidating a ZeRO checkpoint with zero_to_fp32.py
    peft: Optional[bool] = None  # the project imports peft (a Trainer's save of an adapter without gathering: empty)
    accelerate_fills: Tuple[str, ...] = ()  # "auto" keys the project's DummyOptim / DummyScheduler fill (accelerate)
    # a ds_config's "auto" keys its launches' script sets in code before handing it over: key path -> where (code_filled.py)
    code_filled: Dict[str, str] = field(default_factory=dict)
    code_read: bool = False  # some Python file of the project was read (accelerate_fills says what its code does)
    accelerate_save_16bit: Optional[bool] = None  # an accelerate YAML that uses the config sets zero3_save_16bit_model
    accelerator: Optional[str] = None  # DS_ACCELERATOR (env / script)
    memlock: Optional[int] = None  # RLIMIT_MEMLOCK soft (bytes; None = unlimited / unknown)
    memlock_host: bool = False  # ``memlock`` is the training host's (check on the machine), not just where lint runs
    cpu_fp16: Optional[bool] = None  # the run's CPU has oneDNN fp16 (check / preflight on the machine; None = unknown)
    cpu_fp16_source: str = ""
    multinode: Optional[bool] = None
    # some launch of the project uses the deepspeed launcher (the recipes; None: not modelled): only its multi-node
    # runner reads .deepspeed_env
    ds_launcher: Optional[bool] = None
    ds_launch_files: Tuple[str, ...] = ()  # the files (absolute) holding those deepspeed-launcher launches
    ds_hostfiles: Tuple[str, ...] = ()  # their -H / --hostfile: the file where it resolves, else as written
    env_file_vars: Dict[str, str] = field(default_factory=dict)  # names set by .deepspeed_env files
    transformers: Optional[str] = None  # Transformers version Python scripts are linted for (None = unknown)
    transformers_source: str = ""
    transformers_url: str = ""  # where the project installs Transformers from a URL (a git commit)
    transformers_unknown: str = ""  # pins no release follows from (exact pins beside a URL): what they are
    transformers_pins: Tuple[str, ...] = ()  # transformers unknown: the releases the pins allow (Pinned.allowed)
    accelerate: Optional[str] = None  # accelerate version the project pins exactly (--target, the pins)
    accelerate_source: str = ""
    zero3: Optional[bool] = None  # the project runs under ZeRO-3 (None = cannot tell)
    zero3_source: str = ""
    zero3_files: List[str] = field(default_factory=list)  # the files that set stage 3 (the project-wide context)
    zero3_yamls: Set[str] = field(default_factory=set)  # those of them that are accelerate YAMLs
    lower_files: List[str] = field(default_factory=list)  # ds_configs / accelerate YAMLs of ZeRO stage 1 or 2
    own_setup: Dict[str, str] = field(default_factory=dict)  # script -> why no accelerate YAML sets it up
    # the Python files named on the command line: the user asked about them, so their ZeRO-3 findings stay warnings
    # where no ZeRO-3 launch of the project reaches them (in a directory linted, such a finding is info)
    named_files: Set[str] = field(default_factory=set)
    launches: Dict[str, Tuple[Optional[bool], str]] = field(default_factory=dict)  # script -> ZeRO-3 of its launches
    never_zero3: Dict[str, str] = field(default_factory=dict)  # script -> why it never runs under ZeRO-3
    # script -> (stage, why): every launch of the project reaching it runs ZeRO stage 0, 1 or 2 (lint/launched.py);
    # ``zero_stage``: the stage ``--zero-stage`` gives every script (zero3_source says so)
    lower_stages: Dict[str, Tuple[int, str]] = field(default_factory=dict)
    zero_stage: Optional[int] = None
    # modules a ZeRO-3 training launch imports (not its entry) -> the names it takes from them (None: any)
    imported: Dict[str, Optional[Set[str]]] = field(default_factory=dict)
    zero3_flags: Dict[str, Set[str]] = field(default_factory=dict)  # script -> options its ZeRO-3 launches pass
    # script -> options any launch of the project reaching it passes, DeepSpeed or not, whatever the stage
    launch_flags: Dict[str, Set[str]] = field(default_factory=dict)
    zero_init_off: Set[str] = field(default_factory=set)  # scripts every ZeRO-3 launch runs with zero3_init_flag false
    # script -> the option defaults the code its ZeRO-3 launches run declares (lint/defaults.py)
    zero3_defaults: Dict[str, Dict[str, str]] = field(default_factory=dict)
    # script -> the options of each launch of stage 3 or unknown that starts it (lint/entry_options.py)
    entry_launch_flags: Dict[str, List[FrozenSet[str]]] = field(default_factory=dict)
    reach_launch_flags: Dict[str, List[FrozenSet[str]]] = field(default_factory=dict)  # modules too
    no_deepspeed: Dict[str, str] = field(default_factory=dict)  # script -> why: its project never names DeepSpeed
    hf_unseen: Dict[str, str] = field(default_factory=dict)  # script -> why Transformers never sees ZeRO-3 there
    # script -> (first line, last line, why) of top-level functions a ZeRO-3 launch only names, never calls, and
    # of methods (and functions only they use) of classes it never uses: their findings are info (lint/calls.py)
    named_only: Dict[str, List[Tuple[int, int, str]]] = field(default_factory=dict)
    # scripts named alone whose ZeRO-3 context is their project's (lint/named.py): a finding behind an option no
    # ZeRO-3 launch passes stays a warning (the option is one of the file the user asked about)
    named: Set[str] = field(default_factory=set)
    unrun: Dict[str, str] = field(default_factory=dict)  # script -> why nothing in its project runs or imports it
    guarded: Optional[Callable[[str], Optional[str]]] = None  # lint/guarded_imports.py: why a broken module never runs
    # lint/guarded_imports.py Guarded.gate: where every project import of a module sits under tests of the
    # Transformers version, the releases (of those given) on which one runs
    version_gate: Optional[Callable[[str, Tuple[str, ...]], Optional[Tuple[str, FrozenSet[str]]]]] = None
    entries: Set[str] = field(default_factory=set)  # scripts the project's DeepSpeed recipes start
    # project root -> lint/import_stops.py ImportStops: where each module's import stops (read on demand, shared)
    import_stops: Dict[str, Any] = field(default_factory=dict)
    plain_classes: Set[str] = field(default_factory=set)  # the project's classes that never register (plain_classes.py)
    # the project's classes whose from_pretrained is not Transformers' (own_loaders.py); None: no project model read
    own_loaders: Optional[Set[str]] = None
    # shell script -> (line, path) of the configs its launches name that do not exist (Recipe.missing); None: no
    # project model was read (a file linted alone): launch-config-missing reads the script itself
    missing_configs: Optional[Dict[str, List[Tuple[int, str]]]] = None
    # shell script -> (line, entry script) of its launches that give --deepspeed_config to a script that also
    # passes a config to deepspeed.initialize (ds-config-given-twice); empty without a project model.
    # ``twice_launches``: the same for the one file linted (set per file from ``twice_configs``)
    twice_configs: Dict[str, List[Tuple[int, str]]] = field(default_factory=dict)
    twice_launches: List[Tuple[int, str]] = field(default_factory=list)
    # ds_config -> the --max_grad_norm values every launch of it passes (lint/grad_norms.py), read once per project;
    # ``max_grad_norms``: the same for the one config linted (empty: unknown)
    config_grad_norms: Dict[str, Tuple[float, ...]] = field(default_factory=dict)
    max_grad_norms: Tuple[float, ...] = ()
    # the values of the launches that pass one, where only some do (``some_grad_norms``: for the config linted)
    config_grad_some: Dict[str, Tuple[float, ...]] = field(default_factory=dict)
    some_grad_norms: Tuple[float, ...] = ()
    # ds_config -> the --lr_scheduler_type values its launches pass (lint/entry_options.py); ``lr_scheduler_types``:
    # the same for the one config linted (empty: none passes one, or no project model)
    config_lr_schedulers: Dict[str, Tuple[str, ...]] = field(default_factory=dict)
    lr_scheduler_types: Tuple[str, ...] = ()
    # the HF Trainer launches of the config linted: (where, the values of the arguments the Trainer checks the config
    # against, the options left at a default): lint/trainer_args.py
    trainer_launches: Tuple[Tuple[str, Dict[str, float], Tuple[str, ...]], ...] = ()
    # shell script -> (launch line, option) of the TrainingArguments options its launches pass (training_options.py);
    # empty without a project model
    training_options: Dict[str, List[Tuple[int, str]]] = field(default_factory=dict)
    training_launches: List[Tuple[int, str]] = field(default_factory=list)  # the same, for the one script linted

    def tf_releases(self) -> Tuple[Optional[str], ...]:
        """The Transformers releases judged: the one assumed, else every release the pins allow; (None,) unknown."""
        return (self.transformers,) if self.transformers else tuple(self.transformers_pins) or (None,)

    def ds_range(self, fact: Callable[[Version], Any]) -> Tuple[Any, str]:
        """(``fact`` of the DeepSpeed judged, how to name it): where the version comes from a range the project
        pins (:attr:`ds_pins`) and every release it allows gives one answer, that answer and the range; else
        ``fact(ds)`` and ``DeepSpeed {ds}`` (the version assumed, as where nothing is pinned)."""
        if self.ds_pins:
            got = {fact(Version(v)) for v in self.ds_pins}
            if len(got) == 1:
                return got.pop(), self.ds_pins_source
        return fact(self.ds), f"DeepSpeed {self.ds}"


@dataclass
class Target(HasLines):
    path: str
    kind: str
    text: str
    usage: Usage
    doc: Optional[Document] = None  # ds_config
    extra: Dict[str, Any] = field(default_factory=dict)

    @property
    def index(self) -> LineIndex:
        """The text's line index (the config document's, for a ds_config)."""
        return self.doc.index if self.doc is not None else super().index

    def node(self, *path: str) -> Optional[Node]:
        if self.doc is None or self.doc.root is None:
            return None
        return self.doc.root.get(*path)

    def key_pos(self, *path: str) -> Optional[int]:
        """Offset of the last key of ``path`` (the key a finding points at)."""
        if self.doc is None or self.doc.root is None or not path:
            return None
        parent = self.doc.root.get(*path[:-1])
        if parent is None or parent.kind != "object":
            return None
        m = parent.member(path[-1])
        return m.start if m else None


def value(node: Optional[Node]) -> Any:
    return None if node is None else node.value


def enabled(node: Optional[Node]) -> Optional[bool]:
    """``{"enabled": X}``: True/False as DeepSpeed reads it; None when absent; "auto" stays "auto"."""
    if node is None or node.kind != "object":
        return None
    en = node.get("enabled")
    if en is None:
        return False
    return en.value  # type: ignore[no-any-return]
