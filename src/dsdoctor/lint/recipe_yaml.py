"""The config files of a project's launches: a training YAML handed to the entry script (its options and the config its
``deepspeed:`` key names), a Python config file handed to it (its settings) and an accelerate config YAML (its
``deepspeed_config_file`` and ``zero_stage``)."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, List, Optional

from ..knowledge.accelerate import ACCELERATE_DEFAULT_ZERO_STAGE
from .discover import _read
from .recipe import Recipe, literal_path, resolve, settle_stage
from .script.context import accelerate_stage

if TYPE_CHECKING:
    from .launch.shell import Command

_YAML_DS = re.compile(r"^deepspeed[ \t]*:[ \t]*['\"]?([^'\"\s#]+)", re.M)
# a training YAML whose arguments sit in a section (``training_args:`` then an indented ``deepspeed: z3.json``):
# indented, the key (``deepspeed`` or ``deepspeed_config``, never accelerate's ``deepspeed_config_file``) counts only
# with a config file's name as its value
_YAML_DS_NESTED = re.compile(r"^[ \t]+deepspeed(?:_config)?[ \t]*:[ \t]*['\"]?([^'\"\s#]+\.h?json)['\"]?[ \t]*(?:#.*)?$", re.M)
_YAML_DS_BLOCK = re.compile(r"^[ \t]*deepspeed[ \t]*:[ \t]*(?:#.*)?$", re.M)  # a mapping follows: the config inline
# a Hydra / OmegaConf YAML the script instantiates as accelerate's plugin (``_target_: accelerate.DeepSpeedPlugin``):
# its ``hf_ds_config`` is the config file accelerate loads
_YAML_PLUGIN = re.compile(r"^[ \t]*hf_ds_config[ \t]*:[ \t]*['\"]?([^'\"\s#]+\.h?json)['\"]?[ \t]*(?:#.*)?$", re.M)
# (also the JSON form accelerate reads: ``"zero_stage": 3``)
_YAML_ACC_CFG = re.compile(r"^\s*\"?deepspeed_config_file\"?\s*:\s*['\"]?([^'\"\s#,]+)", re.M)
_YAML_STAGE = re.compile(r"^\s*\"?zero_stage\"?\s*:\s*['\"]?(\d)", re.M)
_YAML_DS_TYPE = re.compile(r"^distributed_type[ \t]*:[ \t]*['\"]?DEEPSPEED\b", re.M)
_YAML_ZERO_INIT = re.compile(r"^\s*\"?zero3_init_flag\"?\s*:\s*['\"]?(true|false)\b", re.M | re.I)
_YAML_KEY = re.compile(r"^([A-Za-z_]\w*)[ \t]*:[ \t]*([^#\n]*)", re.M)  # a top-level key and its inline value
_YAML_OFF = ("", "false", "no", "off", "null", "none", "~")  # "": a mapping or list follows: not a flag's value


def yaml_deepspeed(text: str) -> "Optional[re.Match[str]]":
    """The ``deepspeed:`` key of a training YAML (top level, or in a section with a config file as its value, or
    holding the config itself as a mapping: :mod:`.embedded`)."""
    return _YAML_DS.search(text) or _YAML_DS_NESTED.search(text) or _YAML_DS_BLOCK.search(text)


def training_yaml(r: Recipe, yaml: str, path: str, root: str) -> None:
    """A YAML handed to the entry script: its top-level keys are options it sets (``load_in_4bit: true`` as
    ``--load_in_4bit``, as TRL's and similar parsers read ``--config``), and a ``deepspeed:`` key names a config (each
    section's, in a YAML of named sections), or holds it inline (:mod:`.embedded`); so does the ``hf_ds_config`` of a
    YAML instantiated as accelerate's ``DeepSpeedPlugin`` (Hydra's ``_target_``)."""
    text = _read(yaml)
    for k, v in _YAML_KEY.findall(text):
        v = v.strip().strip("'\"")
        if v.lower() not in _YAML_OFF:
            r.flags.update((k, f"{k}={v}"))
    top = _YAML_DS.search(text)
    named = [top] if top is not None else list(_YAML_DS_NESTED.finditer(text))  # one per section of the YAML
    plugin = _YAML_PLUGIN.search(text) if "DeepSpeedPlugin" in text else None
    if plugin is not None:
        named, r.flag_loaded_by = [plugin], r.flag_loaded_by or "accelerate"
    if not named:
        _inline(r, yaml, text)
        return
    r.names_config = True
    if plugin is None and r.flag_loaded_by in (None, "accelerate"):  # TrainingArguments' `deepspeed`: the
        r.flag_loaded_by = "trainer"  # Trainer loads it, also where an accelerate YAML names the config too
    for m in named:
        cfg = resolve(m.group(1), yaml, root) or resolve(m.group(1), path, root)
        if cfg is not None and cfg not in r.configs:
            r.configs.append(cfg)
            if plugin is None:  # the script's option of that name holds it (the code may fill keys in it)
                r.options.setdefault(cfg, m.group(0).split(":", 1)[0].strip())


def _inline(r: Recipe, yaml: str, text: str) -> None:
    """The configs written inline under the YAML's ``deepspeed:`` keys (:mod:`.embedded`), handed over as the
    script loads the YAML."""
    from . import embedded

    for line in embedded.yaml_blocks(text):
        cfg = embedded.name(os.path.normpath(yaml), line)
        if embedded.load(cfg) is not None and cfg not in r.configs:
            r.names_config = True  # how it is loaded: the code's (a dict to deepspeed.initialize or the Trainer)
            r.configs.append(cfg)
            r.options.setdefault(cfg, "deepspeed")  # the option holding the dict (the code may fill keys in it)


_ARGS_JSON_BYTES = 256 * 1024  # an arguments file is small; a data JSON handed to the script is not read


def _args_json(path: str) -> "Optional[dict[str, object]]":
    """The JSON object of an HF-arguments file (``HfArgumentParser.parse_json_file``) that names a ``deepspeed``
    config; None for any other JSON (data, a model config) or one too large to be arguments."""
    import json

    try:
        if os.path.getsize(path) > _ARGS_JSON_BYTES:
            return None
        text = _read(path)
        if '"deepspeed"' not in text:
            return None
        data = json.loads(text)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("deepspeed"), str) else None


def training_json(r: Recipe, path: str, launch: str, root: str) -> None:
    """An HF-arguments JSON handed to the entry script (``train.py --train_args_file args.json``): its settings are
    options the run sets, and its ``deepspeed`` names the config the Trainer loads."""
    data = _args_json(path)
    if data is None:
        return
    for k, v in data.items():
        if v not in (None, False, 0, "") and not isinstance(v, (dict, list)):
            r.flags.update((k, f"{k}={v}"))
    r.names_config = True
    r.flag_loaded_by = r.flag_loaded_by or "trainer"
    ref = str(data["deepspeed"])
    cfg = resolve(ref, path, root) or resolve(ref, launch, root)
    if cfg is not None and cfg not in r.configs:
        r.configs.append(cfg)


def args_json_anywhere(ref: str, root: str) -> Optional[str]:
    """The arguments JSON a README command names by a path that does not exist (``train/args/sft.json`` for
    ``train/sft.json``): the one HF-arguments file of the project (:func:`_args_json`) with that file name."""
    from .markdown import _index

    name = os.path.basename(ref)
    hits = [f for f in _index(os.path.normpath(root)) if os.path.basename(f) == name and _args_json(f) is not None]
    return hits[0] if len(hits) == 1 else None


def accelerate_yaml(r: Recipe, yaml: str, root: str, named: bool = True) -> None:
    """``named``: an ``accelerate launch --config_file`` names the YAML; else its ``zero_stage`` counts only when it
    reads as an accelerate config (a memory calculator's YAML with a zero_stage key is none)."""
    text = _read(yaml)
    if named:
        r.yaml = os.path.normpath(yaml)
    m = _YAML_ACC_CFG.search(text)
    if m is not None and m.group(1).lower() != "none":
        r.names_config = True
        if r.flag_loaded_by != "trainer":  # a training YAML's / --deepspeed option's config: the Trainer's
            r.flag_loaded_by = "accelerate"
        cfg = resolve(m.group(1), yaml, root)
        if cfg is not None and cfg not in r.configs:
            r.configs.append(cfg)
    init = _YAML_ZERO_INIT.search(text)
    if named and init is not None:
        r.zero_init = init.group(1).lower() == "true"
    st = _YAML_STAGE.search(text)
    stage = (int(st.group(1)) if st is not None else None) if named else accelerate_stage(text)
    if stage is not None and r.stage is None:
        r.names_config = True
        r.stage, r.stage_source = stage, f"zero_stage {stage} in {yaml}"
    settle_stage(r)


def python_config(r: Recipe, path: str, here: str = "", root: str = ".") -> None:
    """A Python config file handed to the entry script (``train.py configs/exp.py``, mmengine / VideoChat style):
    its literal settings, also nested in ``dict(...)`` / ``{...}`` sections, are options the run sets (``model =
    dict(load_from_origin=False)`` sets nothing; ``use_lora=True`` sets ``use_lora``); a ``deepspeed="ds.json"``
    among them names the run's config (``training_args = dict(deepspeed="./scripts/zero3.json")``: the Trainer's),
    resolved from the launch's directory ``here``, else the config file's. Read with ``ast``, never run."""
    import ast

    try:
        tree = ast.parse(_read(path))
    except (SyntaxError, ValueError):
        return

    def settings(node: ast.AST) -> None:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
            for kw in node.keywords:
                if kw.arg is not None:
                    one(kw.arg, kw.value)
        elif isinstance(node, ast.Dict):
            for k, v in zip(node.keys, node.values):
                if isinstance(k, ast.Constant) and isinstance(k.value, str):
                    one(k.value, v)

    def one(name: str, value: ast.AST) -> None:
        if isinstance(value, ast.Constant):
            if value.value not in (None, False, 0, "") and not isinstance(value.value, bytes):
                r.flags.update((name, f"{name}={value.value}"))
            if name == "deepspeed" and isinstance(value.value, str) and value.value.endswith(".json"):
                _named_config(r, value.value, here or path, path, root)
        else:
            settings(value)

    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            one(stmt.targets[0].id, stmt.value)


def _named_config(r: Recipe, ref: str, here: str, config: str, root: str) -> None:
    """A Python config's ``deepspeed=`` path: the config the entry loads (TrainingArguments' option, where the entry
    builds a Trainer)."""
    cfg = resolve(ref, here, root) or resolve(ref, config, root)
    r.names_config = True  # how it is loaded is the entry's (an inference entry handed the same config loads nothing)
    if cfg is not None and cfg not in r.configs:
        r.configs.append(cfg)
        r.options.setdefault(cfg, "deepspeed")


# an accelerate config named for DeepSpeed (``deepspeed_zero3.yaml``, ``ds_z2.yml``, ``zero3.yaml``)
_DS_NAMED = re.compile(r"(?:deepspeed|zero|(?<![a-z])ds(?![a-z])).*\.ya?ml$", re.I)


def accelerate_launch(r: Recipe, cmd: "Command", path: str, root: str) -> None:
    """An ``accelerate launch`` line: its --config_file YAML, --use_deepspeed, --deepspeed_config_file,
    --zero3_save_16bit_model and --zero_stage."""
    yaml = cmd.opt("--config_file", "--config-file")
    y = resolve(yaml[0], path, root) if yaml else None
    r.yaml_named = yaml[0] if yaml else ""
    if y is not None:
        accelerate_yaml(r, y, root)
    elif yaml and _DS_NAMED.search(os.path.basename(yaml[0])) and literal_path(yaml[0]):
        r.missing.append(yaml[0])  # accelerate stops: "The passed configuration file ... does not exist"
        r.names_config = True
    if "--use_deepspeed" in cmd.argv:
        r.names_config = True
    _launch_config_file(r, cmd, path, root)
    settle_stage(r)  # the stage of the config --deepspeed_config_file hands over (it wins over the YAML's)
    save = cmd.opt("--zero3_save_16bit_model", "--zero3-save-16bit-model")
    if save and save[0].lower() in ("true", "false"):  # accelerate's plugin writes it into an "auto" gather flag
        r.save16 = save[0].lower() == "true"
    init = cmd.opt("--zero3_init_flag", "--zero3-init-flag")
    if init and init[0].lower() in ("true", "false"):
        r.zero_init = init[0].lower() == "true"
    stage = cmd.opt("--zero_stage", "--zero-stage")
    if stage and stage[0].isdigit():
        r.stage, r.stage_source = int(stage[0]), f"--zero_stage {stage[0]} in {r.where}"
    from .multi_gpu import skipped

    why = skipped(cmd, path)
    if why is not None:  # accelerate-multi-gpu-skips-deepspeed: a DDP launch, whatever it names
        r.off = f"{r.where} launches with --multi_gpu, so accelerate never uses DeepSpeed ({why})"
        r.stage, r.names_config = None, False


def _launch_config_file(r: Recipe, cmd: "Command", path: str, root: str) -> None:
    """``accelerate launch --deepspeed_config_file X``: the DeepSpeed config the launch hands over (it wins over the
    YAML's), whatever X's extension (``ds_configs/z3.conf``: accelerate's HfDeepSpeedConfig reads the file as JSON);
    a literal ``.json`` path that resolves nowhere is missing, as the entry script's options are."""
    opt = cmd.opt("--deepspeed_config_file", "--deepspeed-config-file")
    if opt is None or not opt[0] or opt[0].startswith("-"):
        return
    r.names_config = True
    cfg = resolve(opt[0], path, root)
    if cfg is None:
        if opt[0].endswith(".json") and literal_path(opt[0]):
            r.missing.append(opt[0])
        return
    if cfg not in r.configs:
        r.configs.insert(0, cfg)


def default_stage(recipes: "List[Recipe]") -> None:
    """An ``accelerate launch`` whose YAML says DEEPSPEED and names no stage (no ``zero_stage``, no
    ``deepspeed_config_file``, no ``--zero_stage``, no config of the script's own: :func:`.recipe.own_stage` first)
    runs at accelerate's default stage, 2 (knowledge/accelerate.py): a nested ``zero_optimization: {stage: 3}`` is
    not read."""
    for r in recipes:
        if r.launcher == "accelerate" and r.yaml and r.stage is None and not r.configs and not r.off:
            text = _read(r.yaml)
            if _YAML_DS_TYPE.search(text) and not _YAML_ACC_CFG.search(text):
                st = ACCELERATE_DEFAULT_ZERO_STAGE
                r.names_config = True
                r.stage, r.stage_source = st, f"ZeRO stage {st} in {r.yaml}: accelerate's default, the YAML gives no zero_stage"
