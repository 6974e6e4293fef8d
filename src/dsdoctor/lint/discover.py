"""Find what to lint and how it is used: ds_config references in shell scripts, Python and accelerate YAML;
world size from launcher args and hostfiles."""

from __future__ import annotations

import os
import re
from typing import List, Optional, Set, Tuple

from ..knowledge import deepspeed as K
from ..launcherfiles import hostfile_problems
from ..literal_gate import gated
from .accelerate_dummy import dummy_fills
from .code_off import commented, deepspeed_off, off_note
from .found import Found as Found
from .gitignore import Ignored
from .launch.shell import DS_CONFIG_FLAGS, cli_with_config
from .launch.shell import parse as parse_shell
from .listing import listing, stopped_line, walk_order
from .reading import read_text
from .recipe import resolve

# Never walked into (as ruff's default excludes; hidden directories are skipped too, and any directory holding a
# virtualenv's pyvenv.cfg beside its bin/, Scripts/ or lib/, or conda's conda-meta); a directory named on the command
# line is still linted. A pyvenv.cfg alone is no environment: a project that ran virtualenv in its source folder and
# committed only that file (its bin/ and lib/ ignored) keeps its code there.
SKIP_DIRS = {"venv", "node_modules", "__pycache__", "site-packages", "__pypackages__", "_build", "buck-out", "build", "dist"}
_CONDA_ENV, _VENV_CFG, _VENV_DIRS = "conda-meta", "pyvenv.cfg", ("bin", "Scripts", "lib")  # a virtualenv: pyvenv.cfg + one
TEST_DIRS = {"tests", "test", "testing"}  # skipped by check's project lint (lint . still reads them)
PROJECT_MARKERS = (".git", "pyproject.toml")  # check lints the directory it starts in only when it is a project
# files of the kinds lint reads (not every file) one walk lists; past it the walk stops and says where
# (``Found.not_read``, ``facts["not_read"]``): listing is cheap (0.6 s for 3300 such files), linting them is not
MAX_FILES = 5000
# past MAX_FILES only launch files (recipes) are listed, this many more, within this many directory entries
MAX_LAUNCH_FILES, MAX_LISTED = 500, 200_000
_LAUNCH_KINDS = ("shell", "deepspeed_env", "hostfile")
_PY_TRAINER = gated(r"\b(TrainingArguments|Seq2SeqTrainingArguments|SFTConfig|Trainer)\s*\(")
_PY_INIT = gated(r"deepspeed\.initialize\s*\(((?:[^()]|\([^()]*\))*)\)", re.S)
_DS_KEYS = gated(r'"(?:zero_optimization|train_batch_size|train_micro_batch_size_per_gpu|gradient_accumulation_steps)"')
_PY_CFG = gated(r"""\b(?:deepspeed|config|config_params|deepspeed_config|hf_ds_config)\s*=\s*["']([^"']+\.h?json)["']""")
_PY_PATH = gated(r"""["']([^"'\s{}%$]+\.h?json)["']""")  # any literal path of a JSON file (read when it is a ds_config)
# a Python config (mmcv / mmengine style) that turns DeepSpeed off: the config path beside it is never loaded
_PY_PEFT = gated(r"^[ \t]*(?:from|import)[ \t]+peft\b", re.M)
# a method call (``trainer.save_model(``), not its definition nor a project's own function of that name
_PY_SAVE = re.compile(r"\.(save_16bit_model|save_model|save_pretrained)\s*\(")
# the saves that read stage3_gather_16bit_weights_on_model_save: DeepSpeed's save_16bit_model, the Trainer's and
# accelerate's save_model, accelerate's get_state_dict (a ValueError when it is off); a bare save_pretrained does
# not read it (under ZeRO-3 it writes the partitions whatever the flag says: zero3-unsafe-save)
_PY_FLAG_SAVE = gated(r"\.(save_16bit_model|save_model|get_state_dict)\s*\(")
_PY_TRAINS = gated(r"\.train\s*\(")  # with a Trainer: trainer.train() saves checkpoints (model.train() counts too)
_YAML_CFG = gated(r"^\s*deepspeed_config_file\s*:\s*['\"]?([^'\"\s#]+)", re.M)
_YAML_SAVE16 = re.compile(r"^\s*zero3_save_16bit_model\s*:\s*['\"]?(true|false)\b", re.M | re.I)


_SOURCE_EXTS = (".py", ".sh", ".bash", ".slurm", ".sbatch", ".json", ".hjson", ".yaml", ".yml", ".toml", ".md")


def kind_of(path: str) -> Optional[str]:
    base = os.path.basename(path)
    low = base.lower()
    if base == K.DEEPSPEED_ENV_FILE or base == os.environ.get(K.DEEPSPEED_ENV_FILE_VAR, K.DEEPSPEED_ENV_FILE):
        return "deepspeed_env"
    if ("hostfile" in low and not low.endswith(_SOURCE_EXTS)) or low in ("hosts", "hostlist"):
        return "hostfile"  # not hostfile_rules.py / make_hostfile.sh: those are code
    if low.endswith((".json", ".hjson")):
        return "ds_config"
    if low.endswith((".sh", ".bash", ".slurm", ".sbatch")):
        return "shell"
    if low.endswith((".yaml", ".yml")):
        return "accelerate"
    if low.endswith(".py"):
        return "python"
    return None


_read = read_text  # the name the lint modules import from here


def is_project(root: str) -> bool:
    """Is ``root`` a project's directory (a git work tree's root, or it has a pyproject.toml)?"""
    return any(os.path.exists(os.path.join(root, m)) for m in PROJECT_MARKERS)


def walk(root: str, max_depth: Optional[int] = None, max_files: int = MAX_FILES, tests: bool = True,
         stopped: Optional[List[str]] = None) -> List[str]:
    """Files lint reads under ``root`` (Python files ``max_depth`` directory levels below it, None = all; the launch
    recipes at any depth, as they decide how those scripts run), without what git ignores (.gitignore), hidden
    directories, virtualenvs, site-packages, node_modules and templates (``{{`` in the name: cookiecutter, Jinja);
    ``tests=False`` also leaves out test directories. Listed in path order. The walk goes level by level, so that at
    ``max_files`` files the deepest are left out (a vendored benchmark's thousands of task files), not a training
    folder that sorts after them; past the cap it still lists launch files (shell scripts, hostfiles, .deepspeed_env:
    the recipes), :data:`MAX_LAUNCH_FILES` more within :data:`MAX_LISTED` entries. ``stopped`` (when given) gets a
    line saying where the cap applied: what was not read is said, not silently dropped."""
    out: List[str] = []
    ignored = Ignored(root)
    level, depth, listed, extra, full = [root], 0, 0, 0, False  # full: past max_files, launch files only
    while level and not (full and (listed >= MAX_LISTED or extra >= MAX_LAUNCH_FILES)):
        deep = max_depth is not None and depth > max_depth
        below: List[str] = []
        for d in level:
            files, dirs = listing(d)
            listed += (len(files) + len(dirs)) * full
            below += [os.path.join(d, x) for x in dirs if _walk_into(os.path.join(d, x), x, tests) and
                      not ignored(os.path.join(d, x), True)]
            for f in files:
                p = os.path.join(d, f)
                kind = _listed_kind(p, f, deep)
                if kind is None or (full and kind not in _LAUNCH_KINDS) or ignored(p, False):
                    continue
                out.append(p)
                extra += full
                if not full and len(out) >= max_files:
                    full = True
                    if stopped is not None:
                        stopped.append(stopped_line(root, max_files, depth, d, p))
        level, depth = below, depth + 1
    return sorted(out, key=walk_order)


def _listed_kind(p: str, f: str, deep: bool) -> Optional[str]:
    """The kind of the file ``p`` (named ``f``) where the walk lists it (``deep``: below the Python files' depth)."""
    if "{{" in f:
        return None  # a template (cookiecutter, Jinja): not a file of the project until rendered
    kind = kind_of(p)
    if f.startswith(".") and kind != "deepspeed_env":
        return None  # .pre-commit-config.yaml & co. are not accelerate configs
    if deep and kind == "python":
        return None  # below max_depth only the recipes: they say how the scripts above run
    return kind if kind in ("shell", "python", "accelerate", "deepspeed_env", "hostfile") else None


def _walk_into(path: str, name: str, tests: bool) -> bool:
    if name.startswith(".") or name in SKIP_DIRS or (not tests and name in TEST_DIRS) or "{{" in name:
        return False
    if os.path.exists(os.path.join(path, _CONDA_ENV)):
        return False
    return not (os.path.exists(os.path.join(path, _VENV_CFG)) and
                any(os.path.isdir(os.path.join(path, d)) for d in _VENV_DIRS))


def _ref(base: str, ref: str) -> str:
    """The file ``ref`` names from ``base``: beside it, else from a directory above it (``configs/z3.json`` in
    ``train/configs/acc.yaml``, written for a launch run from ``train/``), else from the working directory
    (:func:`.recipe.resolve`); where none exists, beside ``base``."""
    if os.path.isabs(ref):
        return ref
    return resolve(ref, base, ".") or os.path.normpath(os.path.join(os.path.dirname(base), ref))


def scan(paths: List[str], max_depth: Optional[int] = None, tests: bool = True) -> Found:
    """Classify the named paths and follow references from scripts / Python / YAML to ds_configs (``tests``:
    walk into test directories)."""
    found = Found()
    queue: List[str] = []
    for p in paths:
        if os.path.isdir(p):
            queue += walk(p, max_depth, MAX_FILES, tests, found.not_read)
        else:
            queue.append(p)
    seen: Set[str] = set()
    for p in queue:
        p = os.path.normpath(p)
        if p in seen:
            continue
        seen.add(p)
        kind = kind_of(p)
        if kind is None and os.path.isfile(p) and _read(p, 64).startswith("#!"):
            kind = "shell"
        if kind is None:
            kind = "ds_config"  # a named file of unknown type: read it as a config
        found.kinds[p] = kind
        if kind == "shell":
            _shell(p, found)
        elif kind == "python":
            _python(p, found)
        elif kind == "accelerate":
            _accelerate(p, found)
    return found


def _accelerate(p: str, found: Found, launched: bool = False) -> None:
    """``launched``: a YAML an accelerate launch names, read also where .gitignore lists it (the launch loads it)."""
    if launched and (p in found.kinds or not p.endswith((".yaml", ".yml")) or not os.path.isfile(p)):
        return
    found.kinds.setdefault(p, "accelerate")
    text = _read(p)
    save16 = _YAML_SAVE16.search(text)
    for m in _YAML_CFG.finditer(text):
        cfg = _ref(p, m.group(1))
        found.kinds.setdefault(cfg, "ds_config")
        found.loaded_by.setdefault(cfg, "accelerate")
        if save16:
            found.accelerate_save_16bit[cfg] = save16.group(1).lower() == "true"


def _shell(path: str, found: Found) -> None:
    text = _read(path)
    script = parse_shell(text)
    if script.sets("DS_ACCELERATOR"):
        m = re.search(r"DS_ACCELERATOR=['\"]?(\w+)", text)
        found.accelerator = m.group(1) if m else None
    for cmd in script.commands:
        if "DS_ACCELERATOR" in cmd.env:
            found.accelerator = cmd.env["DS_ACCELERATOR"]
        if cmd.launcher is None and not (cmd.argv and cmd.argv[0].startswith("python")) and not cli_with_config(cmd.argv):
            continue
        argv = cmd.argv
        for i, a in enumerate(argv[:-1]):
            if a in DS_CONFIG_FLAGS:
                cfg = _ref(path, argv[i + 1])
                found.kinds.setdefault(cfg, "ds_config")
                found.loaded_by.setdefault(cfg, "deepspeed" if a == "--deepspeed_config" else "trainer")
            elif a in ("--config_file", "--config-file") and cmd.launcher == "accelerate":
                _accelerate(_ref(path, argv[i + 1]), found, launched=True)
        for a in argv:
            if a.endswith(".py"):
                py = _ref(path, a)
                if os.path.isfile(py) and py not in found.kinds:
                    found.kinds[py] = "python"
                    _python(py, found)
                break
        _world(path, cmd, found)


def _world(path: str, cmd: "object", found: Found) -> None:
    ws, src, multinode, hostfile = launch_world(path, cmd)
    if hostfile is not None:
        found.kinds.setdefault(hostfile, "hostfile")
    if multinode is not None:
        found.multinode = multinode
    if ws is not None and found.world_size is None:
        found.world_size, found.world_size_source = ws, f"{src} in {path}"


def launch_world(path: str, cmd: "object") -> Tuple[Optional[int], str, Optional[bool], Optional[str]]:
    """(data-parallel world size, what says it, multi-node, hostfile path) of one launch command of ``path``: deepspeed
    ``--num_gpus`` x ``--num_nodes`` or its hostfile's slots, torchrun ``--nproc_per_node`` x ``--nnodes``, accelerate
    ``--num_processes``; over Megatron's model-parallel sizes (None, with a source, where one is not a number)."""
    from .launch.shell import Command

    assert isinstance(cmd, Command)
    ws: Optional[int] = None
    src = ""
    multinode: Optional[bool] = None
    hostfile: Optional[str] = None
    if cmd.launcher == "deepspeed":
        gpus = cmd.opt("--num_gpus", "--num_accelerators")
        nodes = cmd.opt("--num_nodes")
        hf = cmd.opt("-H", "--hostfile")
        n_nodes = int(nodes[0]) if nodes and nodes[0].isdigit() else None
        if hf:
            hosts, problems = hostfile_problems(_read(_ref(path, hf[0])))
            hpath = _ref(path, hf[0])
            if os.path.isfile(hpath):
                hostfile = hpath
            if hosts and not problems:
                slots = list(hosts.values())[: n_nodes or None]
                per = int(gpus[0]) if gpus and gpus[0].isdigit() else None
                ws = sum(min(s, per) if per else s for s in slots)
                src = f"{hf[0]} ({len(slots)} hosts)"
                multinode = len(slots) > 1
        elif gpus and gpus[0].isdigit():
            ws = int(gpus[0]) * (n_nodes or 1)
            src = "deepspeed --num_gpus" + (" x --num_nodes" if n_nodes else "")
        if n_nodes and n_nodes > 1:
            multinode = True
    elif cmd.launcher == "torchrun":
        nper = cmd.opt("--nproc_per_node", "--nproc-per-node")
        nn = cmd.opt("--nnodes")
        if nper and nper[0].isdigit():
            ws = int(nper[0]) * (int(nn[0]) if nn and nn[0].isdigit() else 1)
            src = "torchrun --nproc_per_node" + (" x --nnodes" if nn else "")
    elif cmd.launcher == "accelerate":
        nproc = cmd.opt("--num_processes")
        if nproc and nproc[0].isdigit():
            ws, src = int(nproc[0]), "accelerate launch --num_processes"
    if ws is not None:
        ws, src = _data_parallel(cmd.argv, ws, src)
    return ws, src, multinode, hostfile


def _data_parallel(argv: List[str], ws: int, src: str) -> Tuple[Optional[int], str]:
    """The data-parallel size DeepSpeed's batch check divides by: the world over Megatron's model-parallel sizes
    (knowledge ``MODEL_PARALLEL_FLAGS``), None where one of them is not a number here."""
    div, named = 1, ""
    for i, a in enumerate(argv):
        flag, eq, val = a.partition("=")
        if flag not in K.MODEL_PARALLEL_FLAGS:
            continue
        val = val if eq else (argv[i + 1] if i + 1 < len(argv) else "")
        if not val.isdigit() or int(val) < 1:
            return None, f"{src} (model-parallel)"  # known to be unknown: no other launch's world size stands in
        div, named = div * int(val), f"{named} x {flag}" if named else flag
    if div == 1:
        return ws, src
    return (ws // div, f"{src} / {div} ({named})") if ws % div == 0 else (None, f"{src} (model-parallel)")


def is_ds_config(path: str) -> bool:
    """Does the JSON file at ``path`` hold a DeepSpeed config's keys? (False where it cannot be read.)"""
    return os.path.isfile(path) and bool(_DS_KEYS.search(_read(path, 2**20)))


def trainer_field(named: str, text: str) -> bool:
    """Is ``named`` (a ``_PY_CFG`` match) TrainingArguments' ``deepspeed=`` field (also in an mmengine-style
    ``training_args = dict(...)``), in a file that never calls deepspeed.initialize (config= / config_params=)?"""
    return re.match(r"deepspeed\s*=", named) is not None and _PY_INIT.search(text) is None


def _code_named(found: Found, cfg: str, how: str, path: str) -> None:
    """A ds_config the Python file ``path`` names and may load (as ``how``: trainer / deepspeed)."""
    found.kinds.setdefault(cfg, "ds_config")
    found.code_named.setdefault(cfg, set()).add(os.path.normpath(path))
    found.loaded_by.setdefault(cfg, how)


def _path_filled(found: Found, text: str, path: str, cfg: str) -> None:
    """The keys the script sets in the config it loads by its path (code_filled.path_filled): info there."""
    from .code_filled import path_filled

    keys = path_filled(text, path, cfg, _ref)
    if keys:
        found.code_filled.setdefault(cfg, {}).update((k, f"{path}:{line}") for k, line in keys if k)


def _python(path: str, found: Found) -> None:
    from .notebook_text import python_text

    text = python_text(_read(path))  # a notebook exported as .py: its shell lines are no Python
    trainer = bool(_PY_TRAINER.search(text))
    init = _PY_INIT.search(text)
    off = deepspeed_off(text)
    for m in (m for m in _PY_CFG.finditer(text) if not commented(text, m.start())):
        cfg = _ref(path, m.group(1))
        if m.group(0).startswith("config") and not m.group(0).startswith("config_params") and not is_ds_config(cfg):
            continue  # `config="configs/bert.json"`: a model's config, not DeepSpeed's
        found.kinds.setdefault(cfg, "ds_config")
        if off:
            found.not_loaded.setdefault(cfg, off_note(path, off, text))
            continue
        _code_named(found, cfg, "trainer" if trainer or trainer_field(m.group(0), text) else "deepspeed", path)
    if (trainer or init) and not off:  # a path string elsewhere (an arguments dict's value) of a DeepSpeed config file
        for cfg in (_ref(path, m.group(1)) for m in _PY_PATH.finditer(text) if not commented(text, m.start())):
            if cfg not in found.code_named and is_ds_config(cfg):
                _code_named(found, cfg, "trainer" if trainer else "deepspeed", path)
                _path_filled(found, text, path, cfg)
    if init is not None:
        found.client_passed[os.path.normpath(path)] = (
            bool(re.search(r"(?<![\w.])optimizer\s*=(?!=)(?!\s*None\b)", init.group(1))),
            bool(re.search(r"\blr_scheduler\s*=(?!=)(?!\s*None\b)", init.group(1))))
    if _PY_FLAG_SAVE.search(text) or (trainer and _PY_TRAINS.search(text)):
        found.saves_16bit = True  # a Trainer that trains saves its checkpoints with save_model
    if _PY_PEFT.search(text):
        found.peft = True
    found.accelerate_fills.update(dummy_fills(text))
    if trainer:
        for cfg, how in list(found.loaded_by.items()):
            if how == "deepspeed" and init is None:
                found.loaded_by[cfg] = "trainer"
