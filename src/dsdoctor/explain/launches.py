"""What the launch commands a log shows say together (the scanner keeps them: ``Scanner.marks["launch"]``): two
nodes of one job started with different rendezvous addresses. Each node's command names its node rank (``NODE_RANK=1``,
``RANK=1``, ``--node_rank 1``, ``--machine_rank 1``) and the address of the rendezvous (``MASTER_ADDR=``,
``--master_addr``, ``--main_process_ip``, ``--rdzv_endpoint``); two commands with different node ranks and different
addresses never meet: each node waits at a store the other does not join, and the run hangs or times out in setup.

A paste of one node's command run twice (the same node rank) is not a mismatch, nor is an address given as a
variable (``$MASTER_ADDR``): only literal addresses are compared."""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple

from .. import names as N
from .match import Hit, Scanner

_ADDR = re.compile(r"(?:\bMASTER_ADDR=|--master[_-]addr[= ]|--main_process_ip[= ]|--rdzv[_-]endpoint[= ])['\"]?"
                   r"([A-Za-z0-9][\w.-]{0,200})(?::\d{1,5})?['\"]?(?=[\s;]|$)")
_NODE = re.compile(r"(?:(?<![\w-])(?:NODE_RANK|RANK|MACHINE_RANK)=|--node[_-]rank[= ]|--machine[_-]rank[= ])['\"]?(\d{1,4})(?![\w.])")
# an exception of setting up torch.distributed: what a split rendezvous ends in (any other exception is another failure)
_SETUP_FAILED = re.compile(r"DistStoreError|DistNetworkError|RendezvousTimeoutError|[Tt]imed? ?out|[Rr]endezvous|TCPStore")


def _launch(h: Hit) -> Optional[Tuple[str, str]]:
    """(node rank, address) of a launch line, or None when it does not name both."""
    a, n = _ADDR.search(h.text), _NODE.search(h.text)
    return (n.group(1), a.group(1)) if a and n else None


def split_rendezvous(sc: Scanner) -> List[Hit]:
    """The launch lines of two nodes started with different rendezvous addresses, as hits of
    ``master-addr-mismatch`` (the first node's line, then the other's); [] when the log shows none, or shows an
    exception other than a distributed setup's (that exception is what failed first)."""
    if any(tb.exc_text and not _SETUP_FAILED.search(tb.exc_text) for tb in sc.tracebacks):
        return []
    seen: Dict[str, Tuple[str, Hit]] = {}  # node rank -> (address, line)
    for h in sorted(sc.marks["launch"], key=lambda h: h.order):
        got = _launch(h)
        if got is None:
            continue
        node, addr = got
        for other, (addr0, h0) in seen.items():
            if other != node and addr0 != addr:
                g = {"node": other, "addr": addr0, "node2": node, "addr2": addr}
                return [Hit(N.MASTER_ADDR_MISMATCH, x.source, x.line, x.stream, x.text, groups=g, order=x.order) for x in (h0, h)]
        seen.setdefault(node, (addr, h))
    return []
