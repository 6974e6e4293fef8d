"""A small reader for launch commands in shell scripts: logical lines (``\\`` continuations and quotes open over
several lines joined), env
assignments (``export K=V`` / ``K=V cmd``), and the argv of deepspeed / torchrun / accelerate launch."""

from __future__ import annotations

import posixpath
import re
import shlex
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Dict, List, Optional, Tuple

from .remote import REMOTE, remote_command
from .shell_words import words

_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
LAUNCHERS = ("deepspeed", "torchrun", "accelerate")
# $X, ${X}, ${X:-default}, ${X-default}; ${1:-default} / ${1-default}: a script's argument, its default where the
# script runs without one (`BASE_PATH=${1-"."}`, `deepspeed_config=${18:-"ds.json"}`)
VAR = re.compile(r"\$\{([A-Za-z_]\w*|[1-9][0-9]?)(?::?-([^}]*))?\}|\$([A-Za-z_]\w*)")


# a value may be quoted over several lines (``OPTS=" \\`` then one option a line, ``"`` to close); a command
# substitution is one word (``DIR=$(dirname $SELF)``)
# (also after `then` / `else` / `do` / a case arm's `pat)`, or `;` / `&&` / `||` on the line)
_ASSIGN_LINE = re.compile(r"(?:^[ \t]*(?:[^\s()=$;]+\)[ \t]*)?|(?:;|&&|\|\|)[ \t]*)(?:(?:then|else|do)[ \t]+)?"
                     r"(?:export[ \t]+|local[ \t]+|declare[ \t]+)?([A-Za-z_]\w*)(\+?)="
                     r"((?:\"(?:[^\"\\]|\\[\s\S])*\"|'[^']*'|\$\((?:[^()\n]|\([^()\n]*\))*\)|[^\s\"';])*)", re.M)


def assignments(text: str) -> List[Tuple[int, str, str]]:
    """(offset of the name, name, value) of every ``NAME=value`` assignment of a script, in order. An append
    (``OPTS+=" --epochs 5"``) is the variable's value so far (empty where unset), a blank, then the words appended:
    the options a launch line later expands from it."""
    out: List[Tuple[int, str, str]] = []
    for m in _ASSIGN_LINE.finditer(text):
        if m.group(2) and m.group(3).startswith("("):
            continue  # `ARGS+=(--x 1)`: an array append, not read
        raw = re.sub(r"\\\n|\s+", " ", m.group(3))  # a multi-line value is words to the shell that expands it
        if raw.startswith("("):  # `A=("x" "y")`: an array; `$A` / `${A}` expands to its first element
            raw = raw[1:-1] if raw.endswith(")") else raw[1:]  # the value read may stop at its first element
            try:
                raw = next(iter(shlex.split(raw)), "")
            except ValueError:
                raw = ""
        try:
            val = " ".join(shlex.split(raw))
        except ValueError:
            val = raw.strip("'\"")
        val = val.strip()
        if m.group(2):
            val = "${%s:-} %s" % (m.group(1), val) if val else "${%s:-}" % m.group(1)
        if _POSITIONAL.fullmatch(val) and any(name == m.group(1) for _, name, _ in out):
            continue  # `--q_lora ) shift; Q_LORA=$1`: the caller's override of a default set before; shipped: the default
        out.append((m.start(1), m.group(1), val))
    return out


_POSITIONAL = re.compile(r"\$(?:[1-9]|\{[1-9]\})")


_DIRNAME = re.compile(r"\$\(dirname[ \t]+([\"']?)([^\s\"'$`()]+)\1[ \t]*\)")


def expand(tok: str, env: Dict[str, str]) -> str:
    """``tok`` with the variables ``env`` holds substituted (``${X:-default}``: the default when X is unset); others
    left as they are. A ``$(dirname PATH)`` whose path is then written out is evaluated (``$(dirname
    $SCRIPT_PATH)`` once ``SCRIPT_PATH`` is known)."""
    def one(m: "re.Match[str]") -> str:
        name = m.group(1) or m.group(3)
        if name in env:
            return env[name]
        return m.group(2) if m.group(2) is not None else m.group(0)

    out = VAR.sub(one, tok)
    if "$(dirname" in out:
        out = _DIRNAME.sub(lambda m: posixpath.dirname(posixpath.normpath(m.group(2))) or ".", out)
    return out


@dataclass
class Command:
    argv: List[str]
    start: int  # offset of the logical line
    env: Dict[str, str] = field(default_factory=dict)  # K=V prefixes
    token_pos: List[int] = field(default_factory=list)

    @property
    def launcher(self) -> Optional[str]:
        if not self.argv:
            return None
        prog = self.argv[0].rsplit("/", 1)[-1]
        if prog == "accelerate" and self.argv[1:2] == ["launch"]:
            return "accelerate"
        if prog in ("deepspeed", "torchrun"):
            return prog
        if prog.startswith("python") and self.argv[1:2] == ["-m"] and \
                self.argv[2:3] in (["torch.distributed.run"], ["torch.distributed.launch"]):  # launch: the older name
            return "torchrun"
        return None

    def opt(self, *names: str) -> Optional[Tuple[str, int]]:
        """The value of ``--name V`` / ``--name=V`` before the script, with the token offset."""
        for i, a in enumerate(self.argv):
            if a.endswith(".py") and i > 0:
                break
            for n in names:
                if a == n and i + 1 < len(self.argv):
                    return self.argv[i + 1], self.token_pos[i]
                if a.startswith(n + "="):
                    return a.split("=", 1)[1], self.token_pos[i]
        return None


@dataclass
class Script:
    commands: List[Command] = field(default_factory=list)
    exports: Dict[str, int] = field(default_factory=dict)  # name -> offset: exported (`export X=`, `export X`, set -a)
    values: Dict[str, str] = field(default_factory=dict)  # name -> exported value
    assigned: Dict[str, int] = field(default_factory=dict)  # name -> offset: a shell variable only (`X=1` alone)
    all_export: bool = False  # `set -a` seen: later assignments are exported

    def sets(self, name: str) -> bool:
        """The script gives ``name`` a value, exported or as a shell variable."""
        return name in self.exports or name in self.assigned


@lru_cache(maxsize=4096)  # every shell script of a repository: each pass over them reads each once
def parse(text: str) -> Script:
    """The launch commands and exports of a shell script. Read once per text (discover, the project model and
    four launch rules read the same script): the result is shared, callers do not change it."""
    out = Script()
    lines = text.split("\n")
    offsets = [0]
    for line in lines[:-1]:
        offsets.append(offsets[-1] + len(line) + 1)
    for first, last in line_groups(lines):
        i = offsets[first]
        raw = "\n".join(lines[first:last + 1])
        line = raw.replace("\\\n", "  ")
        if last == len(lines) - 1 and line.rstrip().endswith("\\"):  # a continuation at the end of the file:
            line = line.rstrip()[:-1]  # bash ignores it
        _one(line, i, out)
    return out


_HEREDOC = re.compile(r"(?<!<)<<-?[ \t]*['\"]?([A-Za-z_]\w*)['\"]?")  # not a here-string (<<<)
_MAX_QUOTED_LINES = 200  # a quote left open longer than this is taken as a stray one


def line_groups(lines: List[str]) -> List[Tuple[int, int]]:
    """The logical lines of a script as (first, last) physical line indexes: a line ending in ``\\`` continues
    (a comment line's backslash continues nothing: ``#--save_steps 5000 \\`` before a launch), and so does a line
    that leaves a quote open (``ssh host "cd dir && \\n\\n torchrun ..."``: bash reads on to the closing quote),
    unless no line of the next few hundred closes it (a stray quote); a heredoc's body is read line by line."""
    out: List[Tuple[int, int]] = []
    n = len(lines)
    i = 0
    end = ""  # the terminator of the heredoc being read
    while i < n:
        if end:
            out.append((i, i))
            end = "" if lines[i].strip() == end else end
            i += 1
            continue
        j, quote = i, ""
        while True:
            line = lines[j]
            if ("'" in line or '"' in line or quote) and not (j == i and line.lstrip().startswith("#")):
                quote = _open_quote(line, quote)
            if quote and j + 1 < n and _closes(lines, j + 1, quote):
                j += 1
                continue
            if line.rstrip().endswith("\\") and j + 1 < n and not (j == i and line.lstrip().startswith("#")):
                j += 1
                quote = ""
                continue
            break
        doc = _HEREDOC.search(" ".join(lines[i:j + 1])) if "<<" in lines[j] else None
        end = doc.group(1) if doc is not None else ""
        out.append((i, j))
        i = j + 1
    return out


def _open_quote(line: str, quote: str) -> str:
    """The quote (``'`` or ``"``) still open at the end of ``line``, read from inside ``quote`` ('' none): a `` #``
    comment outside quotes ends the line, a backslash escapes outside single quotes."""
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if quote == "'":
            quote = "" if c == "'" else quote
        elif quote == '"':
            if c == "\\":
                i += 1
            elif c == '"':
                quote = ""
        elif c == "\\":
            i += 1
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t;&|("):
            break
        i += 1
    return quote


def _closes(lines: List[str], start: int, quote: str) -> bool:
    """Does one of the next lines from ``start`` hold the closing ``quote``?"""
    return any(quote in lines[k] for k in range(start, min(len(lines), start + _MAX_QUOTED_LINES)))


_SPECIAL = re.compile(r"""['"\\#;&|]""")  # the characters _commands acts on


def _commands(line: str) -> List[str]:
    """The commands of one logical line: split at ``&&``, ``||`` and ``;`` and cut at a `` #`` comment, where
    these stand outside quotes (``--tasks "a||b"`` is one argument)."""
    if not _SPECIAL.search(line):  # nothing to split at, nothing to cut (most lines): the line itself
        return [line]
    parts: List[str] = []
    cur = 0
    quote = ""
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 1
            elif c == quote:
                quote = ""
        elif c == "\\":
            i += 1
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t"):
            break
        elif line.startswith(("&&", "||"), i) or c == ";":
            parts.append(line[cur:i])
            i += 1 if c == ";" else 2
            cur = i
            continue
        i += 1
    parts.append(line[cur:i])
    return parts


def _one(line: str, start: int, out: Script) -> None:
    if not line.strip() or line.lstrip().startswith("#"):
        return
    for part in _commands(line):
        toks = words(part)
        if toks is None:
            continue
        if not toks:
            continue
        base = start + line.find(part) if part in line else start
        positions = []
        cur = 0
        for tk in toks:
            p = part.find(tk.split("=")[0][:20], cur)
            p = cur if p < 0 else p
            positions.append(base + p)
            cur = p + 1
        if toks[0] == "export":
            for tk, p in zip(toks[1:], positions[1:]):
                if _ASSIGN.match(tk):
                    out.exports[tk.split("=", 1)[0]] = p
                    out.values[tk.split("=", 1)[0]] = tk.split("=", 1)[1]
                elif tk in out.assigned:  # `X=1` then `export X`
                    out.exports.setdefault(tk, out.assigned[tk])
            continue
        if toks[:2] == ["set", "-a"] or toks[:3] == ["set", "-o", "allexport"]:
            out.all_export = True
        env: Dict[str, str] = {}
        while toks and _ASSIGN.match(toks[0]):
            key, val = toks[0].split("=", 1)
            env[key] = val
            toks.pop(0)
            positions.pop(0)
        if not toks:  # assignments alone: shell variables, exported under `set -a`
            for key in env:
                (out.exports if out.all_export else out.assigned).setdefault(key, base)
            continue
        out.commands.append(Command(toks, base, env, positions))


# programs that run the command after their own options: ``srun -p part --gres=gpu:8 python train.py``,
# ``nohup deepspeed ...``, ``env K=V torchrun ...``, ``uv run accelerate launch ...``
WRAPPERS = ("srun", "nohup", "env", "time", "exec", "stdbuf", "uv")
# `uv run`'s options that take a value (`uv run --with deepspeed python train.py`: the package is no command)
_UV_VALUED = ("--with", "-w", "--with-requirements", "--python", "-p", "--env-file", "--project", "--directory",
              "--package", "--group", "--extra", "--index", "--index-url")
_SHELLS = ("bash", "sh", "zsh")


def _starts_launch(tok: str) -> bool:
    prog = tok.rsplit("/", 1)[-1]
    return prog in LAUNCHERS or prog.startswith("python") or prog in _SHELLS


def launches(cmd: Command) -> bool:
    """May the command start training (a launcher, python, a wrapper, a shell, a remote command, or a command held
    in a variable)?"""
    prog = cmd.argv[0].rsplit("/", 1)[-1] if cmd.argv else ""
    return prog in WRAPPERS or prog in REMOTE or prog == "eval" or prog.startswith("$") or _starts_launch(prog)


def _inner(commands: List[Command], depth: int) -> List[Command]:
    """The commands of a string a shell, ``eval`` or a remote host runs, each unwrapped in turn (``ssh host eval
    "torchrun ..."``), a few levels at most."""
    return [one for c in commands for one in (unwrap(c, depth + 1) if depth < 3 and c.argv else [c])]


def unwrap(cmd: Command, depth: int = 0) -> List[Command]:
    """The commands a wrapped launch runs: after a wrapper and its options (``srun ... python train.py`` ->
    ``python train.py``), inside ``bash -c '<command>'`` / ``eval <command>`` and in the command ``ssh HOST ...`` /
    ``pdsh -w HOSTS ...`` runs remotely (each command of the string, positioned at the string, unwrapped in turn),
    and the job ``ray job submit ... -- python3 -m pkg.train ...`` runs on the Ray cluster (OpenRLHF's launches);
    ``[cmd]`` when it is not wrapped, ``[]`` when a wrapper runs nothing that may
    launch training."""
    argv, pos, env = cmd.argv, cmd.token_pos, dict(cmd.env)
    for _ in range(4):  # srun bash -c '...': a few levels at most
        prog = argv[0].rsplit("/", 1)[-1] if argv else ""
        if prog in WRAPPERS:
            if prog == "uv" and argv[1:2] != ["run"]:  # `uv add deepspeed`, `uv pip install deepspeed`: no launch
                return []
            at = next((i for i in range(1, len(argv)) if _starts_launch(argv[i]) and not (
                prog == "uv" and argv[i - 1] in _UV_VALUED)), None)
            if at is None:
                return []
            for a in argv[1:at] if prog == "env" else ():
                if _ASSIGN.match(a):
                    env[a.split("=", 1)[0]] = a.split("=", 1)[1]
            argv, pos = argv[at:], pos[at:]
        elif prog == "ray" and argv[1:3] == ["job", "submit"]:  # `ray job submit [options] -- python3 -m x ...`
            at = argv.index("--") + 1 if "--" in argv else len(argv)
            if at >= len(argv):
                return []
            argv, pos = argv[at:], pos[at:]
        elif prog in _SHELLS and argv[1:2] == ["-c"] and len(argv) > 2 or prog == "eval" and len(argv) > 1:
            inner = parse(argv[2] if prog != "eval" else " ".join(argv[1:])).commands
            at = pos[min(2, len(pos) - 1)]
            return _inner([Command(c.argv, cmd.start, {**env, **c.env}, [at] * len(c.argv)) for c in inner], depth)
        elif prog in REMOTE:
            at = remote_command(prog, argv)
            if at is None:
                return []
            words = argv[at:-1] if argv[-1] == "&" else argv[at:]
            inner = parse(" ".join(words)).commands  # the remote shell reads the words joined, as ssh sends them
            return _inner([Command(c.argv, cmd.start, dict(c.env), [pos[at]] * len(c.argv)) for c in inner], depth)
        else:
            break
    return [cmd] if argv is cmd.argv else [Command(argv, cmd.start, env, pos)]


# the options that hand a training program its ds_config
DS_CONFIG_FLAGS = ("--deepspeed", "--deepspeed_config", "--deepspeed_config_file", "--ds_config", "--ds_config_path")
# a Hydra override of a config option (``++deepspeed_config=X``, ``+x.deepspeed_config=X``, ``deepspeed_config=X``):
# the option's last dotted part
_HYDRA = re.compile(r"^(?:\+\+|\+)?(?:[A-Za-z_]\w*\.)*([A-Za-z_]\w*)$")


def hydra_flag(key: str) -> str:
    """The config option (``--deepspeed_config``) a Hydra override's key (``++deepspeed_config``) sets; else
    ``key``."""
    m = _HYDRA.match(key)
    return "--" + m.group(1) if m is not None and "--" + m.group(1) in DS_CONFIG_FLAGS else key


# programs that only show, copy or test paths: `echo --deepspeed ds.json` launches nothing
# (wrappers and eval are read by unwrap: the command they run is the launch)
_NOT_A_CLI = frozenset({"echo", "printf", "cat", "ls", "cp", "mv", "rm", "test", "[", "sed", "grep", "export", "set",
                        "local", "declare", "readonly", "eval", "ssh", "sbatch", *WRAPPERS})


def cli_with_config(argv: List[str]) -> bool:
    """A training program of its own (a framework's CLI: ``NAME train ... --deepspeed ds.json``) handed a ds_config:
    it launches the config as the HF Trainer's ``--deepspeed`` does, with no Python entry of the project."""
    prog = argv[0].rsplit("/", 1)[-1] if argv else ""
    if not prog or prog in _NOT_A_CLI or "=" in prog or "$" in prog or prog.endswith((".sh", ".py")):
        return False
    return any(a.split("=", 1)[0] in DS_CONFIG_FLAGS for a in argv[1:])
