"""accelerate-yaml-unknown-deepspeed-key: a deepspeed_config key `accelerate launch` does not know (ignored)."""

from __future__ import annotations

import difflib
from typing import Any, Dict, Iterator, Optional, Tuple

from ... import names as N
from ...knowledge import accelerate as ACC
from ...knowledge import ds_config as DC
from ...knowledge import transformers as TF
from ...knowledge.zero_defaults import same_as_default
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target

# ignored keys whose value is what the run gets anyway: one stage of pipeline / tensor parallelism (none)
_ONE = ("pipeline_parallel_size", "tensor_parallel_size")
# a nested block -> the flat field accelerate reads for its "device"
_FLAT_DEVICE = {"offload_optimizer": "offload_optimizer_device", "offload_param": "offload_param_device"}


def _block(text: str, line: int, col: int) -> Dict[str, str]:
    """The scalar children of the nested block whose key is at ``line``/``col`` (1-based): ``device: none``."""
    out: Dict[str, str] = {}
    for raw in text.splitlines()[line:]:
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        indent = len(raw) - len(raw.lstrip())
        if indent < col:
            break
        k, sep, v = raw.strip().partition(":")
        if sep:
            out[k.strip()] = v.split("#")[0].strip().strip("'\"").lower()
    return out


def _restates(y: Any, key: str, value: Any, children: Dict[str, str], ds: str) -> bool:
    """Does the ignored ``key`` only say what the run gets anyway: ``pipeline_parallel_size: 1``,
    ``data_parallel_size`` equal to num_processes, ``bf16_enabled: true`` under ``mixed_precision: bf16``, a nested
    ``offload_param: {device: X}`` where accelerate's ``offload_param_device`` is X, a ``bf16: {enabled: true}``
    under ``mixed_precision: bf16``, a ``zero_optimization`` field at DeepSpeed ``ds``'s default
    (``reduce_bucket_size: 5e8``; knowledge/zero_defaults)?"""
    precision = str(y.top.get("mixed_precision", ("no",))[0]).lower()  # the half-precision dtype the run gets
    if value is not None:
        procs = y.top.get("num_processes", (None,))[0]
        switch = key in ("bf16_enabled", "fp16_enabled") and str(value).lower() == str(precision == key[:4]).lower()
        return switch or same_as_default(key, value, ds) or (key in _ONE and value == 1) or \
            (key == "data_parallel_size" and procs is not None and value == procs)
    if key in _FLAT_DEVICE and "device" in children and (set(children) == {"device"} or (
            children["device"] == "none" and set(children) <= {"device", "pin_memory"})):  # no offload: no pinning
        return children["device"] == str(y.ds.get(_FLAT_DEVICE[key], ("none",))[0]).lower()
    if key in ("bf16", "fp16") and set(children) == {"enabled"}:
        return children["enabled"] in ("auto", str(precision == key).lower())  # "auto": what the launch decides
    return False


def check(t: Target) -> Iterator[Hit]:
    from ..accelerate import parse

    y = parse(t.text)
    if y is None:
        return
    starts = [0]
    for text_line in t.text.splitlines(keepends=True):
        starts.append(starts[-1] + len(text_line))
    for key, (value, (line, col)) in y.ds.items():
        if key in TF.ACCELERATE_DEEPSPEED_FIELDS:
            continue
        # launch copies every deepspeed_config key onto its arguments: a key named as one sets it
        if value is not None and (key in y.top or key in ACC.launch_arguments()):
            yield _launch_field(t, starts[line - 1] + col - 1, key, value, y.top.get(key))
            continue
        sug = [] if value is None else difflib.get_close_matches(key, TF.ACCELERATE_DEEPSPEED_FIELDS, n=1, cutoff=0.75)
        what = ("a nested DeepSpeed JSON block, which accelerate does not read (only its flat fields such as "
                "offload_param_device; full DeepSpeed JSON goes in a deepspeed_config_file)") if value is None \
            else "accelerate ignores it"
        same = key in TF.ACCELERATE_PLUGIN_AUTO_KEYS and str(value).strip("'\"") == "auto"
        if same:
            what += ', and the config it builds has "auto" there anyway: nothing changes'
        elif key in DC.CHECKPOINTING_API_BLOCKS and value is None:
            same = True
            what += (", and even in a DeepSpeed JSON only deepspeed.checkpointing's own API reads it (Megatron-style "
                     "models): a Transformers model's gradient checkpointing never does")
        elif key in TF.ACCELERATE_SCRIPT_OWNED_KEYS:
            same = True
            what += (", and the config it builds takes this from the training script (its DataLoader's batch size, "
                     "TrainingArguments, the optimizer and scheduler it builds): set it there")
        elif _restates(y, key, value, _block(t.text, line, col), str(t.usage.ds)):
            same = True
            what += ", and it says what the run gets anyway (a default, or accelerate's own field): nothing changes"
        yield RULE.hit(t, starts[line - 1] + col - 1,
                       f"deepspeed_config.{key} is not an accelerate DeepSpeed field: {what}"
                       + (f"; did you mean {sug[0]!r}?" if sug else ""),
                       fixes=(_rename(sug[0]),) if sug else (
                           Fix("use accelerate's field for it, or move the DeepSpeed settings to a deepspeed_config_file",
                            "unsafe"),), severity=Severity.INFO if same else None)


def _rename(field: str) -> Fix:
    """The fix of a key spelled near one of accelerate's fields. ``gradient_clipping`` left out is "auto" in the
    plugin accelerate builds (DeepSpeedPlugin.__post_init__, read in 1.4.0), which the HF Trainer fills from
    max_grad_norm, and it refuses any other number there (transformers' mismatch check)."""
    if field == "gradient_clipping":
        return Fix("rename to 'gradient_clipping' with the run's max_grad_norm as its value, or drop the key: "
                   "accelerate's default \"auto\" takes max_grad_norm, and under the HF Trainer another number "
                   "stops the run with a mismatch error", "unsafe", (), "a guess from the spelling")
    return Fix(f"rename to {field!r}", "unsafe", (), "a guess from the spelling")


def _launch_field(t: Target, pos: int, key: str, value: Any, top: Optional[Tuple[Any, Any]]) -> Hit:
    """A nested key named as an argument of `accelerate launch` (``main_process_port``, derived from its releases:
    knowledge/accelerate.py), often one of the YAML's own top-level fields (``mixed_precision``, ``top``: its entry
    there, value first; None where the YAML has none): launch sets its argument of that name from it (commands/launch.py, read in
    0.12.0, 0.29.2, 1.16.0: each deepspeed_config key the command line does not give sets the argument of its name,
    which then wins over the top-level field): it takes effect; the same value changes nothing; another one replaces
    the top-level field's."""
    if top is None:
        return RULE.hit(t, pos, f"deepspeed_config.{key} is not an accelerate DeepSpeed field: launch copies it onto "
                                f"its --{key} argument (unless the command line gives one), where it takes effect: "
                                "it belongs at the top level", severity=Severity.INFO)
    if str(value).lower() == str(top[0]).lower():
        return RULE.hit(t, pos, f"deepspeed_config.{key} is not an accelerate DeepSpeed field: launch copies it onto "
                                f"its --{key} argument, the value the top-level {key} gives: nothing changes",
                        severity=Severity.INFO)
    return RULE.hit(t, pos, f"deepspeed_config.{key}: {value} is not an accelerate DeepSpeed field: launch copies it "
                            f"onto its --{key} argument, over the top-level {key}: {top[0]}",
                    fixes=(Fix(f"keep one {key}, at the top level", "unsafe"),))


RULE = Rule(
    spec(
        N.ACCELERATE_YAML_UNKNOWN_DEEPSPEED_KEY,
        "accelerate",
        Severity.WARNING,
        summary="An accelerate config YAML's deepspeed_config has a key accelerate does not know (silently ignored)",
        what="A key under deepspeed_config of an accelerate config YAML that is not one of `accelerate launch`'s "
         "DeepSpeed fields (zero_stage, offload_param_device, zero3_save_16bit_model, deepspeed_config_file, ...): "
         "typically a DeepSpeed JSON block such as offload_param: {device: cpu} pasted into the YAML.",
        why="accelerate builds the ranks' environment and its DeepSpeedPlugin only from its own fields and says "
        "nothing about the others: the setting silently has no effect (e.g. no parameter offload).",
        fix="Use accelerate's flat field (offload_param_device: cpu), or put the DeepSpeed JSON in a file named by "
        "deepspeed_config_file. A key whose value is what the run gets anyway (DeepSpeed's default for a "
        "zero_optimization field on the release judged, as derived from its sdists; `pipeline_parallel_size: 1`; "
        "what accelerate's own fields already set) is info: nothing changes; so is an activation_checkpointing "
        "block (only deepspeed.checkpointing's own API reads it, never a Transformers model). A key named as one of the YAML's "
        "top-level fields (mixed_precision) is no DeepSpeed setting: launch copies it onto its argument of that "
        "name, over the top-level value (info where they agree).",
        section="Launch"),
    check=check,
    valid=(Example("distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 3\n  offload_param_device: cpu\n"),
           Example("distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 1\n  train_micro_batch_size_per_gpu: auto\n",
                   note="ignored, but the config accelerate builds has \"auto\" there anyway (info)"),
           Example("distributed_type: DEEPSPEED\nmixed_precision: bf16\nnum_processes: 8\ndeepspeed_config:\n"
                   "  zero_stage: 3\n  offload_param_device: none\n  tensor_parallel_size: 1\n  data_parallel_size: 8\n"
                   "  offload_param:\n    device: none\n  bf16:\n    enabled: true\n  fp16:\n    enabled: auto\n"
                   "  bf16_enabled: true\n",
                   note="ignored, but each says what the run gets anyway (info)"),
           Example("distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 2\n  contiguous_gradients: true\n"
                   "  reduce_bucket_size: 5e8\n  stage3_prefetch_bucket_size: 50000000\n",
                   note="ignored, but each is DeepSpeed's default for the key, derived from its releases (info)"),
           Example("distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 3\n  train_batch_size: 32\n"
                   "  optimizer:\n    type: AdamW\n    params:\n      lr: 5.0e-5\n",
                   note="ignored: the run takes its batch, optimizer and scheduler from the training script (info)"),
           Example("distributed_type: DEEPSPEED\nmixed_precision: bf16\ndeepspeed_config:\n  zero_stage: 2\n"
                   "  mixed_precision: bf16\n", note="launch copies it onto --mixed_precision: the top-level value (info)"),
           Example("distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 2\n  activation_checkpointing:\n"
                   "    partition_activations: true\n",
                   note="ignored, and only deepspeed.checkpointing's API would read it (info)"),
           Example("distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 2\n  main_process_port: 29600\n",
                   note="launch copies it onto --main_process_port, where it takes effect (info)")),
    invalid=(Example("distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 3\n  offload_param:\n"
                     "    device: cpu\n"),
             Example("distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 3\n  zero3_save_16bit_models: true\n"),
             Example("distributed_type: DEEPSPEED\nmixed_precision: bf16\ndeepspeed_config:\n  zero_stage: 2\n"
                     "  mixed_precision: fp16\n", note="launch copies the nested key over the top-level bf16"),
             Example("distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 2\n  gradient_clip: 0.5\n",
                     note="near gradient_clipping: the fix says to give it max_grad_norm's value or drop it")),
)
