"""hf-deepspeed-config-not-kept: an HfDeepSpeedConfig that dies before the model is loaded (or accelerate's)."""

from __future__ import annotations

import re
from typing import Any, Iterator, List, Optional

from ... import names as N
from ...model import Fix, Severity
from ..rule import Edit, Example, Hit, Rule, spec
from ..target import Target
from . import emit, uncalled, zero3_candidate


def check(t: Target) -> Iterator[Hit]:
    c = zero3_candidate(t)
    if c is None:  # not parsed (libcst stays unimported), or known not to run under ZeRO-3
        return
    import libcst as cst

    from .execution_order import rebound_before_load, stream

    s = c.script
    assert s is not None
    for e in (e for e in s.events if e.kind == "hfds" and not e.dead and not uncalled(c, e)):
        origin = s.imported.get(e.name.split(".")[0], e.name) if "." not in e.name else e.name
        if origin.startswith("accelerate") or s.imported.get(e.name, "").startswith("accelerate"):
            yield from emit(RULE, t, e.call, "accelerate's HfDeepSpeedConfig does not register ZeRO-3 for "
                            f"from_pretrained {c.under}: use transformers.integrations.HfDeepSpeedConfig",
                            fixes=(Fix("from transformers.integrations import HfDeepSpeedConfig", "safe"),),
                            severity=c.zero3_severity)
            continue
        small = e.stmt.body[0] if isinstance(e.stmt, cst.SimpleStatementLine) else None
        # a variable keeps it long enough at module level, or when the load follows in the same function
        load_follows = any(x.seq > e.seq and x.kind == "load" for x in stream(s, e.scope)) or \
            _model_built_after(c, e)
        keepable = e.scope is s.module_scope or load_follows
        fn = e.scope.node.name.value if isinstance(e.scope.node, cst.FunctionDef) else "?"
        edit = None
        if e.bare:
            why = "its result is dropped at once"
            start = c.src.span(e.call)[0]
            if keepable:
                edit = Edit(t.path, start, start, "dschf = ", "safe", "keep the HfDeepSpeedConfig in a variable")
        elif e.bound == "_" and len(e.scope.assigns.get("_", ())) > 1 and rebound_before_load(c, e):
            why = "it is bound to `_`, which the code binds again"
            if isinstance(small, cst.Assign) and keepable:
                edit = Edit(t.path, *c.src.span(small.targets[0].target), "dschf", "safe", "keep it as dschf")
        elif (e.bound and e.scope is not s.module_scope and e.bound not in e.scope.returns
              and e.bound not in e.scope.globals_ and "." not in e.bound):
            if load_follows or _generator(e.scope.node) or _stored(c, e):
                continue  # a generator (a @contextmanager's body) keeps its locals while it is suspended
            why = f"`{e.bound}` is a local of {fn}() and is freed when it returns"
        else:
            continue
        yield from emit(RULE, t, e.call, f"HfDeepSpeedConfig is not kept alive ({why}) {c.under}: transformers holds "
                        "only a weak reference, so from_pretrained does not see ZeRO-3 and zero.Init never runs",
                        fixes=(Fix("keep it for the whole load: `dschf = HfDeepSpeedConfig(ds_config)` at module "
                                   "level (or a variable that outlives the from_pretrained call)", "safe"),),
                        edits=(edit,) if edit else (), severity=c.zero3_severity)


_MODEL = re.compile(r"\w*model", re.I)  # model, base_model, self.model (not model_args)
_LOADER = re.compile(r"(?:load|build|get|create|init|setup|make)_?\w*model", re.I)  # load_model, build_actor_model


def _model_built_after(c: Any, e: Any) -> bool:
    """Does the function that holds the HfDeepSpeedConfig assign a model later, from a call
    (``model = cfg.architecture.model_class(cfg)``, a builder of another module)? Then the model is built while
    the local is alive."""
    import libcst as cst

    from .dataflow import dotted
    from .walk import descendants

    fn = e.scope.node
    if not isinstance(fn, cst.FunctionDef):
        return False
    pos = c.src.ranges_through(fn)  # the function's own nodes: no codegen of the rest of the file
    if e.stmt not in pos:
        pos = c.src.positions
    after = pos[e.stmt].end.line
    for node in descendants(fn):
        if not isinstance(node, (cst.Assign, cst.AnnAssign)) or not isinstance(node.value, cst.Call):
            continue
        r = pos[node]
        if r.start.line <= after or not pos[fn].start.line <= r.start.line <= pos[fn].end.line:
            continue
        targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
        # a name or an attribute (self.model); a subscript (parts[k] = f()) or a tuple names no model
        if any(_MODEL.fullmatch(t.attr.value if isinstance(t, cst.Attribute) else t.value if isinstance(t, cst.Name)
                                else "") for t in targets):
            return True
        # or from a call that names the model it makes (agent = load_model(args), build_model(cfg))
        if _LOADER.fullmatch(dotted(node.value.func).rpartition(".")[2]):
            return True
    return False


def _stored(c: Any, e: Any) -> bool:
    """Does the function put the local into something that outlives it (``args["dschf"] = dschf``,
    ``self.dschf = dschf``), after binding it?"""
    import libcst as cst

    fn = e.scope.node
    if not isinstance(fn, cst.FunctionDef):
        return False
    after, last = c.src.positions[e.stmt].end.line, c.src.positions[fn].end.line
    for node, r in c.src.positions.items():
        if isinstance(node, cst.Assign) and after < r.start.line <= last and isinstance(node.value, cst.Name) \
                and node.value.value == e.bound \
                and any(isinstance(t.target, (cst.Subscript, cst.Attribute)) for t in node.targets):
            return True
    return False


RULE = Rule(
    spec(
        N.HF_DEEPSPEED_CONFIG_NOT_KEPT,
        "python",
        Severity.ERROR,
        summary="An HfDeepSpeedConfig that is not kept alive until the model is loaded",
        what="`HfDeepSpeedConfig(cfg)` as a bare statement, bound to `_` that the code binds again before the "
         "load (a loop's `_`; `_` bound once, or again only after the load, keeps it as any name does), or to a local of a function that returns "
         "before the model is loaded (a load or a model assigned from a call later in that function keeps it, and so "
         "does storing it in a dict or an attribute that outlives the function); or "
         "accelerate's class of the same name used instead of transformers'.",
        why="transformers keeps only a weak reference to the object: once it is garbage collected `from_pretrained` no "
        "longer sees ZeRO-3, so zero.Init never runs (like model-loaded-before-ds-config). accelerate's class never "
        "registers at all.",
        fix="`dschf = HfDeepSpeedConfig(ds_config)` (transformers.integrations) at module level, before the load.",
        section="Script"),
    check=check,
    valid=(Example('from transformers.integrations import HfDeepSpeedConfig\n'
                   'dschf = HfDeepSpeedConfig(ds_config)\n'
                   'model = AutoModelForCausalLM.from_pretrained("m")\nimport deepspeed\n', (("zero3", True),)),
           # a @contextmanager keeps its local while suspended at the yield: the models are built in its with block
           Example('import deepspeed\nfrom contextlib import contextmanager\n'
                   'from transformers.integrations import HfDeepSpeedConfig\n\n\n@contextmanager\n'
                   'def init_model_context(ds_config):\n    dschf = HfDeepSpeedConfig(ds_config)\n    yield\n',
                   (("zero3", True),), "a generator keeps its locals while it is suspended"),
           # `_` is a name like any other: bound once, it keeps the object until the function returns
           Example('import deepspeed\nfrom transformers.integrations import HfDeepSpeedConfig\n\n\n'
                   'def load(ds_config):\n    _ = HfDeepSpeedConfig(ds_config)\n'
                   '    return AutoModelForCausalLM.from_pretrained("m")\n', (("zero3", True),)),
           # `_` bound again only after the load (initialize's unused results): the load saw ZeRO-3
           Example('import deepspeed\nfrom transformers.integrations import HfDeepSpeedConfig\n'
                   '_ = HfDeepSpeedConfig(ds_config)\nmodel = AutoModelForSeq2SeqLM.from_pretrained("m")\n'
                   'engine, _, _, _ = deepspeed.initialize(model=model, config_params=ds_config)\n',
                   (("zero3", True),)),
           # the local is stored in the arguments dict the trainer object keeps: alive for the whole run
           Example('import deepspeed\nfrom transformers.integrations import HfDeepSpeedConfig\n\n\n'
                   'def main(args):\n    dschf = HfDeepSpeedConfig(args["ds_config"])\n    args["dschf"] = dschf\n'
                   '    Runner(args).run()\n', (("zero3", True),), "stored where the run keeps it"),
           # a branch a local constant switches off ("manual switch for now") never runs
           Example('import deepspeed\nfrom transformers.integrations import HfDeepSpeedConfig\n\n\n'
                   'def evaluate(ds_config):\n    use_zero3 = False\n    if use_zero3:\n'
                   '        HfDeepSpeedConfig(ds_config)\n    return AutoModelForCausalLM.from_pretrained("m")\n',
                   (("zero3", True),))),
    invalid=(Example('from transformers.integrations import HfDeepSpeedConfig\n'
                     'HfDeepSpeedConfig(ds_config)\n'
                     'model = AutoModelForCausalLM.from_pretrained("m")\nimport deepspeed\n', (("zero3", True),),
                     fixed='from transformers.integrations import HfDeepSpeedConfig\n'
                           'dschf = HfDeepSpeedConfig(ds_config)\n'
                           'model = AutoModelForCausalLM.from_pretrained("m")\nimport deepspeed\n'),
             # `_` bound again by a loop before the load: the first object is freed
             Example('from transformers.integrations import HfDeepSpeedConfig\n'
                     '_ = HfDeepSpeedConfig(ds_config)\nfor _ in range(3):\n    pass\n'
                     'model = AutoModelForCausalLM.from_pretrained("m")\nimport deepspeed\n', (("zero3", True),),
                     fixed='from transformers.integrations import HfDeepSpeedConfig\n'
                           'dschf = HfDeepSpeedConfig(ds_config)\nfor _ in range(3):\n    pass\n'
                           'model = AutoModelForCausalLM.from_pretrained("m")\nimport deepspeed\n'),
             # a local freed on return; what the function builds later is a dict's items, no model
             Example('import deepspeed\nfrom transformers.integrations import HfDeepSpeedConfig\n\n\n'
                     'def setup(ds_config, names):\n    dschf = HfDeepSpeedConfig(ds_config)\n    sizes = {}\n'
                     '    for n in names:\n        sizes[n] = len(n)\n    return sizes\n', (("zero3", True),))),
)


def _generator(fn: Any) -> bool:
    """Does the function ``fn`` yield (a generator, a ``@contextmanager`` body) outside the functions it nests?"""
    import libcst as cst

    found: List[bool] = []

    class Yields(cst.CSTVisitor):
        def visit_Yield(self, node: cst.Yield) -> None:
            found.append(True)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> Optional[bool]:
            return node is fn  # a nested function's yields are its own

        def visit_Lambda(self, node: cst.Lambda) -> bool:
            return False

    if isinstance(fn, cst.FunctionDef):
        fn.visit(Yields())
    return bool(found)
