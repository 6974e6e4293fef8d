"""ds-config-invalid: the file is not what DeepSpeed (hjson) or HF Trainer/accelerate (json.load) can load."""

from __future__ import annotations

from typing import Iterator

from ... import names as N
from ...hjsondoc import Node
from ...knowledge import deepspeed as K
from ...knowledge import transformers as TF
from ...model import Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from ..text_link import lfs_pointer, text_link
from .fields import zero


def check(t: Target) -> Iterator[Hit]:
    doc = t.doc
    if doc is None:
        return
    root = doc.root
    link = text_link(t.path, t.text, (".json", ".hjson")) if doc.error or root is None or root.kind != "object" \
        else None
    if link is not None and link[1]:
        yield RULE.hit(t, 0, f"the whole file is the path {link[0]}, an existing file: a git symbolic link checked "
                             "out as text (a launch through it loads the file it names)", severity=Severity.INFO)
        return
    if link is not None:
        yield RULE.hit(t, 0, f"the whole file is the path {link[0]}, which the repository does not have: a git "
                             "symbolic link to a missing file (dangling also where links are checked out)")
        return
    lfs = lfs_pointer(t.text) if doc.error is not None else None
    if lfs is not None:
        yield RULE.hit(t, 0, lfs, severity=Severity.INFO)
        return
    if doc.error is not None:
        yield RULE.hit(t, doc.error.pos, f"not a loadable DeepSpeed config: {doc.error.msg}")
        return
    if root is None or root.kind != "object":
        yield RULE.hit(t, root.start if root else 0, "the top level of a DeepSpeed config must be an object")
        return
    if doc.strict_json_error and t.usage.loaded_by in ("trainer", "accelerate"):
        msg, pos = doc.strict_json_error
        yield RULE.hit(t, pos, f"{t.usage.loaded_by} loads the config with {TF.HF_CONFIG_LOADER}: {msg} "
                       "(comments and HJSON work only for a raw DeepSpeed path)")
    elif doc.strict_json_error:
        for n in _pasted(root, t.text):
            yield RULE.hit(t, n.start, f"hjson reads the quoteless value {t.text[n.start:n.end]} as the string "
                           f"{n.value!r}, not a JSON value (a Python literal or name pasted into the config?)",
                           "DeepSpeed loads a config path with hjson: an unquoted word runs to the end of the line, "
                           "comma included, so typed settings fail validation (`Input should be a valid boolean`) or "
                           "comparisons with a string.")
            break  # one is enough: the file is not JSON
    z = t.node("zero_optimization")
    if z is not None and z.kind not in ("object", "bool"):
        yield RULE.hit(t, z.start, "zero_optimization must be an object")
    zo = zero(t)
    if zo is not None:
        s = zo.get("stage")
        if s is not None and s.value != "auto" and (isinstance(s.value, bool) or s.value not in K.ZERO_STAGES):
            yield RULE.hit(t, s.start, f"zero_optimization.stage {s.value!r} is not 0, 1, 2 or 3")
        for which in ("offload_param", "offload_optimizer"):
            blk = zo.get(which)
            if blk is None or blk.kind == "null" or blk.value == "auto":
                continue
            if blk.kind != "object":
                yield RULE.hit(t, blk.start, f"zero_optimization.{which} must be an object")
                continue
            dev = blk.get("device")
            if dev is not None and dev.value != "auto" and dev.value not in K.OFFLOAD_DEVICES:
                yield RULE.hit(t, dev.start, f"{which}.device {dev.value!r}: should be 'none', 'cpu' or 'nvme'")


def _pasted(node: Node, text: str) -> Iterator[Node]:
    """Quoteless strings that end in a comma: ``True,`` / ``global_batch_size,`` where JSON had a value."""
    for child in [m.value for m in node.members] + node.items:
        if child.kind == "string" and text[child.start:child.start + 1] not in ("'", '"') and \
                str(child.value).endswith(","):
            yield child
        yield from _pasted(child, text)


RULE = Rule(
    spec(
        N.DS_CONFIG_INVALID,
        "ds_config",
        Severity.ERROR,
        summary="The config cannot be loaded or has a value DeepSpeed rejects",
        what="Syntax errors (with the position hjson stops at), a top level that is not an object, a ZeRO stage "
         "outside 0-3, an offload device other than none/cpu/nvme; comments/HJSON in a config that HF "
         "Trainer or accelerate load with json.load; and, for raw DeepSpeed, a quoteless value that hjson reads "
         "as a string ending in a comma (Python's True/False or a variable name pasted into the file). A file whose "
         "whole text is the relative path of another config is a git symbolic link checked out as text (Windows "
         "without core.symlinks, an archive): info where the file it names exists (that one is linted), an error "
         "where the repository does not have it (the link dangles). A Git LFS pointer (the repository keeps its JSON in "
         "LFS; this checkout has no LFS objects) is info: its content is not here to judge.",
        why="DeepSpeed loads a config path with hjson; HF Trainer and accelerate with json.load. Either fails before "
        "training starts, often after the model has been loaded.",
        fix="Fix the syntax at the reported position; remove comments when the config goes through HF."),
    check=check,
    valid=(Example('{"train_batch_size": 8, // comment\n "zero_optimization": {"stage": 3}}'),
           Example('{"zero_optimization": {"stage": 2}}', (("loaded_by", "trainer"),))),
    invalid=(Example('{"train_batch_size": 8,\n "zero_optimization": {"stage": 3}'),
             Example('{"zero_optimization": {"stage": 4}}'),
             Example('{"zero_optimization": {"stage": 3, "offload_param": {"device": "gpu"}}}'),
             Example('{"train_batch_size": 8 // comment\n}', (("loaded_by", "trainer"),)),
             Example('{\n "train_batch_size": 8,\n "zero_optimization": {\n  "stage": 3,\n  "overlap_comm": True,\n'
                     '  "contiguous_gradients": true\n }\n}')),
)
