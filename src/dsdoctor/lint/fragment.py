"""Config files a script merges into a config it builds in code: fragments.

``ds_config = {"train_micro_batch_size_per_gpu": args.bs, ...}`` then ``ds_config.update(json.load(f))`` (or
``{**base, **loaded}``) hands DeepSpeed the merged dict: the file holds only some of its keys (a ZeRO block), the
rest come from code. What the file lacks is no finding of the file: an error or warning about an absent key (not
on any key the file writes: batch sizes nobody gives, a clipping value never set) is info there, saying where the
script merges it. Findings on the keys it does write stand (``update`` keeps them). Read with regular expressions on
the script that loads the config; the opened name must be the launch's option (``args.deepspeed_config``, or a
variable assigned from it) or a path the script formats (``f"ds_configs/{args.zero}.json"``), so a data JSON it
also merges is none.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, List, Optional

from .discover import _read

if TYPE_CHECKING:
    from ..hjsondoc import Node
    from .rule import Hit

_LOAD = re.compile(r"^[ \t]*(\w+)[ \t]*=[ \t]*h?json\.load\([ \t]*([^\n]*)\)[ \t]*$", re.M)
_INLINE = re.compile(r"\*\*[ \t]*h?json\.load\([ \t]*open\([ \t]*([^,)\n]+)")
_FORMATTED = (r"""(?:f["'][^"'\n]*\{[^"'\n]*\.json["']|["'][^"'\n]*\{[^"'\n]*\}[^"'\n]*\.json["']\.format\("""
              r"""|["'][^"'\n]*%s?[^"'\n]*\.json["'][ \t]*%)""")


def merged_at(script: str, option: Optional[str]) -> Optional[int]:
    """The line where ``script`` merges the config it loads (from ``--option``, or from a path it formats when
    ``option`` is None) into another dict; None where it hands the loaded dict over whole."""
    text = _read(script)
    if "json.load" not in text or not (".update(" in text or "**" in text):
        return None
    if option is not None:
        linked = re.compile(r"\b\w+\." + re.escape(option) + r"\b")
    else:
        linked = re.compile(_FORMATTED)
    names = {m.group(1) for m in re.finditer(r"^[ \t]*(\w+)[ \t]*=[^=\n][^\n]*$", text, re.M) if linked.search(m.group(0))}

    def ok(arg: str) -> bool:
        arg = arg.strip()
        return bool(linked.search(arg)) or arg in names

    for m in _INLINE.finditer(text):
        if ok(m.group(1)):
            return text.count("\n", 0, m.start()) + 1
    for m in _LOAD.finditer(text):
        arg = m.group(2).strip()
        opened = re.match(r"open\([ \t]*([^,)]+)", arg)
        if opened is None:  # `with open(X) as fh:` ... `cfg = json.load(fh)`
            w = re.search(r"with[ \t]+open\([ \t]*([^,)]+)[^\n]*\bas[ \t]+" + re.escape(arg) + r"\b", text[:m.start()])
            if w is None:
                continue
            src = w.group(1)
        else:
            src = opened.group(1)
        if not ok(src):
            continue
        var = re.escape(m.group(1))
        merge = re.search(r"\.update\([ \t]*" + var + r"[ \t]*\)|\*\*[ \t]*" + var + r"\b", text[m.end():])
        if merge is not None:
            return text.count("\n", 0, m.end() + merge.start()) + 1
    return None


def _on_key(root: "Node", at: int) -> bool:
    """Is offset ``at`` inside a member of ``root`` (on a key the file writes, at any depth)?"""
    return any(m.start <= at < m.value.end for m in root.members)


def soften(hits: "List[Hit]", path: str, text: str, root: "Optional[Node]", where: str) -> "List[Hit]":
    """Errors and warnings of the fragment ``path`` on no key it writes are info, saying where it is merged."""
    if root is None or root.kind != "object":
        return hits
    from ..model import Severity
    from .rule import as_info

    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    out = []
    for h in hits:
        f = h.finding
        if f.path == path and f.severity in (Severity.ERROR, Severity.WARNING):
            line = f.line or 1
            at = starts[line - 1] + max((f.col or 1) - 1, 0) if line <= len(starts) else 0
            if not f.line or not _on_key(root, at):
                h = as_info(h, f"the file is a fragment: {where} merges it into a config the script builds in code, "
                               "which may hold what the file lacks")
        out.append(h)
    return out
