"""``glob`` of many patterns in one directory, each directory listed once (issue 18: :func:`.pins.read_pins` globs
about forty patterns in every directory above a linted file, and ``glob.glob`` lists the directory again for each).

:func:`matches` gives what ``sorted(glob.glob(os.path.join(glob.escape(root), pattern)))`` gives for a relative
pattern without ``**``: the same hidden-name rule (a wildcard does not match a name starting with ``.`` unless the
pattern's part does), the same case-sensitive matching (POSIX), a literal last part kept where the path exists
(``lexists``: a dangling link too), a middle part only where it is a directory (links followed).
"""

from __future__ import annotations

import fnmatch
import glob
import os
from typing import Dict, List, Tuple

Listing = Dict[str, List[Tuple[str, bool]]]  # directory -> its (name, is a directory) entries


def _entries(d: str, seen: Listing) -> List[Tuple[str, bool]]:
    if d not in seen:
        out: List[Tuple[str, bool]] = []
        try:
            with os.scandir(d) as it:
                for e in it:
                    try:
                        out.append((e.name, e.is_dir()))
                    except OSError:
                        out.append((e.name, False))
        except OSError:
            pass
        seen[d] = out
    return seen[d]


def matches(root: str, pattern: str, seen: Listing) -> List[str]:
    """The paths ``pattern`` (parts joined by ``/``) matches below ``root``, sorted (module doc); ``seen``: the
    listings of one caller's directories, kept between its patterns."""
    found = [root]
    parts = pattern.split("/")
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        nxt: List[str] = []
        for d in found:
            if not glob.has_magic(part):
                p = os.path.join(d, part)
                if os.path.lexists(p) if last else os.path.isdir(p):
                    nxt.append(p)
                continue
            entries = _entries(d, seen)
            names = [n for n, is_dir in entries if last or is_dir]
            if not part.startswith("."):
                names = [n for n in names if not n.startswith(".")]
            nxt += [os.path.join(d, n) for n in fnmatch.filter(names, part)]
        found = nxt
    return sorted(found)
