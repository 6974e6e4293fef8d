"""A config option the entry script joins onto a directory of its own: ``os.path.join(RESOURCE_PATH, "config",
"deepspeed", args.deepspeed_config)`` or ``Path(ROOT) / "configs" / args.deepspeed_config``.

The launch passes a bare name (``--deepspeed_config stage-3.json``) that names no file from where the launch runs;
the script finds it under a directory it computes (a project constant, ``os.path.dirname(__file__)`` ...). The
constant pieces written between that directory and the option, with the launch's value, are the end of the file's
path: the one project file whose path ends so (:func:`.markdown.resolve_anywhere`) is the config the launch loads.
Where the directory is not the only unknown piece, or several files end so, nothing is resolved.
"""

from __future__ import annotations

import os
import re
from typing import List, Optional

from .discover import _read
from .markdown import resolve_anywhere

_STR = re.compile(r"""^(?:[rRuU]?)(["'])([^"'\\]*)\1$""")


def _calls(text: str, option: str) -> List[List[str]]:
    """The pieces of each ``os.path.join(...)`` / ``Path(...) / ... /`` chain of ``text`` ending with the option's
    attribute (``args.deepspeed_config``), that attribute left out."""
    attr = r"\b\w+\." + re.escape(option) + r"\b"
    out: List[List[str]] = []
    for m in re.finditer(r"\bos\.path\.join\(([^()]*?)," r"\s*" + attr + r"\s*\)", text):
        out.append([p.strip() for p in m.group(1).split(",")])
    for m in re.finditer(r"/\s*((?:[rRuU]?[\"'][^\"'\n]*[\"']\s*/\s*)+)" + attr, text):  # Path(ROOT) / "a" / args.x
        out.append(["?", *[p.strip() for p in m.group(1).split("/") if p.strip()]])
    return out


def joined_config(entry: str, option: str, value: str, root: str) -> Optional[str]:
    """The project file the entry script ``entry`` loads for ``--option value`` when it joins the value onto a
    directory of its own (one unknown piece first, constant strings after it); None when it does not, or when
    the path's end names no single file of the project."""
    if not value or "$" in value or os.path.isabs(value) or not os.path.isfile(entry):
        return None
    text = _read(entry)
    if option not in text:
        return None
    for pieces in _calls(text, option):
        consts: List[str] = []
        for p in reversed(pieces):
            m = _STR.match(p)
            if m is None:
                break
            consts.insert(0, m.group(2))
        if len(consts) < len(pieces) - 1:
            continue  # more than one piece unknown: the directory is not the script's alone
        tail = "/".join([c.strip("/") for c in consts if c.strip("/")] + [value])
        if "/" not in tail:
            continue  # a name alone says nothing of where it is
        got = resolve_anywhere(tail, os.path.dirname(entry) or ".", root)
        if got is not None:
            return got
    return None
