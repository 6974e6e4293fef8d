"""Shell branch conditions read as far as they are simple: ``[ "$x" = true ]``, ``[[ $x == 1 ]]``, ``test``,
``-n`` / ``-z``, ``if $x; then``, ``!``, and chains of one kind (all ``&&`` or all ``||``). Decided (True / False)
only from values the script itself sets literally on that path; anything else is undecided (None). Taking a branch
on an undecided condition records what it implies (``x`` is ``true`` there, or is not), so that later conditions on
the same variable follow it."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Callable, Dict, List, Optional, Set, Tuple

from .shell import VAR

_OPS = ("=", "==", "!=", "-eq", "-ne", "-gt", "-lt", "-ge", "-le")
_GLOB = set("*?[")


@dataclass
class State:
    """One path through the script so far: the values of the variables that decide or follow its branches
    (``known``: those set literally), the values each is known not to have, and the conditions it took."""

    env: Dict[str, str] = field(default_factory=dict)
    known: Set[str] = field(default_factory=set)
    neq: Dict[str, Set[str]] = field(default_factory=dict)
    facts: Dict[str, bool] = field(default_factory=dict)

    def copy(self) -> "State":
        return State(dict(self.env), set(self.known), {k: set(v) for k, v in self.neq.items()}, dict(self.facts))

    def key(self) -> Tuple[object, ...]:
        return (tuple(sorted(self.env.items())), tuple(sorted(self.known)),
                tuple(sorted((k, tuple(sorted(v))) for k, v in self.neq.items())), tuple(sorted(self.facts.items())))

    def bind(self, name: str, value: str) -> None:
        self.env[name] = value
        self.known.add(name)


Lookup = Callable[[State, str], Optional[str]]  # a variable's literal value on the path (None: not known)
Atom = Tuple[bool, bool, List[str]]  # (negated, in [ ] / [[ ]] / test, words)


def bare(word: str) -> Optional[str]:
    """The variable a word is made of alone (``$x``, ``"${x}"``); None otherwise."""
    w = word[1:-1] if len(word) > 1 and word[0] == word[-1] == '"' else word
    m = VAR.fullmatch(w)
    return (m.group(1) or m.group(3)) if m is not None and m.group(2) is None else None


def value(word: str, s: State, lookup: Lookup) -> Optional[str]:
    """The literal value of a word on the path (quotes removed, variables substituted); None when unknown."""
    if len(word) > 1 and word[0] == word[-1] == "'":
        return word[1:-1]
    w = word[1:-1] if len(word) > 1 and word[0] == word[-1] == '"' else word
    missing = [False]

    def one(m: "re.Match[str]") -> str:
        got = lookup(s, m.group(1) or m.group(3))
        if got is None:
            missing[0] = True
            return ""
        return m.group(2) if m.group(2) is not None and not got else got

    out = VAR.sub(one, w)
    return None if missing[0] or "$" in out or "`" in out else out


def atoms(cond: str) -> Optional[Tuple[str, List[Atom]]]:
    """The chain of a condition: its joiner (``&&`` / ``||``) and its tests; None when not simple."""
    try:
        lex = shlex.shlex(cond, posix=False)
        lex.whitespace_split = True
        toks = list(lex)
    except ValueError:
        return None
    groups: List[List[object]] = []
    joins: Set[str] = set()
    inside = False

    def new() -> None:
        groups.append([False, inside, []])

    new()
    for t in toks:
        words = groups[-1][2]
        assert isinstance(words, list)
        if t in ("[", "[[", "test") and not words:
            inside = True
            groups[-1][1] = True
        elif t in ("]", "]]"):
            inside = False
        elif t in ("&&", "||") or inside and words and t in ("-a", "-o"):
            joins.add({"-a": "&&", "-o": "||"}.get(t, t))
            new()
        elif t == "!" and not words:
            groups[-1][0] = not groups[-1][0]
        else:
            words.append(t)
    if len(joins) > 1:
        return None
    out: List[Atom] = []
    for neg, br, words in groups:
        if not words:
            return None
        out.append((bool(neg), bool(br), list(words)))  # type: ignore[call-overload]
    return (joins.pop() if joins else "&&"), out


def _atom(a: Atom, s: State, lookup: Lookup) -> Optional[bool]:
    neg, br, w = a
    got: Optional[bool] = None
    if br and len(w) == 3 and w[1] in _OPS:
        x, y = value(w[0], s, lookup), value(w[2], s, lookup)
        if x is not None and y is not None:
            got = _compare(x, w[1], y, glob=w[2][:1] not in "'\"" and bool(_GLOB & set(y)))
        else:
            var, lit = (bare(w[0]), y) if x is None else (bare(w[2]), x)
            if var is not None and lit is not None and lit in s.neq.get(var, ()) and w[1] in ("=", "==", "!="):
                got = w[1] == "!="
    elif br and (len(w) == 2 and w[0] in ("-z", "-n") or len(w) == 1):
        x = value(w[-1], s, lookup)
        var = bare(w[-1])
        if x is not None:
            got = (x == "") == (w[0] == "-z")
        elif var is not None and "" in s.neq.get(var, ()):
            got = w[0] != "-z"
    elif not br and len(w) == 1:
        x = value(w[0], s, lookup) if w[0] not in ("true", "false", ":") else w[0]
        got = {"true": True, ":": True, "false": False}.get(x) if x is not None else None
    return None if got is None else got != neg


def _compare(x: str, op: str, y: str, glob: bool) -> Optional[bool]:
    if op in ("=", "==", "!="):
        same = fnmatchcase(x, y) if glob and op != "=" else x == y
        return same != (op == "!=")
    try:
        a, b = int(x), int(y)
    except ValueError:
        return None
    return {"-eq": a == b, "-ne": a != b, "-gt": a > b, "-lt": a < b, "-ge": a >= b, "-le": a <= b}[op]


def evaluate(cond: str, s: State, lookup: Lookup) -> Optional[bool]:
    """Is ``cond`` true on the path ``s``? None: not decided by what the script sets."""
    key = " ".join(cond.split())
    if key in s.facts:
        return s.facts[key]
    parsed = atoms(cond)
    if parsed is None:
        return None
    join, parts = parsed
    vals = [_atom(a, s, lookup) for a in parts]
    if join == "&&":
        return False if False in vals else (True if all(v is True for v in vals) else None)
    return True if True in vals else (False if all(v is False for v in vals) else None)


def assume(cond: str, truth: bool, s: State) -> None:
    """Record on the path ``s`` that ``cond`` came out ``truth``: a test of a variable against a literal binds it
    (or rules the literal out) where the chain makes each test follow."""
    s.facts[" ".join(cond.split())] = truth
    parsed = atoms(cond)
    if parsed is None:
        return
    join, parts = parsed
    if len(parts) > 1 and truth != (join == "&&"):
        return  # a false && chain (or a true || chain): which test decided is not known
    for neg, br, w in parts:
        t = truth != neg
        if br and len(w) == 3 and w[1] in ("=", "==", "!="):
            var, lit = (bare(w[0]), w[2]) if bare(w[0]) else (bare(w[2]), w[0])
            lit = lit[1:-1] if len(lit) > 1 and lit[0] == lit[-1] and lit[0] in "'\"" else lit
            if var is None or "$" in lit or "`" in lit or _GLOB & set(lit) and w[1] == "==":
                continue
            if t == (w[1] != "!="):
                s.bind(var, lit)
            else:
                s.neq.setdefault(var, set()).add(lit)
        elif br and (len(w) == 2 and w[0] in ("-z", "-n") or len(w) == 1):
            var = bare(w[-1])
            if var is None:
                continue
            if t == (w[0] == "-z"):
                s.bind(var, "")
            else:
                s.neq.setdefault(var, set()).add("")


def arm_matches(subject: str, patterns: Tuple[str, ...], s: State, lookup: Lookup) -> Optional[bool]:
    """Does a ``case`` arm's pattern match the subject on the path? None: not decided."""
    if "*" in patterns:
        return True
    x = value(subject, s, lookup)
    if x is not None:
        return any(fnmatchcase(x, p) for p in patterns)
    var = bare(subject)
    if var is not None and all(not (_GLOB & set(p)) and p in s.neq.get(var, ()) for p in patterns):
        return False
    return None


def assume_arm(subject: str, patterns: Tuple[str, ...], truth: bool, s: State) -> None:
    """Record that a ``case`` arm was taken (``truth``) or passed over on the path."""
    var = bare(subject)
    lits = [p for p in patterns if not (_GLOB & set(p))]
    if var is None or len(lits) != len(patterns):
        return
    if truth and len(lits) == 1:
        s.bind(var, lits[0])
    elif not truth:
        s.neq.setdefault(var, set()).update(lits)
