"""Launch recipes: how a project starts its training, read from its files.

A recipe is one launch: a ``deepspeed`` / ``torchrun`` / ``python -m torch.distributed.run`` / ``accelerate
launch`` / ``python`` line of a shell script or of a README code block (shell variables assigned before the line
are expanded, a quoted value may span lines, a word that is only a variable holding several words is split into
them, the script's own directory computed as ``$(cd "$(dirname "$0")"; pwd)`` is the script's directory; also
run through a wrapper: ``srun <options>``, ``nohup``, ``env``, ``bash -c '<command>'``, or held in a
variable: ``eval $CMD``, ``$CMD``), an accelerate YAML or a training YAML with a ``deepspeed:`` key (top level, or
indented in a section with a config file as its value), or a Python file that passes a literal config path
(``TrainingArguments(deepspeed="z3.json")``, ``deepspeed.initialize(config="z3.json")``), or gives its own usage in
a comment or docstring (``# accelerate launch --config_file zero3.yaml train.py``: :mod:`.py_usage`). Each says which
Python file it starts (its entry), the ds_configs it hands over, the ZeRO stage (from those configs, an
accelerate YAML's ``zero_stage`` or a ``--zero_stage 3`` / ``--ds.zero_stage 3`` flag) and the world size of its
launch line. Paths are resolved from the recipe's directory (or the one a ``cd`` line before the launch moved to),
its parents, then the root. A README command is written for a reader standing where the files are: a path it
names that does not resolve so is the one file of the project whose path ends with it (under the README's
directory first; a leading ``../``, the reader's step out of a subdirectory, is dropped), and a config beside the
entry script it names is looked up from that script.
A launch line is read per path through the script's ``if`` / ``case`` branches (:mod:`.launch.paths`): a config
chosen on a branch meets only the option values set on that branch's paths, and a branch that a literal assignment
before it rules out is dead.
An option given as false (``--use_lora False``) is not passed: a problem behind it stays off in that launch, and a
field defaulting to True reads False where every launch running the file gives it so. A
YAML handed to the entry script (``--config recipe.yaml``, TRL-style) sets its top-level keys as options
(``load_in_4bit: true``); the launch line's own ``--load_in_4bit=false`` overrides it. So does a Python config file
handed to it (``train.py configs/exp.py``): its literal settings, nested in ``dict(...)`` sections too, are options, and
``key value`` pairs after it on the line (``model.use_lora True``) override them. A Hydra entry script's own config
(:mod:`.recipe_hydra`) sets options too, and the line's ``key=value`` overrides change them. A launch that names no
config of a script whose own code names one runs at that config's stage (:func:`.recipe.own_stage`).
"""

from __future__ import annotations

import os
import re
import shlex
from typing import Dict, List, Optional, Sequence, Set, Tuple

from . import embedded
from .code_filled import filled_keys
from .code_off import commented, deepspeed_off, off_note
from .config_links import own_config_option
from .discover import _PY_CFG, _read, launch_world, trainer_field
from .formatted import formatted_configs
from .joined import joined_config
from .launch.paths import env_at, path_envs
from .launch.script_dir import script_dir
from .launch.shell import DS_CONFIG_FLAGS, Command, assignments, cli_with_config, hydra_flag, launches, line_groups, unwrap
from .launch.shell import VAR as _VAR
from .launch.shell import expand as _expand
from .launch.shell import parse as parse_shell
from .launch_dirs import foreign, from_parent, launch_dir, ours
from .makefile import launches as make_launches
from .makefile import makefiles, shell_text
from .markdown import LAUNCH_WORD, code_blocks, markdown_files, resolve_anywhere
from .notebook import notebook_files, py_notebook_cells, shell_cells
from .notebook_text import python_text
from .py_launches import launch_lists
from .py_usage import usage_lines
from .recipe import Recipe, in_checkout, literal_path, merged, resolve, settle_stage
from .recipe_entry import TORCH_LAUNCH as _TORCH_LAUNCH
from .recipe_entry import set_entry
from .recipe_hydra import hydra_config, hydra_overrides
from .recipe_yaml import (
    accelerate_launch,
    accelerate_yaml,
    args_json_anywhere,
    python_config,
    training_json,
    training_yaml,
    yaml_deepspeed,
)
from .script.context import config_stage
from .sourced import Invocation, invocations, sourced_assignments, sources, with_args

_CFG_FLAGS = DS_CONFIG_FLAGS
_STAGE_FLAG = re.compile(r"^--(?:[\w-]+\.)?zero[_-]?stage$")
# `cat <<EOT > $config_json`, `echo ... > ds_config.json`: a file the script writes itself (not the project's)
_WRITE = re.compile(r">{1,2}[ \t]*[\"']?([^\s\"';&|<>()]+)")
_RUNS_VAR = re.compile(r"^[ \t]*(?:eval[ \t]|\"?\$\{?[A-Za-z_])")  # `eval $CMD`, `$CMD`: a launch held in a variable
_BRANCHES = re.compile(r"(?:^|[;&|])[ \t]*(?:if|case)[ \t]", re.M)
_CD = re.compile(r"(?:^|[;&|(])[ \t]*cd[ \t]+\S")
_FALSE = ("false", "no")
_INVOKES = re.compile(r"\.(?:sh|bash)\b")  # a README block that may run a project script
_OVERRIDE = re.compile(r"^[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*$")  # a config key overridden on the line: model.lr


def _launch_lines(text: str) -> str:
    """``text`` with the physical lines that cannot belong to a launch blanked (offsets kept): the shell reader
    then skips them cheaply. A logical line (``\\`` continuations, a quote open over several lines:
    :func:`~.launch.shell.line_groups`) is kept whole where one of its lines may launch."""
    lines = text.split("\n")
    keep = [bool(LAUNCH_WORD.search(line) or _CD.search(line) or _RUNS_VAR.match(line)) for line in lines]
    if not any(keep):
        return "\n".join(" " * len(line) for line in lines)
    for first, last in line_groups(lines):
        if last > first and any(keep[first:last + 1]):
            keep[first:last + 1] = [True] * (last + 1 - first)
    return "\n".join(line if k else " " * len(line) for line, k in zip(lines, keep))


def shell_recipes(path: str, text: str, root: str, first_line: int = 1, readme: bool = False,
                  args: Sequence[str] = (), invoker: str = "", inherited: Sequence[Tuple[str, str]] = ()
                  ) -> List[Recipe]:
    """The launches of a shell script (or, ``readme``, a README code block starting at ``first_line`` of
    ``path``): one per launch line and distinct config, read per path through the script's branches
    (:mod:`.launch.paths`: a config chosen in a branch meets the option values of its own paths only). The files
    a script sources give their variables (:mod:`.sourced`; ``args``: the script's positional parameters, as the
    command at ``invoker`` runs it; ``inherited``: the variables that command's file set before it)."""
    if args:
        text = with_args(text, args)
    assigns = [(-1, name, val) for name, val in inherited]  # before the script's own: it may set them again
    assigns += [(off, name, script_dir(text, off, path) or val) for off, name, val in assignments(text)]
    if not readme and sources(text):
        assigns = sorted(assigns + sourced_assignments(path, text, root, args, invoker), key=lambda a: a[0])
    writes = [(m.start(), m.group(1)) for m in _WRITE.finditer(text)]
    docs = [(at, target, embedded.name(os.path.normpath(path), first))  # the configs it writes with a heredoc
            for first, _, target, _, at in embedded.heredocs(text)] if "<<" in text and not readme else []
    out: List[Recipe] = []
    here = path  # paths resolve from its directory: the one a `cd` line moved to
    lost = False  # a `cd` went somewhere unknown: a path that does not resolve may still exist there
    commands = parse_shell(_launch_lines(text)).commands
    per = path_envs(text, commands, assigns, [c for c in commands if launches(c)], _expand) if \
        _BRANCHES.search(text) else None
    for ci, cmd in enumerate(commands):
        envs = [env_at(assigns, cmd.start)] if per is None else per[ci]
        got: List[Recipe] = []
        for k, env in enumerate(envs):
            env = {**env, **cmd.env}
            written: Dict[str, Optional[str]] = {_expand(t, env): None for off, t in writes if off < cmd.start}
            written.update((_expand(t, env), cfg) for off, t, cfg in docs if off < cmd.start)
            line = first_line + text.count("\n", 0, cmd.start)
            for one in unwrap(_expanded(cmd, env)):  # srun / nohup / bash -c '...' run the launch inside them
                if one.argv[0] == "cd":
                    if k == 0:
                        moved = launch_dir(here, one.argv[1] if len(one.argv) > 1 else "", path, root)
                        here, lost = moved or path, lost or moved is None
                    continue
                r = _command(one, f"{path}:{line}", here, root, {**env, **one.env}, readme, written)
                if r is not None:
                    if lost or readme:
                        r.missing = []
                    got.append(r)
        out += merged(got)
    return out


def _expanded(cmd: Command, env: Dict[str, str]) -> Command:
    """``cmd`` with its variables expanded; a word that is only a variable holding several words (``$OPTS``,
    ``${CMD}``) is split into them, as the shell splits an unquoted expansion."""
    argv: List[str] = []
    pos: List[int] = []
    for a, p in zip(cmd.argv, cmd.token_pos):
        val = _expand(a, env)
        words = [val]
        if val != a and _VAR.fullmatch(a) and len(val.split()) > 1:
            try:
                words = shlex.split(val)
            except ValueError:
                words = val.split()
        argv += words
        pos += [p] * len(words)
    return Command(argv or [""], cmd.start, cmd.env, pos or [cmd.start])


def _command(cmd: Command, where: str, path: str, root: str, env: Dict[str, str], readme: bool = False,
             written: Optional[Dict[str, Optional[str]]] = None) -> Optional[Recipe]:
    argv = cmd.argv
    prog = argv[0].rsplit("/", 1)[-1] if argv else ""
    launcher = cmd.launcher
    if launcher is None and prog.startswith("python"):
        launcher = "torchrun" if argv[1:2] == ["-m"] and argv[2:3] and argv[2] in _TORCH_LAUNCH else "python"
    if launcher is None and cli_with_config(argv):
        launcher = "cli"
    if launcher is None:
        return None
    r = Recipe(where, launcher=launcher)
    at = set_entry(r, argv, path, root, readme)
    _options(r, argv[at + 1:] if at is not None else [], path, root, readme, written)
    if at is not None and from_parent(argv[at], path, root):  # the other paths resolve in a directory not ours
        r.missing = ours(r.missing, root)
    r.entry_absent = argv[at] if r.entry is None and at is not None and argv[at].endswith(".py") and literal_path(argv[at]) else ""
    r.entry_missing = bool(r.entry_absent) and foreign(r.entry_absent, path, root)
    if launcher == "accelerate":
        accelerate_launch(r, cmd, path, root)
    stage = env.get("ACCELERATE_DEEPSPEED_ZERO_STAGE")
    if r.stage is None and stage and stage.isdigit():
        r.stage, r.stage_source = int(stage), f"ACCELERATE_DEEPSPEED_ZERO_STAGE={stage} in {where}"
    ws, src, _, hostfile = launch_world(path, cmd)
    if ws is not None or src:
        r.world_size, r.world_source = ws, f"{src} in {where}"
    named = cmd.opt("-H", "--hostfile") if launcher == "deepspeed" else None
    r.hostfile = hostfile or (named[0] if named else "")
    return r


def _options(r: Recipe, args: List[str], path: str, root: str, readme: bool = False,
             written: Optional[Dict[str, Optional[str]]] = None) -> None:
    """Configs, stage flags and training YAMLs among the entry script's arguments (``written``: the files the
    script wrote before the launch: a config it generates is none of the project's files; one it writes from a
    heredoc is that heredoc's config, :mod:`.embedded`)."""
    written = written or {}
    off: Set[str] = set()
    hydra = _hydra(r, args, path, root)
    for i, a in enumerate(args):
        key, eq, val = a.partition("=")
        if not eq:
            val = args[i + 1] if i + 1 < len(args) else ""
        r.opaque = r.opaque or ("$" in a or a in ("...", "…")) and not (i and _takes(args[i - 1]))
        key = hydra_flag(key) if eq else key  # Hydra's `++deepspeed_config=ds.json`: --deepspeed_config
        if key.startswith("--") and len(key) > 2:
            _passed(r, key[2:].replace("-", "_"), val, bool(eq), off)
        own = key not in _CFG_FLAGS and own_config_option(r, key, val, path, root)
        if (key in _CFG_FLAGS or own) and val and not val.startswith("-") and val.lower() not in ("true", "false"):
            r.names_config = True
            if not own:  # an option of the project's own says nothing of how its script loads the config
                r.flag_loaded_by = r.flag_loaded_by or ("deepspeed" if key == "--deepspeed_config" else "trainer")
            if val in written:
                made = written[val]
                if made is not None and made not in r.configs:
                    r.configs.append(made)
                    r.arg_configs.add(made)
                continue
            cfg = resolve(val, path, root)
            if cfg is None and r.entry is not None:  # joined onto a directory of the entry script's own
                cfg = joined_config(r.entry, key[2:].replace("-", "_"), val, root)
            if cfg is None and (readme or os.path.isabs(val)):  # a README: beside the entry script it names, else
                # the one such file; an absolute path into the writer's own checkout (`$HOME_DIR/ds/z3.json`): its tail
                cfg = (resolve(val, r.entry, root) if r.entry and readme else None) or \
                    resolve_anywhere(val, os.path.dirname(path), root)
            if cfg is not None and cfg not in r.configs:
                r.configs.append(cfg)
                r.arg_configs.add(cfg)
                if r.entry is not None:
                    r.options[cfg] = key[2:].replace("-", "_")
                    keys = filled_keys(r.entry, r.options[cfg])
                    if keys:
                        r.filled[cfg] = {k: f"{r.entry}:{line}" for k, line in keys}
            elif cfg is None and val.endswith(".json") and not readme and (
                    literal_path(val) or os.path.isabs(val) and in_checkout(val, root) is not None):
                r.missing.append(val)
                r.missing_options[val] = key[2:].replace("-", "_")
        elif _STAGE_FLAG.match(key) and val.isdigit():
            r.stage, r.stage_source = int(val), f"{key} {val} in {r.where}"
        elif a.endswith((".yaml", ".yml")):
            y = resolve(a, path, root)
            if y is not None:
                r.handed.append(y)
                training_yaml(r, y, path, root)
        elif a.endswith(".py") and not a.startswith("-"):
            c = resolve(a, path, root)
            if c is not None:
                r.handed.append(c)
                python_config(r, c, path, root)
                _overrides(r, args[i + 1:], off)
        elif a.endswith(".json") and not a.startswith("-") and not (i and args[i - 1] in _CFG_FLAGS):
            j = resolve(a, path, root) or (args_json_anywhere(a, root) if readme else None)
            if j is not None:
                r.handed.append(j)
                training_json(r, j, path, root)
    if hydra is not None:
        hydra_overrides(r, args, off)
    r.flags -= off
    if r.entry is not None and not r.names_config:  # the entry formats the path from the options it is given
        for cfg in formatted_configs(r.entry, r.flags, root):
            r.configs.append(cfg)
            r.options.setdefault(cfg, "")
            r.names_config = True
    settle_stage(r)


def _passed(r: Recipe, name: str, val: str, eq: bool, off: Set[str]) -> None:
    """The option ``--name`` the launch passes, with its value ``val`` (``eq``: given as ``--name=val``)."""
    r.passed.add(name)
    if val.lower() in _FALSE and (eq or not val.startswith("-")):
        off.add(name)  # `--use_lora False` passes nothing, also over a YAML's key
        r.flags.add(f"{name}=False")  # (the value it gives: a field defaulting to True reads False)
    else:
        r.flags.add(name)
        if val and not val.startswith("-") and "$" not in val:  # and its value: `--bits 16` is no `bits == 4`
            r.flags.add(name + "=" + val)


def _hydra(r: Recipe, args: List[str], path: str, root: str) -> Optional[str]:
    """The entry's own Hydra config (:mod:`.recipe_hydra`), its keys read as options the line's overrides change."""
    hydra = hydra_config(r.entry, args) if r.entry is not None and r.entry.endswith(".py") else None
    if hydra is not None:
        r.handed.append(hydra)
        training_yaml(r, hydra, path, root)
    return hydra


def _takes(prev: str) -> bool:
    """Is the argument after ``prev`` its value (``--lr $LR``)?"""
    return prev.startswith("--") and "=" not in prev


def _overrides(r: Recipe, args: List[str], off: Set[str]) -> None:
    """``key value`` pairs after a Python config file (``model.load_from_origin True``): they override its
    settings, as options (the last dotted part names it)."""
    for key, val in zip(args[::2], args[1::2]):
        if not _OVERRIDE.match(key):
            return
        r.override(key.rsplit(".", 1)[-1], val, val.lower() in _FALSE, off)


def file_recipes(path: str, kind: str, root: str) -> List[Recipe]:
    """The recipes one file of the project holds (shell script, YAML, Python, Markdown)."""
    text = _read(path)
    if kind == "shell":
        return shell_recipes(path, text, root)
    if kind == "markdown":
        return [r for start, block in code_blocks(text) for r in shell_recipes(path, block, root, start, True)]
    if kind == "accelerate":
        r = Recipe(f"{path}:1")
        if yaml_deepspeed(text):
            training_yaml(r, path, path, root)
        else:
            accelerate_yaml(r, path, root, named=False)
        settle_stage(r)
        return [r] if r.deepspeed else []
    if kind == "python":
        text = python_text(text)  # a notebook exported as .py: its shell cells are read as a notebook's
        r = Recipe(f"{path}:1", entry=path, launcher="python")
        for m in (m for m in _PY_CFG.finditer(text) if not commented(text, m.start())):  # a ZeRO stage: a config
            cfg = resolve(m.group(1), path, root)
            if cfg is not None and cfg not in r.configs and config_stage(cfg) is not None:
                r.configs.append(cfg)
                if trainer_field(m.group(0), text):
                    r.flag_loaded_by = "trainer"
        off = deepspeed_off(text)
        if off and r.configs:  # a Python config turning DeepSpeed off: the config path it names is not loaded
            r.off = off_note(path, off, text)
            return [r]
        r.names_config = bool(r.configs)
        settle_stage(r)
        return [r] if r.names_config else []
    return []


def read_recipes(root: str, kinds: Dict[str, str]) -> List[Recipe]:
    """Every recipe of the project under ``root`` (``kinds``: the files lint found, path -> kind). A script that
    sources a file its command line names is read once per command of the project that runs it with one
    (:mod:`.sourced`), else as it stands."""
    out: List[Recipe] = []
    mds = markdown_files(root, (os.path.dirname(p) or "." for p in kinds))
    cells = [(nb, text, start) for nb in notebook_files(root, (os.path.dirname(p) or "." for p in kinds))
             for start, text in shell_cells(nb)]
    cells += [(p, text, start) for p, k in sorted(kinds.items()) if k == "python" and os.path.isfile(p)
              for start, text in py_notebook_cells(p)]
    calls = _calls(root, kinds, mds, cells)
    for path, kind in sorted(kinds.items()):
        if kind in ("shell", "accelerate", "python") and os.path.isfile(path):
            if path in calls:
                text = _read(path)
                out += [r for where, args, env in calls[path] for r in shell_recipes(
                    path, text, root, args=args, invoker=where.rsplit(":", 1)[0], inherited=env)]
            else:
                out += file_recipes(path, kind, root)
    for md in mds:
        out += file_recipes(md, "markdown", root)
    for mk in makefiles(root, (os.path.dirname(p) or "." for p in kinds)):  # make runs them from their directory
        text = _read(mk)
        for r in shell_recipes(mk, shell_text(text), root) if make_launches(text) else ():
            r.missing = []  # make's own functions and variables may hold what a path needs
            out.append(r)
    cells += [(p, text, start) for p, k in sorted(kinds.items()) if k == "python" and os.path.isfile(p)
              for start, text in launch_lists(p, root) + usage_lines(p, root)]  # lists it runs, its usage lines
    for nb, text, start in cells:  # a notebook's `!deepspeed ...` runs from the notebook's directory
        for r in shell_recipes(nb, text, root, start):
            r.missing = []  # its `%cd` / Python variables may hold what a path needs
            out.append(r)
    return out


def _calls(root: str, kinds: Dict[str, str], mds: List[str],
           cells: Sequence[Tuple[str, str, int]] = ()) -> Dict[str, List[Invocation]]:
    """The commands of the project's shell scripts and README code blocks that run a script sourcing a file its
    command line names (:func:`.sourced.invocations`)."""
    files = [(p, _read(p), 1) for p, k in sorted(kinds.items()) if k == "shell" and os.path.isfile(p)]
    files = [f for f in files if "." in f[1]]
    for md in mds:
        files += [(md, block, start) for start, block in code_blocks(_read(md), _INVOKES)]
    files += [c for c in cells if _INVOKES.search(c[1])]
    return invocations(files, root)
