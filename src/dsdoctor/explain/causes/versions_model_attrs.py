"""A Transformers model attribute that only some releases set, read by another package's code
(``knowledge.transformers`` ``MODEL_ATTRIBUTES``): ``AttributeError: 'LlamaAttention' object has no attribute
'rope_theta'`` is DeepSpeed's Llama kernel-injection container (0.11.2+) reading an attribute that Transformers sets
only in 4.33.0-4.47.1. Answered as ``package-versions-incompatible`` with both boundaries; the Transformers release
the log shows (if any) says which side it is on."""

from __future__ import annotations

import re
from typing import List, Tuple

from ... import fixes as F
from ...knowledge import transformers as TK
from ...knowledge.versions import parse
from ...model import Fix
from .cause import Advice, LogFacts, Seen, Signature, rx


def _signature(row: TK.ModelAttribute) -> Signature:
    return rx(r"'(?P<model_cls>%s)' object has no attribute '(?P<model_attr>%s)'" % (re.escape(row.cls), re.escape(row.attr)),
              f"object has no attribute '{row.attr}'", f"{row.reader} reading {row.cls}.{row.attr} (Transformers "
              f"sets it in {row.first}-{row.last} only)", f"AttributeError: '{row.cls}' object has no attribute '{row.attr}'")


SIGNATURES: Tuple[Signature, ...] = tuple(_signature(r) for r in TK.MODEL_ATTRIBUTES)


def advice(s: Seen, f: LogFacts) -> Advice:
    """Which Transformers releases set the attribute, which side of them the log's release is on, and the pins."""
    row = TK.model_attribute(s.groups.get("model_cls", ""), s.groups.get("model_attr", ""))
    if row is None:  # pragma: no cover - the signatures are built from the rows
        return Advice("Installed packages disagree on an API: a model attribute is missing", "", [])
    ver, lo, hi = parse(f.transformers), parse(row.first), parse(row.last)
    older = ver is not None and lo is not None and ver < lo
    newer = ver is not None and hi is not None and ver > hi
    what = (f"Transformers' {row.cls} has `{row.attr}` only in {row.first}-{row.last}: Transformers "
            f"{row.before} and older do not set it, nor do {row.after} and later")
    fixes: List[Fix] = []
    if not newer:
        fixes.append(F.pip_fix(f"transformers>={row.first}", f"Upgrade Transformers to {row.first} or later (the "
                               f"first release whose {row.cls} sets `{row.attr}`)"))
    if not older:
        fixes.append(F.pip_fix(f"{row.reader_package}>={row.reader_fallback}", f"With Transformers after {row.last}: "
                               f"{row.reader_package} {row.reader_fallback} or later reads it from the model config"))
        fixes.append(F.pip_fix(f"transformers>={row.first},<={row.last}", f"Or pin Transformers to {row.first}-{row.last}"))
    where = "older than" if older else "newer than" if newer else "inside"
    shown = (f" The log shows Transformers {f.transformers}, {where} that range" + ("." if older or newer else
             ": the object is then not the class Transformers ships (a remote-code or patched one).")
             if ver is not None else " The log does not show your Transformers release (`pip show transformers`).")
    facts = (f"{what}. The code that reads it expects one of those releases; {row.reader}, {row.reader_package} "
             f"{row.reader_from} and later, is such a reader ({row.reader_package} {row.reader_fallback} and later "
             f"read the model config first).{shown} A remote-code model's own class of that name is not covered.")
    return Advice(f"Installed packages disagree on an API: {what}", "", fixes, facts=facts)

