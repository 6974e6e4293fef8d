"""CUDA's p2pBandwidthLatencyTest in a log (what NCCL's troubleshooting guide has people run when multi-GPU training
hangs): its ``P2P=Enabled Latency (P2P Writes) Matrix (us)`` shows GPU peer-to-peer that is advertised but broken when
a pair's write takes milliseconds (:data:`BROKEN_US`, and :data:`RATIO` times the slowest local write on the diagonal),
as when PCIe ACS or an IOMMU routes peer traffic through the CPU: NCCL's P2P transport then stalls the first collective.

The matrix rows are numbers only (the scanner's prefilter never reads them): read for a log that would answer
``no-failure`` (``indexed_failures.recheck``)."""

from __future__ import annotations

import re
from typing import List, Sequence, Tuple

from .. import names as N
from .match import Hit
from .reader import clean

HEADER = "P2P=Enabled Latency"
BROKEN_US = 1000.0
RATIO = 100.0
MAX_GPUS = 64
FOREIGN = 2  # other lines (another writer's) between two rows
_ROW = re.compile(r"^\s{0,12}(\d{1,3})((?:\s{1,12}\d{1,9}(?:\.\d{1,6})?){2,%d})\s*$" % MAX_GPUS)


def _rows(lines: Sequence[Tuple[int, bytes]]) -> List[Tuple[int, str, List[float]]]:
    """The matrix rows after the header: (line number, text, latencies), in order; another writer's line between them
    is skipped (at most :data:`FOREIGN` in a row), as is the column header ``GPU 0 1 ...``."""
    out: List[Tuple[int, str, List[float]]] = []
    other = 0
    for lineno, raw in lines[:(MAX_GPUS + 2) * (FOREIGN + 1)]:
        text = clean(raw)[1].strip()
        m = _ROW.match(text)
        if m and int(m.group(1)) == len(out):
            out.append((lineno, text, [float(v) for v in m.group(2).split()]))
            other = 0
        elif not text.startswith("GPU"):
            other += 1
            if other > FOREIGN:
                break
    return out


def broken_p2p(lines: Sequence[Tuple[int, bytes]], source: str, index: int) -> List[Hit]:
    """The header and the first row of a P2P=Enabled latency matrix with a broken pair, as hits of
    ``nccl-p2p-unsupported`` (groups: ``us`` the pair's latency, ``local`` the slowest diagonal one, ``pair``); []
    when the log shows none."""
    for k, (lineno, raw) in enumerate(lines):
        if HEADER.encode() not in raw:
            continue
        rows = _rows(lines[k + 1:])
        width = len(rows[0][2]) if rows else 0
        if len(rows) < 2 or width < len(rows) or any(len(v) != width for _, _, v in rows):  # a paste may cut the rows
            continue
        local = max(v[i] for i, (_, _, v) in enumerate(rows))
        for i, (row_line, text, vals) in enumerate(rows):
            j, us = max(((j, x) for j, x in enumerate(vals) if j != i), key=lambda t: t[1])
            if us >= BROKEN_US and us >= RATIO * max(local, 0.01):
                g = {"us": f"{us:g}", "local": f"{local:g}", "pair": f"{i} -> {j}"}
                order = index * (1 << 40)
                return [Hit(N.NCCL_P2P_UNSUPPORTED, source, lineno, "", clean(raw)[1].strip()[:1000], groups=g, order=order + lineno),
                        Hit(N.NCCL_P2P_UNSUPPORTED, source, row_line, "", text[:1000], groups=g, order=order + row_line)]
    return []
