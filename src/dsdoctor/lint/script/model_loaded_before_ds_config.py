"""model-loaded-before-ds-config: the model is built before ZeRO-3 is registered, so zero.Init never runs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, List, Optional, Set, Tuple

from ... import names as N
from ...knowledge import transformers as TF
from ...model import Fix, Severity
from ..rule import Edit, Example, Hit, Rule, spec
from ..target import Target, Usage
from . import Ctx, emit, where, zero3_candidate

if TYPE_CHECKING:
    from .dataflow import Event


def _registers(e: "Event", c: Ctx) -> bool:
    """Does ``e`` register ZeRO-3 for the loads after it: training arguments, an Accelerator, or an HfDeepSpeedConfig
    kept in a name (``_`` too, unless the code binds ``_`` again before the next load)?"""
    from .execution_order import rebound_before_load

    if e.kind != "hfds":
        return e.kind == "register"
    return not e.bare and e.bound is not None and (e.bound != "_" or not rebound_before_load(c, e))


def _assigned(stmt: object) -> Set[str]:
    import libcst as cst

    from .dataflow import names_in

    out: Set[str] = set()
    if isinstance(stmt, cst.SimpleStatementLine):
        for s in stmt.body:
            if isinstance(s, cst.Assign):
                for tg in s.targets:
                    out |= names_in(tg.target)
            elif isinstance(s, (cst.AnnAssign, cst.AugAssign)):
                out |= names_in(s.target)
            elif isinstance(s, (cst.Import, cst.ImportFrom)):
                out |= names_in(s)
        return out
    return names_in(stmt)  # a compound statement: everything it mentions (conservative)


def move_edit(t: Target, c: Ctx, load: "Event", reg: "Event") -> Optional[Edit]:
    """Move ``args = TrainingArguments(...)`` (same block, no dependency on what lies between) above the load."""
    import libcst as cst

    from .dataflow import names_in

    if reg.block is not load.block or reg.bound is None or not isinstance(reg.stmt, cst.SimpleStatementLine):
        return None
    body = list(getattr(load.block, "body", ()))
    try:
        i, j = body.index(load.stmt), body.index(reg.stmt)
    except ValueError:
        return None
    needs = names_in(reg.stmt) - {reg.bound}
    between: Set[str] = set()
    for s in body[i:j]:
        between |= _assigned(s)
    if i >= j or needs & between:
        return None
    text = c.src.text
    r0 = c.src.offset(c.src.positions[reg.stmt].start.line, 0)
    r1 = text.find("\n", c.src.span(reg.stmt)[1])
    r1 = len(text) if r1 < 0 else r1 + 1
    moved = text[r0:r1] if text[r0:r1].endswith("\n") else text[r0:r1] + "\n"
    l0 = c.src.offset(c.src.positions[load.stmt].start.line, 0)
    # one edit spanning load..reg keeps plan()'s non-overlap rule simple
    return Edit(t.path, l0, r1, moved + text[l0:r0], "safe", "create the training arguments before the model")


def _early(c: Ctx, usage: Optional[Usage] = None, path: str = "") -> Iterator[Tuple[List["Event"], List["Event"]]]:
    """Per execution stream: the loads before ZeRO-3 is registered, and the registrations / initialize after
    (``usage``: where the file's ZeRO-3 comes from, for training arguments that name no DeepSpeed config, and the
    project's own loaders, :func:`.model_loads.transformers_loader`; ``path``: the file's)."""
    from .execution_order import entries
    from .local import exclusive
    from .model_loads import transformers_loader

    for stream in entries(c.script):  # type: ignore[arg-type]
        before: List["Event"] = []  # every model built before the registration (a policy and its reference model)
        for e in stream:
            if _registers(e, c):
                break
            if e.kind == "load" and not e.zero_init and not e.dead and not e.meta and not _donor(e) and not _frozen(e) and (
                    usage is None or not e.name.endswith(".from_pretrained") or transformers_loader(usage, path, c, e.name)):
                before.append(e)  # (meta: a skeleton; a class of the project whose own from_pretrained builds it:
                # zero.Init never would)
        if not before:
            continue
        later: List["Event"] = [e for e in stream[stream.index(before[0]) + 1:]
                                if _registers(e, c) or e.kind == "initialize"]
        # a registration in a branch that excludes the load's (``if normal: load ... elif none: HfDeepSpeedConfig``)
        # never follows it
        before = [b for b in before if any(not exclusive(b.conds, e.conds) for e in later)]
        later = [e for e in later if any(not exclusive(b.conds, e.conds) for b in before)]
        if later and _without_deepspeed(later[0], c, usage):
            continue  # ``TrainingArguments(output_dir=..., bf16=...)`` with no deepspeed: no DeepSpeed config comes
        if later:
            yield before, later


def _donor(e: "Event") -> bool:
    """Is the load's model only a source of weights: its name, in its function, read only as ``name.state_dict()``
    (``pretrained.state_dict()`` copied into the model that trains)? It must be whole for that copy: zero.Init would
    leave empty partitions."""
    import libcst as cst

    from .walk import descendants

    if not e.bound or "." in e.bound or e.scope is None or isinstance(e.scope.node, cst.Module):
        return False
    names = copies = 0
    for n in descendants(e.scope.node, trivia=False):
        if isinstance(n, cst.Name) and n.value == e.bound:
            names += 1
        elif isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == "state_dict" and \
                isinstance(n.func.value, cst.Name) and n.func.value.value == e.bound:
            copies += 1
    return copies > 0 and names == copies + 1  # (the one more: the name the load is assigned to)


_FROZEN = ("eval", "requires_grad_")  # a model set so where it is loaded is not the one that trains


def _frozen(e: "Event") -> bool:
    """Is the load's model put in eval mode (or frozen) by the expression that loads it
    (``AutoModel.from_pretrained(enc).eval().to(device)``): a helper that runs whole on each rank by design (a
    reward encoder, a frozen teacher), never handed to DeepSpeed, which zero.Init would partition under its calls?"""
    import libcst as cst

    from .walk import descendants

    if e.stmt is None:
        return False
    for n in descendants(e.stmt, trivia=False):
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value in _FROZEN:
            if n.func.attr.value == "requires_grad_" and not (  # `.requires_grad_()` turns gradients on
                    n.args and isinstance(n.args[0].value, cst.Name) and n.args[0].value.value == "False"):
                continue
            inner: cst.BaseExpression = n.func.value
            while True:  # down the chain `load(...).to(d).eval()` to the load's own call
                if inner is e.call:
                    return True
                if isinstance(inner, cst.Call):
                    inner = inner.func
                elif isinstance(inner, cst.Attribute):
                    inner = inner.value
                else:
                    break
    return False


def _without_deepspeed(e: "Event", c: Ctx, usage: Optional[Usage]) -> bool:
    """Is ``e`` training arguments built in code that name no DeepSpeed config (no ``deepspeed=``, no ``**kwargs``
    that may hold one), in a file no accelerate YAML gives ZeRO-3 (under ``accelerate launch`` the arguments take
    the YAML's DeepSpeed plugin): its Trainer runs without DeepSpeed, so the loads before it are before no ZeRO-3
    config (a ZeRO-3 config already registered in the process reaches them as it does any load)?"""
    from .local import names_no_config

    if usage is None or any(y in c.zero3_source for y in usage.zero3_yamls) or "accelerate" in c.zero3_source:
        return False
    if e.kind != "register":
        return False
    name = e.name.split(".")[-1]  # a class of the library's own: a subclass may default its deepspeed field
    if name not in TF.ZERO3_REGISTERING_CLASSES or name in ("Accelerator", "HfDeepSpeedConfig"):
        return False
    return names_no_config(e.call)


# how a load-time ZeRO-3 refusal (device_map, low_cpu_mem_usage) at such a load is stated; its finding is info:
# the load order is the one problem to fix, and the refusal follows once it is
LATENT = f" once the model is loaded after ZeRO-3 is registered (it is loaded before: {N.MODEL_LOADED_BEFORE_DS_CONFIG})"


def early_loads(c: Ctx, usage: Optional[Usage] = None, path: str = "") -> Set[int]:
    """The loads (``id`` of their call) this rule reports: ZeRO-3 is not registered when they run, so Transformers'
    ZeRO-3 checks (device_map, low_cpu_mem_usage) do not fire there yet."""
    return {id(e.call) for before, _ in _early(c, usage, path) for e in before}


def check(t: Target) -> Iterator[Hit]:
    c = zero3_candidate(t)
    if c is None:  # not parsed (libcst stays unimported), or known not to run under ZeRO-3
        return
    seen: Set[int] = set()
    for before, later in _early(c, t.usage, t.path):
        reg = next((e for e in later if _registers(e, c)), None)
        what = reg.name.split(".")[-1] if reg else "deepspeed.initialize (no kept HfDeepSpeedConfig)"
        for i, first in enumerate(before):
            if id(first.call) in seen:
                continue
            seen.add(id(first.call))
            edit = move_edit(t, c, first, reg) if reg is not None and i == 0 else None
            yield from emit(RULE, t, first.call,
                            f"the model is built before {what} {c.under}: zero.Init never runs, every rank "
                            "materializes the full model (host RAM x ranks, then a full copy per GPU)",
                            fixes=(Fix("create TrainingArguments / Accelerator / `dschf = HfDeepSpeedConfig(cfg)` "
                                       "before loading the model" + (" (dsdoctor fix moves it)" if edit else ""),
                                       "safe"),),
                            edits=(edit,) if edit else (), severity=c.zero3_severity,
                            evidence=(where(c, later[0].call, f"{what} comes later"),))


RULE = Rule(
    spec(
        N.MODEL_LOADED_BEFORE_DS_CONFIG,
        "python",
        Severity.ERROR,
        summary="The model is built before ZeRO-3 is registered, so zero.Init never runs",
        what="A model load (`from_pretrained`, `from_config`, `XForCausalLM(config)`) runs before the first "
         "`TrainingArguments` (or subclass / TRL config), `HfArgumentParser.parse_*`, `Accelerator()` or kept "
         "`HfDeepSpeedConfig` in execution order (calls to functions of the same file are followed); not where that is "
         "a `TrainingArguments(...)` built in code with no `deepspeed=` (nor `**kwargs`): that Trainer runs without "
         "DeepSpeed. A model built "
         "under `init_empty_weights()` / a meta device is a skeleton without weights: not a load; one put in eval mode "
         "where it loads (`.from_pretrained(enc).eval()`, `.requires_grad_(False)`) is a helper run whole on each "
         "rank (a reward encoder), not the model DeepSpeed trains.",
        why="Transformers only builds the model under `deepspeed.zero.Init` when a ZeRO-3 config is registered at load "
        "time. Otherwise every rank loads the full model into host RAM and `deepspeed.initialize` moves it whole to "
        "each GPU: host OOM (SIGKILL) or CUDA OOM despite offload. It also hides device_map/low_cpu_mem_usage errors.",
        fix="Create the training arguments (or Accelerator / `dschf = HfDeepSpeedConfig(ds_config)`) before the model. "
        "`TRANSFORMERS_VERBOSITY=info` then logs `Detected DeepSpeed ZeRO-3: activating zero.init() for this model`.",
        section="Script"),
    check=check,
    valid=(Example('from transformers import AutoModelForCausalLM, Trainer, TrainingArguments\n'
                   'args = TrainingArguments("out", deepspeed="ds_z3.json")\n'
                   'model = AutoModelForCausalLM.from_pretrained("m")\n'
                   'Trainer(model=model, args=args).train()\n', (("zero3", True),)),
           Example('from transformers import AutoModelForCausalLM, Trainer, TrainingArguments\n'
                   'model = AutoModelForCausalLM.from_pretrained("m")\n'
                   'args = TrainingArguments("out", bf16=True)\n'
                   'Trainer(model=model, args=args).train()\n', (("zero3", True),),
                   note="training arguments built in code without a deepspeed config: no ZeRO-3 config comes later"),
           Example('from accelerate import init_empty_weights\n'
                   'from transformers import AutoConfig, AutoModelForCausalLM, Trainer, TrainingArguments\n'
                   'with init_empty_weights():\n'
                   '    skeleton = AutoModelForCausalLM.from_config(AutoConfig.from_pretrained("m"))\n'
                   'args = TrainingArguments("out", deepspeed="ds_z3.json")\n'
                   'model = AutoModelForCausalLM.from_pretrained("m")\n'
                   'Trainer(model=model, args=args).train()\n', (("zero3", True),)),
           Example('import deepspeed\n'
                   'from transformers import AutoModelForCausalLM\n'
                   'from transformers.integrations import HfTrainerDeepSpeedConfig\n'
                   'dschf = HfTrainerDeepSpeedConfig(ds_config)\n'
                   'model = AutoModelForCausalLM.from_pretrained("m")\n'
                   'engine, *_ = deepspeed.initialize(model=model, config=ds_config)\n', (("zero3", True),),
                   note="the Trainer's subclass of HfDeepSpeedConfig, kept, registers ZeRO-3 alike"),
           Example('from transformers import AutoModelForCausalLM\n'
                   'from transformers.integrations import HfDeepSpeedConfig\n'
                   'def build(name, mode, ds_config):\n'
                   '    if mode == "train":\n'
                   '        return AutoModelForCausalLM.from_pretrained(name)\n'
                   '    elif mode == "infer":\n'
                   '        dschf = HfDeepSpeedConfig(ds_config)\n'
                   '        return AutoModelForCausalLM.from_pretrained(name), dschf\n', (("zero3", True),),
                   note="the registration sits in a branch that excludes the load's: it never follows that load"),
           Example('from transformers import AutoModelForCausalLM, Trainer, TrainingArguments\n'
                   'def donor_weights():\n'
                   '    donor = AutoModelForCausalLM.from_pretrained("base")\n'
                   '    return donor.state_dict()\n'
                   'weights = donor_weights()\n'
                   'args = TrainingArguments("out", deepspeed="ds_z3.json")\n'
                   'model = AutoModelForCausalLM.from_pretrained("m")\n'
                   'model.load_state_dict(weights, strict=False)\n'
                   'Trainer(model=model, args=args).train()\n', (("zero3", True),),
                   note="a weight donor (read only as `donor.state_dict()`) must load whole: no zero.Init wanted"),
           Example('import os\n'
                   'from transformers import AutoModel, AutoModelForCausalLM, Trainer, TrainingArguments\n'
                   'encoder = AutoModel.from_pretrained("enc").eval().to(f"cuda:{os.environ[\'LOCAL_RANK\']}")\n'
                   'args = TrainingArguments("out", deepspeed="ds_z3.json")\n'
                   'model = AutoModelForCausalLM.from_pretrained("m")\n'
                   'Trainer(model=model, args=args).train()\n', (("zero3", True),),
                   note="a model put in eval mode where it loads is a helper (a reward encoder) run whole on each "
                   "rank: not the model DeepSpeed trains")),
    invalid=(Example('from transformers import AutoModelForCausalLM, Trainer, TrainingArguments\n'
                     'model = AutoModelForCausalLM.from_pretrained("m")\n'
                     'args = TrainingArguments("out", deepspeed="ds_z3.json")\n'
                     'Trainer(model=model, args=args).train()\n', (("zero3", True),),
                     fixed='from transformers import AutoModelForCausalLM, Trainer, TrainingArguments\n'
                           'args = TrainingArguments("out", deepspeed="ds_z3.json")\n'
                           'model = AutoModelForCausalLM.from_pretrained("m")\n'
                           'Trainer(model=model, args=args).train()\n'),
             Example('from transformers import AutoModelForCausalLM, Trainer, TrainingArguments\n'
                     'model = AutoModelForCausalLM.from_pretrained("m").requires_grad_(True)\n'
                     'args = TrainingArguments("out", deepspeed="ds_z3.json")\n'
                     'Trainer(model=model, args=args).train()\n', (("zero3", True),),
                     fixed='from transformers import AutoModelForCausalLM, Trainer, TrainingArguments\n'
                           'args = TrainingArguments("out", deepspeed="ds_z3.json")\n'
                           'model = AutoModelForCausalLM.from_pretrained("m").requires_grad_(True)\n'
                           'Trainer(model=model, args=args).train()\n',
                     note="gradients turned on where it loads: the model that trains")),
)
