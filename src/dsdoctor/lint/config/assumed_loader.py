"""How a ds_config is loaded when nothing says it: its ``"auto"`` values say the Hugging Face integration fills it.

``"auto"`` is the HF Trainer's convention (accelerate fills a subset of the same keys); a config written with it
is written for the Trainer. So a config lint knows no loader for (no ``--loaded-by``, no launch script or
training script of the project naming it) and with an ``"auto"`` value is linted as the Trainer's: the rules that
need that context apply (gradient clipping, the 16-bit save) and ds-config-auto-without-trainer, which needs a
known raw ``deepspeed.initialize`` or accelerate loader, does not fire. ``--loaded-by deepspeed`` says otherwise.
A fix that is right only under the Trainer (adding ``"gradient_clipping": "auto"``) is then unsafe: under raw
DeepSpeed that ``"auto"`` would crash.
"""

from __future__ import annotations

from typing import Iterator, Tuple

from ...hjsondoc import Node
from ..target import Target

ASSUMED = "trainer"


def autos(node: Node, prefix: str = "") -> Iterator[Tuple[str, int]]:
    """(dotted key, offset) of every ``"auto"`` value in an object, nested objects included."""
    for m in node.members:
        path = f"{prefix}{m.key}"
        if m.value.value == "auto":
            yield path, m.start
        elif m.value.kind == "object":
            yield from autos(m.value, path + ".")


def assume_hf(t: Target) -> bool:
    """Set ``t.usage.loaded_by`` to the HF Trainer when the config has an ``"auto"`` value (its source says which
    line); True when it did."""
    root = t.doc.root if t.doc else None
    if root is None or root.kind != "object":
        return False
    first = next(autos(root), None)
    if first is None:
        return False
    line = t.linecol(first[1])[0]
    t.usage.loaded_by, t.usage.loaded_by_assumed = ASSUMED, True
    t.usage.loaded_by_source = f'assumed from its "auto" values ({first[0]}, line {line})'
    return True
