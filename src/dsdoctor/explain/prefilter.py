"""Which raw lines of a chunk the scanner reads: those holding one of a set of literals, found in one pass.

The literals are not kept here: the scanner derives them from the signatures' needles and its own structural
lines (``match.prefilter_needles``). Two kinds: *full* literals (a line holding one is read and matched) and
*soft* ones (a line holding only those is read while the scanner still wants it: the generic warnings list).

Engine: with ``ahocorasick_rs`` (the Rust ``aho-corasick`` crate, the one ripgrep uses; wheels for CPython
3.9-3.13 on Linux, macOS and Windows) the literals are searched in groups of at most ``GROUP`` with
leftmost-first semantics, which the crate runs with its SIMD "Teddy" searcher (GB/s); a larger group falls
back to its automaton, ~10x slower. Soft literals get their own group, so a soft match never hides a full one.
Without the library (no wheel for the platform), ``bytes.find`` per literal: the same lines, one C pass per
literal, so slower in proportion to their number. See docs/performance.md ("## explain").
"""

from __future__ import annotations

from typing import AbstractSet, Dict, List, Optional, Sequence, Set, Tuple

try:  # tests run both engines (Prefilter(..., engine="bytes.find"))
    import ahocorasick_rs as _ac
except ImportError:
    _ac = None  # type: ignore[assignment]

ENGINE = "aho-corasick" if _ac is not None else "bytes.find"

GROUP = 64  # literals per searcher: the crate's packed (Teddy) searcher takes at most 64
NEEDLE_MAX = 32  # a signature's needle is cut to this many characters: a line cut after them still passes
SEEN_MAX = 4096  # soft-only lines remembered (then the others are read again: slower, same result)


def _minimal(lits: AbstractSet[bytes]) -> List[bytes]:
    """The literals without those that contain another one (a line holding them holds the other)."""
    return sorted(a for a in lits if not any(b != a and b in a for b in lits))


def gate(needle: str) -> str:
    """The part of a needle the prefilter and the per-line check look for (its first ``NEEDLE_MAX`` chars)."""
    return needle[:NEEDLE_MAX]


class Prefilter:
    """Finds the lines of a chunk holding a literal: ``lines(chunk)`` -> sorted ``(line start, full)``."""

    def __init__(self, full: Sequence[bytes], soft: Sequence[bytes] = (), engine: str = ENGINE) -> None:
        if not full or not all(full) or not all(soft):
            raise ValueError("the prefilter needs non-empty literals")
        hard = _minimal(set(full))
        self.literals: Tuple[bytes, ...] = tuple(hard + [s for s in _minimal(set(soft)) if not any(h in s for h in hard)])
        self.nfull = len(hard)
        self.engine = engine
        self._groups: List[Tuple[bool, "_ac.BytesAhoCorasick"]] = []
        if engine == "aho-corasick" and _ac is not None:
            for is_full, group in ((True, self.literals[:self.nfull]), (False, self.literals[self.nfull:])):
                for i in range(0, len(group), GROUP):
                    ac = _ac.BytesAhoCorasick(group[i:i + GROUP], matchkind=_ac.MatchKind.LeftmostFirst)
                    self._groups.append((is_full, ac))
        else:
            self.engine = "bytes.find"

    def passes(self, line: bytes) -> bool:
        """True when the scanner reads and matches ``line`` (it holds a full literal)."""
        return any(lit in line for lit in self.literals[:self.nfull])

    def lines(self, chunk: bytes, soft: bool = True, seen: Optional[Set[bytes]] = None) -> List[Tuple[int, bool]]:
        """Start offsets of the lines of ``chunk`` holding a literal, sorted, each with whether it holds a full
        literal. Lines holding only soft ones come when ``soft``, and not those whose bytes are in ``seen``
        (each one returned is added to it, up to ``SEEN_MAX``)."""
        full = self._spans(chunk, True)
        out = [(start, True) for start in full]
        if soft and self.nfull < len(self.literals):
            for start, end in self._spans(chunk, False).items():
                if start in full:
                    continue
                if seen is not None:
                    raw = chunk[start:end]
                    if raw in seen:
                        continue
                    if len(seen) < SEEN_MAX:
                        seen.add(raw)
                out.append((start, False))
            out.sort()
        return out

    def _spans(self, chunk: bytes, full: bool) -> Dict[int, int]:
        """{line start: line end} of the lines holding a full (or a soft) literal, in order."""
        found: Dict[int, int] = {}
        rfind, find, n = chunk.rfind, chunk.find, len(chunk)
        if self._groups:
            for is_full, ac in self._groups:
                if is_full != full:
                    continue
                end = -1  # end of the line of the previous match
                for _, pos, _ in ac.find_matches_as_indexes(chunk):
                    if pos > end:
                        end = find(b"\n", pos)
                        if end < 0:
                            end = n
                        found[rfind(b"\n", 0, pos) + 1] = end
            return found if len(self._groups) == 1 else dict(sorted(found.items()))
        for lit in (self.literals[:self.nfull] if full else self.literals[self.nfull:]):
            i = find(lit)
            while i >= 0:
                end = find(b"\n", i)
                found[rfind(b"\n", 0, i) + 1] = n if end < 0 else end
                if end < 0:
                    break
                i = find(lit, end)
        return dict(sorted(found.items()))
