"""Walking a parsed traceback: the traceback an exception line belongs to, and its chain's frames and source lines
(outermost first), as diagnose and the causes' release checks read them."""

from __future__ import annotations

from typing import List, Optional, Tuple

from .match import Hit, Scanner, Traceback


def tb_for(hit: Hit, sc: Scanner) -> Optional[Traceback]:
    """The traceback whose exception line (or a chained one's) is ``hit``, or None."""
    for tb in sc.tracebacks:
        if tb.source == hit.source and tb.exc_line == hit.line:
            return tb
        cur = tb
        while cur.chained_from is not None:
            cur = cur.chained_from
            if cur.source == hit.source and cur.exc_line == hit.line:
                return tb
    return None


def frames(tb: Traceback) -> List[Tuple[str, int, str]]:
    """The frames of ``tb``'s chain, outermost first (the exception it was raised from, then its own)."""
    chain: List[Traceback] = []
    cur: Optional[Traceback] = tb
    while cur is not None:
        chain.insert(0, cur)
        cur = cur.chained_from
    return [(f.path, f.line, f.func) for t in chain for f in t.frames]


def funcs_codes(tb: Optional[Traceback]) -> Tuple[List[str], List[str]]:
    """The functions of ``tb``'s chain and the source lines of its own frames (none without a traceback)."""
    return ([fn for _, _, fn in frames(tb)], [f.code for f in tb.frames if f.code]) if tb else ([], [])
