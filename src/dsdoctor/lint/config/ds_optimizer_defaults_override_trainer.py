"""ds-optimizer-defaults-override-trainer: a config's Adam / AdamW block leaves out a parameter the HF Trainer only
fills where the block says "auto", so DeepSpeed's default replaces the value the launch passes."""

from __future__ import annotations

import dataclasses
from typing import Dict, Iterator, List, Optional, Tuple

from ... import names as N
from ...hjsondoc import Node
from ...knowledge import adam_defaults as AD
from ...knowledge import transformers as TF
from ...model import Fix, Severity
from ..rule import Edit, Example, Hit, Rule, spec
from ..target import Target
from .fields import add_member

KEYS = ("lr", "betas", "eps", "weight_decay")
_ADAM = ("adam", "adamw")  # DeepSpeed's names, compared lower-case as its config does


def _ds_default(t: Target, key: str) -> Optional[Tuple[float, ...]]:
    """What both Adam classes a block may build give ``key`` (every release read, else the DeepSpeed assumed)."""
    got = set()
    for cls in (AD.GPU, AD.OFFLOAD):
        v = AD.default(cls, key, None)
        v = AD.default(cls, key, str(t.usage.ds)) if v is None else v
        if v is None:
            return None
        got.add(tuple(float(x) for x in v) if isinstance(v, list) else (float(v),))  # type: ignore[arg-type]
    return got.pop() if len(got) == 1 else None


def _ignored(t: Target, missing: List[str]) -> List[Tuple[str, str]]:
    """(launch, "key (DeepSpeed's default D) vs --option V") of the first launch whose asked values differ."""
    checked = {k.split(".")[-1]: (opts, stock) for k, opts, stock in TF.TRAINER_CHECKED if k.startswith("optimizer.")}
    for where, values, defaulted in t.usage.trainer_launches:
        out = []
        for key in missing:
            opts, stock = checked[key]
            asked = tuple(values.get(o) for o in opts)
            ds = _ds_default(t, key)
            if ds is None or any(v is None for v in asked) or asked == ds:
                continue
            if all(o in defaulted for o in opts) and asked == tuple(float(s) for s in stock):
                continue  # the launch asks nothing: TrainingArguments' own default
            said = ", ".join(f"--{o} {v:g}" if o not in defaulted else f"{o} {v:g} (the entry's default)"
                             for o, v, s in zip(opts, asked, stock) if o not in defaulted or v != s)
            dflt = ", ".join(f"{x:g}" for x in ds)
            out.append((where, f"{key} (DeepSpeed's default {'[' + dflt + ']' if len(ds) > 1 else dflt}) vs {said}"))
        if out:
            return out
    return []


def check(t: Target) -> Iterator[Hit]:
    root = t.doc.root if t.doc else None
    if root is None or root.kind != "object" or not t.usage.trainer_launches:
        return
    block = root.get("optimizer")
    kind = block.get("type") if block is not None and block.kind == "object" else None
    if block is None or kind is None or not isinstance(kind.value, str) or kind.value.lower() not in _ADAM:
        return
    params = block.get("params")
    if params is not None and params.kind != "object":
        return
    torch_adam = params.get("torch_adam") if params is not None else None
    if torch_adam is not None and torch_adam.value is not False:
        return  # torch.optim's Adam: other defaults, not read here
    missing = [k for k in KEYS if (params is None or params.get(k) is None)
               and not (k == "lr" and root.get("scheduler") is not None)]  # a scheduler block sets the rate itself
    found = _ignored(t, missing)
    if not found:
        return
    keys = [f.split(" ")[0] for _, f in found]
    edit = _edit(t, params, keys)
    autos = [f'"{k}": "auto"' for k in keys]
    yield RULE.hit(t, (params or kind).start, f"the config's {kind.value} block has no {', '.join(keys)}: DeepSpeed's "
                   f"defaults replace what the launch at {found[0][0]} asks: {'; '.join(f for _, f in found)}",
                   fixes=(Fix(f"add {', '.join(autos)} to the block's params (the Trainer "
                              "fills them from its arguments)", edit.applicability if edit else "safe",
                              tuple(autos)),),
                   edits=(edit,) if edit else ())


def _edit(t: Target, params: Optional[Node], keys: List[str]) -> Optional[Edit]:
    how = "unsafe" if t.usage.loaded_by_assumed else "safe"
    first = add_member(t, params, keys[0], '"auto"', how, "fill from the Trainer") if params is not None else None
    if first is None:
        return None
    sep = first.new[:first.new.index('"')]
    return dataclasses.replace(first, new=first.new + "".join(f'{sep}"{k}": "auto"' for k in keys[1:]))


_ARGS: Dict[str, float] = {"learning_rate": 2e-5, "adam_beta1": 0.9, "adam_beta2": 0.95, "adam_epsilon": 1e-8,
                           "weight_decay": 0.0}
_LAUNCH = (("trainer_launches", (("run.sh:3", _ARGS, ("adam_beta1", "adam_epsilon", "weight_decay")),)),
           ("loaded_by", "trainer"))
RULE = Rule(
    spec(
        N.DS_OPTIMIZER_DEFAULTS_OVERRIDE_TRAINER,
        "ds_config",
        Severity.WARNING,
        summary="A config's Adam block leaves out lr / betas / eps / weight_decay: DeepSpeed's defaults replace the "
                "launch's values",
        what="A ds_config an HF Trainer launch of the project loads, whose \"optimizer\" block (type Adam or AdamW, "
             "not torch_adam) has no lr, betas, eps or weight_decay, where the launch asks another value than "
             "DeepSpeed's default for it: --learning_rate (when the config has no \"scheduler\" block, which sets "
             "the rate itself), --adam_beta1 / --adam_beta2, --adam_epsilon, --weight_decay, passed or declared as "
             "the entry's own default. Nothing where the launch leaves them at TrainingArguments' defaults.",
        why="The Trainer fills only the keys that say \"auto\" and compares only the keys that are there "
            "(transformers HfTrainerDeepSpeedConfig.fill_match); a key left out reaches DeepSpeed's FusedAdam, or "
            "DeepSpeedCPUAdam under optimizer offload, which use their own defaults (lr 1e-3, betas [0.9, 0.999], "
            "eps 1e-8, weight_decay 0 in every release read). The run trains with other hyper-parameters than "
            "the launch says, and nothing tells.",
        fix="Add the keys to the block's params as \"auto\" (the Trainer fills them from its arguments), or write "
            "the values you want there."),
    check=check,
    valid=(Example('{"optimizer": {"type": "AdamW", "params": {"lr": "auto", "betas": "auto", "eps": "auto", '
                   '"weight_decay": "auto"}}}', _LAUNCH),
           Example('{"optimizer": {"type": "AdamW", "params": {"lr": "auto", "betas": [0.9, 0.95]}}}', _LAUNCH,
                   note="eps and weight_decay: the launch asks DeepSpeed's defaults"),
           Example('{"optimizer": {"type": "AdamW", "params": {"lr": "auto", "torch_adam": true}}}', _LAUNCH,
                   note="torch.optim's AdamW: not judged")),
    invalid=(Example('{\n  "optimizer": {\n    "type": "AdamW",\n    "params": {\n      "lr": "auto"\n    }\n  }\n}',
                     _LAUNCH, note="--adam_beta2 0.95 is ignored: the run uses 0.999",
                     fixed='{\n  "optimizer": {\n    "type": "AdamW",\n    "params": {\n      "lr": "auto",\n'
                           '      "betas": "auto"\n    }\n  }\n}'),),
)
