"""Ranks that report different numbers of batches (steps, iterations) for one loop: each rank of a data-parallel run
must run the same number of steps, because every step is a set of collectives all ranks join (DeepSpeed's gradient
reduction, ZeRO-3's parameter gathers, the optimizer step's overflow check). A rank with more batches waits alone in
its next collective once the others have finished: the run hangs (and ends in an NCCL watchdog timeout, if it has
one). DeepSpeed has no equivalent of DDP's ``Join`` for uneven inputs.

People print these counts themselves (``rank 2: number of batches = 96``, ``[rank1]: len(train_dataloader) = 312``)
when a run hangs. Only totals are read (``number of batches``, ``num_steps``, ``len(...)``): a step *counter* (``rank
0 step 120``) differs between ranks at any moment and says nothing. Read for a log that would answer ``no-failure``
(``indexed_failures.recheck``)."""

from __future__ import annotations

import re
from typing import Dict, List, Sequence, Tuple

from .. import names as N
from .match import Hit
from .reader import clean

# the rank a line names ("rank 3:", "Rank = 3,", "rank#1"), or the [rankN]: prefix the reader took off (its stream)
_RANK = re.compile(r"\brank\s{0,3}(?:[=:#]\s{0,3})?(\d{1,5})\b", re.I)
_STREAM_RANK = re.compile(r"(?:^|/)rank(\d{1,5})$")
_UNIT = r"(?P<unit>batch(?:es)?|steps?|iter(?:ation)?s?)"
# a total of one loop: "number of (train) batches 8", "num_steps: 40", "total steps = 40", "len(train_loader) = 312"
_TOTAL = re.compile(r"(?i:\b(?:number of|num(?:ber)?[ _](?:of[ _])?|n_|total(?: number of)?)\s?(?:(?P<word>[a-z]{1,12})[ _])?"
                    + _UNIT + r"\b\s{0,3}(?:[:=]|is|are)?\s{0,3}(?P<n>\d{1,9})\b|"
                    r"\blen\((?P<obj>[\w.]{1,60})\)\s{0,3}(?:[:=]|is)?\s{0,3}(?P<n2>\d{1,9})\b)")
MAX_LINES = 20000  # a count is printed at the start of a loop: read a no-failure log's first lines only


def _count(stream: str, text: str) -> Tuple[str, str, int]:
    """(rank, what is counted, the total) a line reports, or ("", "", -1)."""
    t = _TOTAL.search(text)
    if t is None:
        return "", "", -1
    r = _RANK.search(text) or _STREAM_RANK.search(stream)
    if r is None:
        return "", "", -1
    if t.group("n2"):
        return r.group(1), "len(" + t.group("obj") + ")", int(t.group("n2"))
    unit = t.group("unit").lower().rstrip("s").replace("batche", "batch")
    return r.group(1), " ".join(x for x in (t.group("word") or "", unit) if x), int(t.group("n"))


def uneven_batches(lines: Sequence[Tuple[int, bytes]], source: str, index: int = 0) -> List[Hit]:
    """Hits of ``uneven-batches-across-ranks`` (the line of a rank whose total differs from the most common one,
    then a line of a rank with that one) when two or more ranks report totals of one loop and they differ; [] else,
    also when one rank reports two totals of it (an epoch each, another loop: not comparable)."""
    seen: Dict[str, Dict[str, Tuple[int, int, str, str]]] = {}  # what -> rank -> (total, line, stream, text)
    mixed = set()
    for lineno, raw in lines[:MAX_LINES]:
        if b"ank" not in raw:
            continue
        stream, text = clean(raw)
        rank, what, n = _count(stream, text.strip())
        if n < 0:
            continue
        old = seen.setdefault(what, {}).get(rank)
        if old is not None and old[0] != n:
            mixed.add(what)
        seen[what].setdefault(rank, (n, lineno, stream, text.strip()))
    for what, ranks in seen.items():
        totals = [v[0] for v in ranks.values()]
        if what in mixed or len(ranks) < 2 or len(set(totals)) < 2:
            continue
        common = max(set(totals), key=lambda x: (totals.count(x), -x))
        odd = next(v for v in ranks.values() if v[0] != common)
        usual = next(v for v in ranks.values() if v[0] == common)
        counts = ", ".join(f"rank {r}: {v[0]}" for r, v in sorted(ranks.items(), key=lambda kv: int(kv[0])))
        g = {"what": what, "counts": counts}
        return [Hit(N.UNEVEN_BATCHES_ACROSS_RANKS, source, v[1], v[2], v[3][:1000], groups=g, order=index * (1 << 40) + v[1])
                for v in (odd, usual)]
    return []
