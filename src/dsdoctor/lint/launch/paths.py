"""A launch's variables per shell path: the values each launch command of a script sees on each path through its
``if`` / ``case`` branches (:mod:`.branches`), so that a config chosen in a branch meets only the option values
set on that branch's paths.

Only the branches that matter to a launch are followed: those that set a variable naming the launch's config,
entry script, stage or held command (``--config_file=$cfg``, ``$CMD``), that test a variable linked to one, that
set a variable a linked one is built from, or that hold a launch themselves. A condition decided by what the
script sets literally before it (``lora=false`` then ``if [ $lora = true ]``) leaves the other branch dead; one on
what the script does not set (``$1``, ``${X:-default}``, the environment) keeps every branch live, and what a path
took is kept for later tests of the same variable (:mod:`.conditions`). Other variables keep the reading of the
script in text order (the last assignment before the launch). Past :data:`CAP` paths, or where the blocks do not
pair up, the script is read in text order alone (None).
"""

from __future__ import annotations

import bisect
import re
import shlex
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

from .branches import Block, blocks
from .conditions import State, arm_matches, assume, assume_arm, evaluate
from .shell import VAR, Command, expand

CAP = 32
Assign = Tuple[int, str, str]  # (offset, name, value as written)
Env = Dict[str, str]
# the options of a launch that choose its config, stage or entry (``--config_file``, ``--deepspeed``, ``--zero_stage``)
_CHOOSES = re.compile(r"^--?[\w.-]*(?:config|deepspeed|zero|stage|ds_)[\w.-]*$", re.I)
# variables the shell sets itself: a loop's (``for x in ...``), ``read``'s, ``getopts``': never literally known
_SET_BY_SHELL = re.compile(r"\b(?:for|select)[ \t]+([A-Za-z_]\w*)[ \t]+in\b|\bread[ \t]+(?:-\w+[ \t]+)*([A-Za-z_][\w \t]*)|"
                           r"\bgetopts[ \t]+\S+[ \t]+([A-Za-z_]\w*)")
_FILE = re.compile(r"\.(?:py|json|hjson|ya?ml)[\"']?$")


class _TooMany(Exception):
    pass


def _refs(text: str) -> Set[str]:
    return {m.group(1) or m.group(3) for m in VAR.finditer(text)}


def _chosen(argv: Sequence[str], values: Dict[str, str], seen: Set[str]) -> Set[str]:
    """The variables a launch's config, stage, entry or held command is read from."""
    out: Set[str] = set()
    for i, a in enumerate(argv):
        key, eq, val = a.partition("=")
        prev = argv[i - 1] if i else ""
        held = bare_var(a)
        if eq and _CHOOSES.match(key) or _CHOOSES.match(prev) or _FILE.search(a) or prev in ("-m", "--module"):
            out |= _refs(val if eq and key.startswith("-") else a)
        elif held is not None and not prev.startswith("-"):
            out.add(held)
            if held not in seen and held in values:  # a command held in a variable: what its words choose
                seen.add(held)
                try:
                    words = shlex.split(values[held])
                except ValueError:
                    words = values[held].split()
                out |= _chosen(words, values, seen)
    return out


def bare_var(word: str) -> Optional[str]:
    m = VAR.fullmatch(word.strip("\"'"))
    return (m.group(1) or m.group(3)) if m is not None and m.group(2) is None else None


def _relevant(tops: List[Block], assigns: List[Assign], launches: List[Command]) -> Tuple[Set[str], Set[int]]:
    """The variables followed per path and the blocks (by id) that fork the paths."""
    values = {name: val for _, name, val in assigns}
    rel: Set[str] = set()
    for c in launches:
        rel |= _chosen(c.argv, values, set())
    every = [b for t in tops for b in t.walk()]
    info = []
    for b in every:
        assigned = {name for off, name, _ in assigns if b.start <= off < b.end}
        conds = _refs(" ".join([b.subject] + [br.cond or "" for br in b.branches]))
        launch = any(b.start <= c.start < b.end for c in launches)
        info.append((b, assigned, conds, launch))
    forking: Set[int] = set()
    changed = True
    while changed:
        changed = False
        for _, name, val in assigns:
            if name not in rel and _refs(val) & rel:
                rel.add(name)
                changed = True
        for b, assigned, conds, launch in info:
            if id(b) not in forking and (launch or assigned & rel or conds & rel):
                forking.add(id(b))
                rel |= assigned | conds
                changed = True
    for t in tops:  # a block holding a forking one forks
        _up(t, forking)
    return rel, forking


def _up(b: Block, forking: Set[int]) -> bool:
    inner = [_up(x, forking) for br in b.branches for x in br.blocks]
    if any(inner):
        forking.add(id(b))
    return id(b) in forking


class _Walk:
    def __init__(self, assigns: List[Assign], commands: List[Command], rel: Set[str], forking: Set[int],
                 expand: Callable[[str, Env], str]) -> None:
        self.assigns = assigns
        self.events: List[Tuple[int, int, int]] = sorted(  # (offset, 0: assignment | 1: command, index)
            [(a[0], 0, i) for i, a in enumerate(assigns)] + [(c.start, 1, i) for i, c in enumerate(commands)])
        self.offs = [e[0] for e in self.events]
        self.rel, self.forking, self.expand = rel, forking, expand
        self.env: Env = {}  # the variables read in text order
        self.known: Set[str] = set()
        self.out: List[List[Env]] = [[] for _ in commands]
        self.volatile: Set[str] = set()

    def lookup(self, s: State, name: str) -> Optional[str]:
        if name in self.volatile:
            return None
        if name in self.rel:
            return s.env.get(name) if name in s.known else None
        return self.env.get(name) if name in self.known else None

    def _known(self, raw: str, s: Optional[State]) -> bool:
        names = _refs(raw)
        rest = VAR.sub("", raw)
        return "$" not in rest and "`" not in rest and not names & self.volatile and all(
            (s is not None and n in s.known) if n in self.rel else n in self.known for n in names)

    def walk(self, lo: int, hi: int, inner: List[Block], states: List[State]) -> List[State]:
        items: List[Tuple[int, int, int]] = []
        for e in self.events[bisect.bisect_left(self.offs, lo):bisect.bisect_left(self.offs, hi)]:
            if not any(b.start <= e[0] < b.end for b in inner):
                items.append(e)
        items += [(b.start, 2, i) for i, b in enumerate(inner)]
        for _, kind, i in sorted(items):
            if kind == 0:
                self._assign(self.assigns[i][1], self.assigns[i][2], states)
            elif kind == 1:
                self.out[i] += [{**self.env, **s.env} for s in states]
            else:
                states = self._block(inner[i], states)
        return states

    def _assign(self, name: str, raw: str, states: List[State]) -> None:
        if name not in self.rel:
            self.env[name] = self.expand(raw, self.env)
            (self.known.add if self._known(raw, None) else self.known.discard)(name)
            return
        for s in states:
            s.env[name] = self.expand(raw, {**self.env, **s.env})
            (s.known.add if self._known(raw, s) else s.known.discard)(name)

    def _block(self, b: Block, states: List[State]) -> List[State]:
        if id(b) not in self.forking:
            for br in b.branches:
                self.walk(br.start, br.end, br.blocks, states)
            return states
        per: List[List[State]] = [[] for _ in b.branches]
        rest: List[State] = []
        for s in states:
            for idx, took in self._choose(b, s):
                (per[idx] if idx >= 0 else rest).append(took)
        for br, got in zip(b.branches, per):
            rest += self.walk(br.start, br.end, br.blocks, got)
        uniq: Dict[Tuple[object, ...], State] = {}
        for s in rest:
            uniq.setdefault(s.key(), s)
        if len(uniq) > CAP:
            raise _TooMany
        return list(uniq.values())

    def _choose(self, b: Block, s: State) -> List[Tuple[int, State]]:
        """The branches a path may take through a block, each with the path as it is on taking it (-1: none)."""
        out: List[Tuple[int, State]] = []
        cur = s
        for idx, br in enumerate(b.branches):
            if b.kind == "case":
                got = arm_matches(b.subject, br.patterns, cur, self.lookup)
            else:
                got = True if br.cond is None else evaluate(br.cond, cur, self.lookup)
            if got is True:
                return out + [(idx, cur)]
            if got is None:
                yes, cur = cur.copy(), cur.copy()
                for st, truth in ((yes, True), (cur, False)):
                    if b.kind == "case":
                        assume_arm(b.subject, br.patterns, truth, st)
                    else:
                        assume(br.cond or "", truth, st)
                out.append((idx, yes))
        return out + [(-1, cur)]


def path_envs(text: str, commands: List[Command], assigns: List[Assign], launches: List[Command],
              expand: Callable[[str, Env], str]) -> Optional[List[List[Env]]]:
    """Per command of ``commands`` (in order), the variables it sees on each live path through the script (none:
    no path reaches it); None where the script is read in text order (no branch matters, too many paths, or
    blocks that do not pair up). ``launches``: the commands that start training."""
    tops = blocks(text)
    if not tops:
        return None
    rel, forking = _relevant(tops, assigns, launches)
    if not forking:
        return None
    w = _Walk(assigns, commands, rel, forking, expand)
    w.volatile = {n for m in _SET_BY_SHELL.finditer(text) for g in m.groups() if g for n in g.split()}
    try:
        w.walk(0, len(text) + 1, tops, [State()])
    except _TooMany:
        return None
    return w.out


def env_at(assigns: List[Assign], at: int) -> Env:
    """The variables the assignments (:func:`.shell.assignments`, in order) up to offset ``at`` give, each value
    expanded with those before it: the reading in text order, for a script without branches that matter."""
    env: Env = {}
    for off, name, val in assigns:
        if off > at:
            break
        env[name] = expand(val, env)
    return env
