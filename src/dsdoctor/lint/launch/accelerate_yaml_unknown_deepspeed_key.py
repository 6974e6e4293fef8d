"""accelerate-yaml-unknown-deepspeed-key: a deepspeed_config key `accelerate launch` does not know (ignored)."""

from __future__ import annotations

import difflib
from typing import Iterator

from ... import names as N
from ...knowledge import transformers as TF
from ...model import Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target


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
        sug = [] if value is None else difflib.get_close_matches(key, TF.ACCELERATE_DEEPSPEED_FIELDS, n=1, cutoff=0.75)
        what = ("a nested DeepSpeed JSON block, which accelerate does not read (only its flat fields such as "
                "offload_param_device; full DeepSpeed JSON goes in a deepspeed_config_file)") if value is None \
            else "accelerate ignores it"
        same = key in TF.ACCELERATE_PLUGIN_AUTO_KEYS and str(value).strip("'\"") == "auto"
        if same:
            what += ', and the config it builds has "auto" there anyway: nothing changes'
        yield RULE.hit(t, starts[line - 1] + col - 1,
                       f"deepspeed_config.{key} is not an accelerate DeepSpeed field: {what}"
                       + (f"; did you mean {sug[0]!r}?" if sug else ""),
                       fixes=(Fix(f"rename to {sug[0]!r}", "unsafe", (), "a guess from the spelling"),) if sug else
                       (Fix("use accelerate's field for it, or move the DeepSpeed settings to a deepspeed_config_file",
                            "unsafe"),), severity=Severity.INFO if same else None)


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
        "deepspeed_config_file.",
        section="Launch"),
    check=check,
    valid=(Example("distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 3\n  offload_param_device: cpu\n"),
           Example("distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 1\n  train_micro_batch_size_per_gpu: auto\n",
                   note="ignored, but the config accelerate builds has \"auto\" there anyway (info)")),
    invalid=(Example("distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 3\n  offload_param:\n"
                     "    device: cpu\n"),
             Example("distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 3\n  zero3_save_16bit_models: true\n")),
)
