"""launch-config-missing: a launch line hands over a DeepSpeed config file that is not in the repository.

Only a path written out (no unresolved variable, not absolute: ``/path/to/ds.json`` is a placeholder of the
reader's machine) that resolves nowhere the launch could run from: the script's directory and its parents, the
repository's root, the directory a ``cd`` line moved to (a ``cd`` somewhere unknown: nothing is said). A file of
the project whose path ends with the path as written (the launch finds it run from the directory above it; a file
of that name elsewhere, ``training_scripts/z3.json`` for ``scripts/z3.json``, does not count), a name the script
mentions again (it may write the file), a name another script of the project writes at run time under a name built
from variables (``> ${config_json}``, ``config_json=ds_config_${NAME}.json``: a training run's output), a file git ignores
(generated), a path through a directory git ignores (a step of the repository clones or makes it), a git
submodule not checked out beside the script's directory or above it (the launch may run
inside it), or an entry that reads the option only on a DeepSpeed path the launch's engine option does not take
(lint/option_gate.py: ``--train_engine torch_ddp``): nothing is said either; nor, in a directory linted, for a
launch whose script is another project's: missing, and named as no file of the project or under a directory the
project does not have (``llava/`` in a project that renamed it): a copied launch, whose config is not what fails it;
nor for the default of a positional parameter (``CONFIG_FILE=${1-configs/z2.yaml}``) where another script of the
project runs this one with that argument (``srun $TRAIN_SCRIPT $CONFIG_FILE``): the default is a fallback;
nor for a launch of another program's module whose config path goes through that program's own directory
(``-m axolotl.cli.train ... --deepspeed axolotl/deepspeed_configs/zero2.json``: run beside its checkout).
A script of that name elsewhere, under a directory the project has, is its own, moved: the launch is stale, and the
config it names is still reported. A path several scripts of the project name is one problem: the first of them (by
path) reports it and names the others."""

from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Dict, FrozenSet, Iterator, List, Sequence, Set, Tuple

from ... import names as N
from ...knowledge import deepspeed as K
from ...model import Severity
from ..discover import _read
from ..launch_root import project_root, unfetched_submodules
from ..recipe import checkout_name, in_checkout
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from .paths import env_at
from .shell import assignments, expand
from .shell import parse as parse_shell

if TYPE_CHECKING:
    from ..recipe import Recipe


def missing_configs(recipes: Sequence["Recipe"], project: bool = False) -> Dict[str, List[Tuple[int, str]]]:
    """Shell script -> (line, path as written) of the configs its launches name that do not exist. In a
    ``project`` (a directory linted), a launch whose script is missing too is a copied launch: its config is not
    what fails it, and is not listed."""
    out: Dict[str, List[Tuple[int, str]]] = {}
    for r in recipes:
        if project and r.entry_missing:
            continue
        path, _, line = r.where.rpartition(":")
        for ref in r.missing:
            if r.entry is None and r.module and os.path.normpath(ref).split(os.sep)[0] == r.module.split(".")[0]:
                continue  # `-m axolotl.cli.train ... axolotl/deepspeed_configs/z2.json`: that program's checkout
            out.setdefault(path, []).append((int(line), ref))
    return out


def _own(t: Target, root: str) -> List[Tuple[int, str]]:
    """A script linted alone: its own launches, resolved from its project's root."""
    from ..recipes import shell_recipes

    return missing_configs(shell_recipes(t.path, t.text, root)).get(t.path, [])


def _known_elsewhere(ref: str, t: Target, root: str, launches: int = 1) -> bool:
    """A file of the project whose path ends with the path as written (the launch finds it when run from the
    directory above it: the README's ``cd``), the name written in the script more often than its ``launches``
    that hand it over (made by the script, or named for another directory), submodules not checked out, or a
    directory the README has the user clone: the launch may well find it."""
    name = os.path.basename(ref)
    return t.text.count(name) > launches or bool(ending_with(ref, root)) or _beside_unfetched(t.path, root) or \
        _in_ignored_dir(ref, t.path, root) or any(p.fullmatch(_tail(ref)) for p in _run_outputs(os.path.normpath(root))) \
        or _readme_clone(ref, root)


_CLONE = re.compile(r"\bgit[ \t]+clone[ \t]+(?:-\S+[ \t]+)*(\S+?)(?:\.git)?/?(?:[ \t]+([\w.-]+))?[ \t]*$", re.M)


@lru_cache(maxsize=8)
def _cloned(root: str) -> FrozenSet[str]:
    """The directories the README at the project's root has the user clone (``git clone URL [DIR]``; DIR, else
    the repository's name) that the checkout does not have, other than this project's own clone."""
    from ..reading import read_text

    out: Set[str] = set()
    own = checkout_name(root).lower()
    try:
        names = [n for n in os.listdir(root) if n.lower().startswith("readme")]
    except OSError:
        return frozenset()
    for n in names:
        for m in _CLONE.finditer(read_text(os.path.join(root, n))):
            d = m.group(2) or m.group(1).rstrip("/").rsplit("/", 1)[-1]
            if d and d.lower() != own and not os.path.exists(os.path.join(root, d)):  # not this project itself
                out.add(d)
    return frozenset(out)


def _readme_clone(ref: str, root: str) -> bool:
    """Does the path run through a directory the README has the user clone at the root (Self-Filter's
    ``./LLaVA/scripts/zero3.json`` after ``git clone https://github.com/haotian-liu/LLaVA.git``)?"""
    parts = [p for p in os.path.normpath(ref).split(os.sep) if p not in ("", ".")]
    return len(parts) > 1 and parts[0] in _cloned(os.path.normpath(root))


@lru_cache(maxsize=8)
def _run_outputs(root: str) -> "Tuple[re.Pattern[str], ...]":
    """The config names the project's shell scripts write at run time under a name built from variables
    (``sed ... > ${config_json}`` with ``config_json="ds_config_${NAME}.json"``: Megatron-DeepSpeed's run scripts):
    a launch naming one such file (an evaluation script and the training run's config) names another run's output."""
    from ..discover import _read
    from ..markdown import _index
    from ..mentions import _pattern
    from ..recipes import _WRITE
    from .shell import assignments

    out = []
    for f in _index(root):
        text = _read(f) if f.endswith(".sh") else ""
        values = {name: val for _, name, val in assignments(text)} if ">" in text else {}
        for m in _WRITE.finditer(text) if values else ():
            held = re.fullmatch(r"\$\{?(\w+)\}?", m.group(1))
            target = values.get(held.group(1), "") if held else m.group(1)
            made = _pattern(target, loose=False) if "$" in target and target.endswith(".json") else None
            if made is not None:
                out.append(made)
    return tuple(out)


def _in_ignored_dir(ref: str, script: str, root: str) -> bool:
    """Does git ignore a directory on the path, from the script's directory or the root (``Qwen/`` that a step of
    the repository clones, listed in .gitignore)? Such a directory is made before the launch runs. A pattern that
    ignores the file itself (``*.json``) does not count: a config left out of a commit is missing."""
    import subprocess

    dirs = set()
    for base in (os.path.dirname(script) or ".", root):
        d = os.path.dirname(os.path.normpath(os.path.join(base, ref)))
        top = os.path.abspath(base)
        while d and os.path.abspath(d).startswith(top + os.sep):
            dirs.add(os.path.abspath(d) + os.sep)
            d = os.path.dirname(d)
    if not dirs:
        return False
    try:
        p = subprocess.run(["git", "-C", os.path.abspath(root), "check-ignore", "--no-index", *sorted(dirs)],
                           capture_output=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        p = None
    if p is not None and p.returncode in (0, 1):  # 0: some path is ignored (it prints those); 1: none is
        return p.returncode == 0 and bool(p.stdout.strip())
    from ..gitignore import Ignored

    # not a git work tree: the .gitignore beside each directory, read as lint's walk reads one
    return any(Ignored(os.path.dirname(d.rstrip(os.sep)))(d.rstrip(os.sep), True) for d in dirs)


def _default_of(ref: str, text: str) -> int:
    """The positional parameter whose default ``ref`` is in the script (``CFG=${1-ref}``, ``${2:-ref}``), else 0."""
    m = re.search(r"\$\{([1-9])(?::?-)[\"']?" + re.escape(ref) + r"[\"']?\}", text)
    return int(m.group(1)) if m else 0


def _run_with_args(script: str, n: int, root: str) -> str:
    """Where another shell script of the project runs ``script`` with ``n`` arguments or more (``srun $TRAIN_SCRIPT
    $CONFIG_FILE ...``, the variables it assigns expanded): its positional defaults are that script's fallback."""
    from ..markdown import _index

    name = os.path.basename(script)
    for f in _index(os.path.normpath(root)):
        path = os.path.join(root, f)
        if not f.endswith((".sh", ".bash")) or os.path.normpath(path) == os.path.normpath(script):
            continue
        text = _read(path)
        if name not in text:
            continue
        sets = assignments(text)
        for cmd in parse_shell(text).commands:
            env = env_at(sets, cmd.start)
            argv = [expand(a, env) for a in cmd.argv]
            at = next((i for i, a in enumerate(argv) if os.path.basename(a) == name), None)
            if at is not None and len(argv) - at - 1 >= n:
                return f"{f}:{text.count(chr(10), 0, cmd.start) + 1}"
    return ""


def _raised(ref: str) -> str:
    """What the launch raises: accelerate's for its own config file (a YAML), DeepSpeed's for a DeepSpeed config."""
    if ref.endswith((".yaml", ".yml")):
        return f'"FileNotFoundError: {K.MSG_ACCELERATE_CONFIG_NOT_FOUND.format(path=ref)} ..."'
    return f"`ValueError: {K.MSG_CONFIG_NOT_FOUND} ...`"


def _tail(ref: str) -> str:
    """``ref`` normalised, without its leading ``../`` (a step out of a directory the launch may run from)."""
    ref = os.path.normpath(ref)
    while ref.startswith(".." + os.sep):
        ref = ref[3:]
    return ref


def ending_with(ref: str, root: str) -> List[str]:
    """The project's files whose path ends with ``ref`` (whole path parts: ``scripts/z3.json`` is not
    ``training_scripts/z3.json``)."""
    from ..markdown import _index

    tail = _tail(ref)
    return [f for f in _index(os.path.normpath(root)) if f == tail or f.endswith(os.sep + tail)]


def _beside_unfetched(script: str, root: str) -> bool:
    """A submodule not checked out whose parent directory is the script's or one above it (up to the root):
    the README may have the script copied into it and run there."""
    here = os.path.relpath(os.path.abspath(os.path.dirname(script) or "."), os.path.abspath(root))
    ups = {os.path.normpath(here)}
    while here not in ("", "."):
        here = os.path.dirname(here)
        ups.add(os.path.normpath(here or "."))
    return any(os.path.normpath(os.path.dirname(m) or ".") in ups for m in unfetched_submodules(root))


def check(t: Target) -> Iterator[Hit]:
    found = t.usage.missing_configs
    if found is not None and t.path not in found:
        return
    root = project_root(t.path)
    refs = _own(t, root) if found is None else found[t.path]
    lines = t.text.split("\n")
    # ds-config-given-twice's assertion stops those launches before the file is opened: one finding per problem
    twice = {ln for ln, _ in t.usage.twice_launches} if t.usage.ds >= K.CONFIG_TWICE_SINCE else set()
    done = set()
    for line, ref in refs:  # several launches of one script may hand over the same missing file: one finding
        same = [ln for ln, r in refs if r == ref and ln not in twice]
        others = _other_scripts(found or {}, t.path, ref)
        if line in twice or ref in done or _known_elsewhere(ref, t, root, len(same)) or \
                (others and others[0] < t.path):  # the first script naming it reports it for all: one problem
            continue
        n = _default_of(ref, t.text)
        if n and _run_with_args(t.path, n, root):  # the default of $n, which the project's own caller passes
            continue
        done.add(ref)
        pos = sum(len(x) + 1 for x in lines[:line - 1])
        at = t.text.find(os.path.basename(ref), pos)
        more = f" (so do the launches at line{'s' if len(same) > 2 else ''} {', '.join(map(str, same[1:]))})" if len(same) > 1 else ""
        from ..markdown import same_name

        like = same_name(ref, root)
        there = f"; the project has {', '.join(like[:3])}{' ...' if len(like) > 3 else ''}, which this path " \
            "does not reach from any directory" if like else ""
        mine = in_checkout(ref, root) if os.path.isabs(ref) else None
        where = (f"a path into the writer's checkout of this repository, which has no {os.path.relpath(mine, root)}"
                 if mine is not None else "which is in none of the directories it can run from (the script's, its "
                 "parents, the repository's root, a cd target)")
        many = len(others) > 1
        also = f"; {len(others)} other script{'s' if many else ''} of the project name{'' if many else 's'} it " \
            f"too: {', '.join(others[:3])}{' ...' if len(others) > 3 else ''}" if others else ""
        yield RULE.hit(t, at if at >= 0 else pos,
                       f"The launch hands over {ref}, {where}: {_raised(ref)} at startup"
                       f"{more}{there}{also}")


def _other_scripts(found: Dict[str, List[Tuple[int, str]]], path: str, ref: str) -> List[str]:
    """The other shell scripts of the project whose launches name the same missing path, sorted."""
    key = os.path.normpath(ref)
    return sorted(p for p, refs in found.items() if p != path and any(os.path.normpath(r) == key for _, r in refs))


RULE = Rule(
    spec(
        N.LAUNCH_CONFIG_MISSING,
        "shell",
        Severity.WARNING,
        summary="A launch names a DeepSpeed config file the repository does not have",
        what="`--deepspeed` / `--deepspeed_config` / `--deepspeed_config_file` / `--ds_config` given a relative path "
        "written out in the script (variables it assigns are expanded) that exists neither from the script's "
        "directory, its parents, the repository's root nor the directory a `cd` line moved to, and no file of the "
        "project has a path ending with it (a file of that name in another directory does not count). Also an "
        "`accelerate launch --config_file` YAML named for DeepSpeed (`deepspeed_zero3.yaml`, `ds_z2.yml`, "
        "`zero3.yaml`) that resolves nowhere: accelerate raises `FileNotFoundError: The passed configuration file ... "
        "does not exist` (commands/config/config_args.py, 0.21.0 and 1.10.0 read).",
        why="The HF Trainer / Accelerate (HfDeepSpeedConfig) and DeepSpeed (DeepSpeedConfig) read a string as a file "
        "only when it exists; otherwise they try it as inline JSON and base64 and raise `ValueError: Expected a "
        "string path to an existing deepspeed config, or a dictionary, or a base64 encoded string.` "
        "(deepspeed/runtime/config.py 0.9-0.19.8, accelerate/utils/deepspeed.py 0.2x-1.15): the run stops at startup.",
        fix="Point the option at a config the repository ships (a renamed or moved file), or add the file. A path "
        "in a variable, an absolute path, one after a `cd` to an unknown directory, one next to a git submodule "
        "that is not checked out, one through a directory git ignores (a step of the repository clones or makes it), "
        "one named as another script of the project writes its configs at run time (`> ds_config_${NAME}.json`), "
        "or one the entry reads only under another engine option's DeepSpeed value "
        "(`if args.train_engine == \"deepspeed\":`, or the `else:` of `== \"torch_ddp\"`) that the launch does not pass is "
        "not reported, nor the default of a "
        "positional parameter (`CFG=${1-configs/z2.yaml}`) where another script of the project runs this one with "
        "that argument; nor, in a "
        "directory linted, a config of a launch whose Python script is another project's (missing, under a "
        "directory the repository does not have or named as none of its files: a copied launch), nor one through "
        "the directory of the other program's module a launch runs (`-m axolotl.cli.train ... --deepspeed "
        "axolotl/deepspeed_configs/zero2.json`: run beside that program's checkout).",
        section="Launch"),
    check=check,
    valid=(Example("deepspeed train.py --deepspeed $CONFIG\n"),
           Example("deepspeed train.py --deepspeed /path/to/ds_config.json\n"),
           Example("cd $WORK_DIR\ndeepspeed train.py --deepspeed configs/zero3.json\n")),
    invalid=(Example("CFG=./configs/zero3_offload.json\ndeepspeed train.py \\\n    --deepspeed $CFG\n"),
             Example("deepspeed pretrain.py --deepspeed ./scripts/zero2.json\n"
                     "deepspeed finetune.py --deepspeed ./scripts/zero2.json\n")),
)
