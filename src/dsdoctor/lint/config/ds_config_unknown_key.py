"""ds-config-unknown-key: a key DeepSpeed does not know (did-you-mean)."""

from __future__ import annotations

import difflib
from typing import Dict, Iterator, List, Optional, Tuple

from ... import names as N
from ...hjsondoc import Member, Node
from ...knowledge import deepspeed as K
from ...knowledge.transformers import TRAINER_CHECKED
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from .fields import rename_edit

_ALL_TOP = set(K.TOP_LEVEL_KEYS)
# a TrainingArguments option written as a top-level key (``max_grad_norm``): the DeepSpeed key the Trainer fills from it
_TRAINER_NAMES = {opts[0]: key for key, opts, _ in TRAINER_CHECKED if "." not in key and len(opts) == 1 and opts[0] != key}


def _suggest(key: str, choices: List[str]) -> str:
    got = difflib.get_close_matches(key, choices, n=1, cutoff=0.75)
    return got[0] if got else ""


def _other_versions(keys: Tuple[K.ConfigKey, ...], name: str) -> str:
    for k in keys:
        if k.name == name:
            if k.since:
                return f"(it exists from DeepSpeed {k.since})" if not k.until else f"(DeepSpeed {k.since}-{k.until})"
            if k.until:
                return f"(last in DeepSpeed {k.until})"
    return ""


def _nested_home(key: str) -> str:
    """The validated block (``zero_optimization``) that has ``key`` as one of its own keys, else ""."""
    for path, (keys, _) in K.VALIDATED_BLOCKS.items():
        if len(path) == 1 and any(k.name == key for k in keys):
            return path[0]
    return ""


def check(t: Target) -> Iterator[Hit]:
    root = t.doc.root if t.doc else None
    if root is None or root.kind != "object":
        return
    ds = t.usage.ds
    removed = set(K.removed_top_level(ds)) | set(K.removed_zero(ds))
    present = {m.key for m in root.members}
    for m in root.members:
        if m.key in K.INTEGRATION_TOP_KEYS and m.key not in _ALL_TOP:
            yield RULE.hit(t, m.start, f"top-level key {m.key!r}: {K.INTEGRATION_TOP_KEYS[m.key]}",
                           "Stock DeepSpeed ignores it; it is no misspelt key.", severity=Severity.INFO)
            continue
        if m.key not in _ALL_TOP and m.key not in removed:
            sug = _TRAINER_NAMES.get(m.key, "")  # the Trainer's name for a DeepSpeed key, else a near spelling;
            sug = "" if sug in present else sug or _suggest(m.key, sorted(_ALL_TOP - present))  # never one set already
            home = "" if sug else _nested_home(m.key)
            if home:  # a block's key written at the top level (``offload_optimizer``): its setting is lost too
                note, moot = _moot(root, m.key, home)
                yield RULE.hit(t, m.start, f"unknown top-level key {m.key!r}: it belongs in {home}, where DeepSpeed "
                               "reads it" + note,
                               "DeepSpeed silently ignores unknown top-level keys: the setting has no "
                               f"effect until it moves into {home}" + (f"; {moot}: nothing changes." if moot else "."),
                               severity=Severity.INFO if moot else Severity.WARNING)
                continue
            # a misspelt key's setting is silently lost (a warning); any other extra key is a note to the reader;
            # a misspelt batch key whose value DeepSpeed works out anyway changes nothing either
            same = _derived_equal(t, sug, m.value.value) if sug else ""
            yield RULE.hit(t, m.start, f"unknown top-level key {m.key!r}" + (
                               f" (did you mean {sug!r}?){same}" if same else f": did you mean {sug!r}?" if sug
                               else ": DeepSpeed ignores it"),
                           "DeepSpeed silently ignores unknown top-level keys, so the setting has no effect"
                           + (f" ({sug!r} keeps its default)." if sug and not same else "." if same else
                              "; nothing fails, unless your own code reads it from the config."),
                           fixes=(Fix(f"rename to {sug!r}", "unsafe", (), "a guess from the spelling"),) if sug else (),
                           edits=(rename_edit(t, m, sug, "unsafe"),) if sug else (),
                           severity=Severity.WARNING if sug and not same else Severity.INFO)
    for path, (keys, _) in K.VALIDATED_BLOCKS.items():
        where = ".".join(path)
        node = root.get(*path)
        if node is None and path == ("bf16",) and root.get("bfloat16") is not None:
            node, where = root.get("bfloat16"), "bfloat16"  # get_bfloat16_config: the old name, read when bf16 is absent
        if node is None or node.kind != "object":
            continue
        accepted: Dict[str, K.ConfigKey] = K.config_keys_for(keys, ds)
        unset = sorted(set(accepted) - {m.key for m in node.members})  # what an unknown key there may misspell
        validated = K.block_validated(path, ds)
        unknown = [m for m in node.members
                   if m.key not in accepted and not (path == ("zero_optimization",) and m.key in removed)]
        rejected = [m for m in unknown if validated and not _is_auto(m.value)]
        # pydantic rejects every extra key of a block in one ValidationError: one finding per block
        if rejected:
            yield _block_hit(t, where, keys, unset, rejected,
                             f"pydantic rejects {'it' if len(rejected) == 1 else 'them'} (extra=\"forbid\"): "
                             + "; ".join(f"`{where}.{m.key}  Extra inputs are not permitted`" for m in rejected) + ".",
                             Severity.ERROR)
        ignored = [m for m in unknown if m not in rejected]
        if ignored:
            why = ("DeepSpeed drops keys whose value is \"auto\" before validating, so it is ignored."
                   if validated else f"DeepSpeed {ds} does not validate {where} and ignores the key.")
            # as at the top level: a misspelt key's setting is lost (a warning); another extra key changes nothing,
            # and so does a misspelt one set to its key's default (``bf16.enable: false``)
            sugs = [(m, _suggest(m.key, unset)) for m in ignored]
            other = _other_precision_on(root, path, sugs)
            misspelt = any(_lost(path, m, sug) for m, sug in sugs) and not other
            since = K.VALIDATED_BLOCKS[path][1]
            later = f" DeepSpeed {since} and later reject it (pydantic): an upgrade stops on it." \
                if not validated and since else ""
            at_default = next((sug for _, sug in sugs if sug), "") if not misspelt and not other else ""
            yield _block_hit(t, where, keys, unset, ignored, why + (
                             f" Its value is the default of {where}.{at_default} anyway." if at_default else "") + (
                             f" Spelt right it would turn {where} on beside {other}, which DeepSpeed refuses "
                             f"(`{K.MSG_FP16_BF16}`): the run trains in {other}; delete the block." if other else "") + (
                             "" if misspelt else
                             " Nothing fails and no setting of DeepSpeed's changes, unless your own code reads it.")
                             + later, Severity.WARNING if misspelt else Severity.INFO, rename=not other)


_BATCH = ("train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps")


def _derived_equal(t: Target, key: str, value: object) -> str:
    """When ``key`` is a batch key the config leaves out and DeepSpeed works out ``value`` for it anyway from the
    other batch keys and the launch's world size (knowledge ``batch_sizes``; without a known world size, only a
    value no world size changes): a note saying so ("" otherwise): the misspelt key changes nothing."""
    if key not in _BATCH or t.node(key) is not None or not isinstance(value, int) or isinstance(value, bool):
        return ""
    have = {k: n.value for k in _BATCH if (n := t.node(k)) is not None}
    if any(not isinstance(v, int) or isinstance(v, bool) or v <= 0 for v in have.values()):
        return ""
    ws = t.usage.world_size

    tb, mb, ga = have.get(_BATCH[0]), have.get(_BATCH[1]), have.get(_BATCH[2])

    def derived(world: int) -> int:
        return dict(zip(_BATCH, K.batch_sizes(tb, mb, ga, world)))[key]
    try:
        got, other = derived(ws or 1), derived(2 * (ws or 1))
    except ValueError:  # neither train_batch_size nor the micro batch: DeepSpeed stops on the config anyway
        return ""
    if got != value or (other != got and not ws):
        return ""
    at = f" at world size {ws} ({t.usage.world_size_source})" if ws and other != got else ""
    return f": DeepSpeed works out {key} = {value}{at} from the other batch keys anyway, so nothing changes"


def _other_precision_on(root: Node, path: Tuple[str, ...], sugs: List[Tuple[Member, str]]) -> str:
    """``bf16: {"enable": true}`` beside ``fp16: {"enabled": true}`` (or the reverse): the misspelt switch is dead,
    and spelt right DeepSpeed refuses both on; the other block's name ("" otherwise)."""
    other = {"bf16": "fp16", "fp16": "bf16"}.get(path[0]) if len(path) == 1 else None
    on = root.get(other, "enabled") if other else None
    if on is None or on.value is not True or not any(sug == "enabled" and m.value.value is True for m, sug in sugs):
        return ""
    return other or ""


def _lost(path: Tuple[str, ...], m: Member, sug: str) -> bool:
    """Is the setting of the misspelt key ``m`` (spelling ``sug`` in block ``path``) lost? Not where its value is
    what DeepSpeed uses for ``sug`` anyway (knowledge ``BLOCK_KEY_DEFAULTS``)."""
    if not sug:
        return False
    key = (path[-1], sug)
    return key not in K.BLOCK_KEY_DEFAULTS or m.value.value != K.BLOCK_KEY_DEFAULTS[key]


def _block_hit(t: Target, where: str, keys: Tuple[K.ConfigKey, ...], accepted: List[str], members: List[Member],
               why: str, severity: Severity, rename: bool = True) -> Hit:
    """One finding for the unknown keys ``members`` of one block, at the first; each has its did-you-mean (and,
    with ``rename``, the rename as its fix)."""
    notes: List[str] = []  # per key: the releases that have it, the did-you-mean
    fixes: List[Fix] = []
    edits = []
    for m in members:
        sug = _suggest(m.key, accepted)
        other = _other_versions(keys, m.key)
        notes.append((f" {other}" if other else "") + (f": did you mean {sug!r}?" if sug else ""))
        if sug and rename:
            fixes.append(Fix(f"rename {m.key!r} to {sug!r}", "unsafe", (), "a guess from the spelling"))
            edits.append(rename_edit(t, m, sug, "unsafe"))
    ds = t.usage.ds
    if len(members) == 1:
        title = f"unknown key {where}.{members[0].key!r} for DeepSpeed {ds}{notes[0]}"
    else:
        title = f"unknown keys in {where} for DeepSpeed {ds}: " + "; ".join(
            f"{m.key!r}{n}" for m, n in zip(members, notes))
    return RULE.hit(t, members[0].start, title, why, tuple(fixes), tuple(edits), severity)


def _stage(root: Node) -> Optional[int]:
    """The config's ZeRO stage when it is written as a number, else None ("auto", absent: not known here)."""
    node = root.get("zero_optimization", "stage")
    v = node.value if node is not None else None
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _moot(root: Node, key: str, home: str) -> Tuple[str, str]:
    """(what to add to the title, why the key would change nothing in its block either) for a block's key written
    at the top level: a stage-3 key in a stage 1/2 config, an fp16 key in a config without fp16; ("", "") else."""
    stage = _stage(root)
    if key in K.ZERO3_ONLY_KEYS and stage is not None and stage < 3:
        return f" at stage 3 (this config is stage {stage})", f"at stage {stage} it has none there either"
    if home == "fp16" and _fp16_off(root):
        return " (fp16 is off here)", "fp16 is off in this config: loss scaling never runs"
    return "", ""


def _fp16_off(root: Node) -> bool:
    """Does the config train without fp16: ``fp16.enabled`` false, or no fp16 block beside ``bf16.enabled`` true
    (an "auto" switch is decided by the launch: not known here)?"""
    on = root.get("fp16", "enabled")
    if root.get("fp16") is not None:
        return on is not None and on.value is False
    bf16 = root.get("bf16", "enabled") or root.get("bfloat16", "enabled")
    return bf16 is not None and bf16.value is True


def _is_auto(n: Node) -> bool:
    return bool(n.value == "auto")


RULE = Rule(
    spec(
        N.DS_CONFIG_UNKNOWN_KEY,
        "ds_config",
        Severity.ERROR,
        summary="A key the installed DeepSpeed does not know",
        what="Keys that are not fields of the installed DeepSpeed's config models, with a did-you-mean suggestion; one "
         "finding per block (pydantic rejects all of a block's extra keys in one ValidationError). "
         "An error inside zero_optimization / offload_* / fp16 / bf16 (0.17.1+ for fp16/bf16), where pydantic "
         "rejects it; at the top level, where DeepSpeed silently ignores it, a warning when it is a misspelling of a "
         "known key the config does not set already, the HF Trainer's name for one (`max_grad_norm` for `gradient_clipping`, "
         "`per_device_train_batch_size` for `train_micro_batch_size_per_gpu`: the options the Trainer fills them from), "
         "or a key of a block written at the top level (`offload_optimizer` outside `zero_optimization`): "
         "that setting keeps its default (info for a stage-3 key in a stage 1/2 config and for an fp16 key in a config "
         "that trains without fp16, where it changes nothing, and "
         "for a misspelt batch key whose value DeepSpeed works out anyway from the other batch keys and the launch's "
         "world size); "
         "info otherwise (a key DeepSpeed never reads). The same inside a block "
         "a release does not validate (fp16 / bf16 before 0.17.1) or for an \"auto\" value DeepSpeed drops: a warning "
         "for a misspelling (`bf16.enable: true`: bf16 stays off), info for another key (`fp16.opt_level`, Apex's) "
         "and for a misspelling set to the default of the key it stands for (`bf16.enable: false`).",
        why="Inside validated blocks DeepSpeed raises a ValidationError; at the top level a typo silently does nothing.",
        fix="Rename the key (the suggested spelling is offered as an unsafe fix)."),
    check=check,
    valid=(Example('{"zero_optimization": {"stage": 3, "stage3_prefetch_bucket_size": "auto", "overlap_comm": true}}'),
           Example('{"zero_optimization": {"stage": 1}, "stage3_gather_16bit_weights_on_model_save": false}',
                   note="a stage-3 key outside its block in a stage-1 config: info, it changes nothing there either"),
           Example('{"bf16": {"enabled": true}, "fp16": {"enabled": false}, "loss_scale_window": 400}',
                   note="an fp16 key outside its block in a config that trains in bf16: info, loss scaling never runs"),
           Example('{"train_batch_size": 16, "train_micro_batch_size_per_gpu": 8, "gradient_accumulation": 1}',
                   (("world_size", 2),), note="a misspelt batch key with the value DeepSpeed derives (16 / 8 / 2): "
                   "info, nothing changes"),
           Example('{"fp16": {"enabled": true}, "bf16": {"enable": false}}', (("ds", "0.9.3"),),
                   note="a misspelling set to the default of the key it stands for, where bf16 is not validated: "
                   "info, bf16 stays off either way"),
           Example('{"fp16": {"enabled": true}, "bf16": {"enable": true}}', (("ds", "0.9.2"),),
                   note="a misspelt bf16 switch beside fp16 on: info, the run trains in fp16, and spelt right "
                   "DeepSpeed would refuse both on (no rename offered)"),
           Example('{"zero_optimization": {"stage": 2}, "msamp": {"enabled": true, "opt_level": "O2"}}',
                   note="MS-AMP's block, which accelerate writes for its FP8 msamp backend: info, not a misspelt amp")),
    invalid=(Example('{"zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu", "pinmemory": true}}}'),
             Example('{"train_batch_size": 8, "gradient_clip": 1.0}'),
             Example('{"train_batch_size": 8, "max_grad_norm": 0.5}',
                     note="the HF Trainer's name for gradient_clipping (its option max_grad_norm): clipping stays at "
                     "DeepSpeed's default"),
             Example('{"zero_optimization": {"stage": 3}, "stage3_max_live_parameters": 1e8}',
                     note="a stage-3 key outside zero_optimization in a stage-3 config: DeepSpeed keeps its default"),
             Example('{"bf16": {"enabled": true, "loss_scale": 0}}')),
)
