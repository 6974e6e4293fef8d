"""device-map-requires-low-cpu-mem-usage: ``device_map`` with ``low_cpu_mem_usage=False`` (4.20-4.50)."""

from __future__ import annotations

from typing import Iterator, Tuple

from ... import names as N
from ...knowledge import transformers as TF
from ...model import Evidence, Fix, Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target
from . import ctx, emit
from .model_loads import arg, definitely_falsy, device_map_sources, loads, non_none, received, version_note


def check(t: Target) -> Iterator[Hit]:
    for c, e in loads(t, zero3_only=False):
        raises = c.on_tf(TF.device_map_needs_low_cpu_mem_usage)  # False: on every release the pins allow
        if raises is False:
            continue
        low, dmap = arg(c, e, "low_cpu_mem_usage"), arg(c, e, "device_map")
        bad = non_none(dmap)
        if not definitely_falsy(low) or not bad:
            continue
        assert low is not None and dmap is not None
        from .dataflow import is_guard  # libcst: only for a parsed file

        # `not is_deepspeed_zero3_enabled()`: only under ZeRO-3, so where the non-None device_map is set only with an
        # option no ZeRO-3 launch passes, it is info; a plain False: where no launch at all passes it
        anywhere = not all(is_guard(v.node) is False for v in low.values)
        if not anywhere and ctx(t).zero3 is False:
            continue  # `not is_deepspeed_zero3_enabled()` is True in every launch of this file: no False at all
        ev: Tuple[Evidence, ...] = device_map_sources(c, dmap, bad, e.call)
        ev = ev + (received(c, e),) if ev else ()
        yield from emit(RULE, t, low.anchor,
                        f"device_map with low_cpu_mem_usage=False: ValueError \"{TF.MSG_DEVICE_MAP_NEEDS_LOW_MEM}\" on "
                        f"transformers 4.20-4.50 ({version_note(c)})",
                        fixes=(Fix("drop low_cpu_mem_usage=False, or pass device_map=None", "safe"),),
                        severity=Severity.ERROR if raises else Severity.WARNING, evidence=ev, anywhere=anywhere)


_SCORER = ("class Scorer:\n"
           "    def __init__(self, name, low_cpu_mem_usage=False):\n"
           "        self.model = AutoModelForCausalLM.from_pretrained(\n"
           "            name, device_map=\"auto\", low_cpu_mem_usage=low_cpu_mem_usage)\n\n\n")
RULE = Rule(
    spec(
        N.DEVICE_MAP_REQUIRES_LOW_CPU_MEM_USAGE,
        "python",
        Severity.ERROR,
        summary="device_map together with low_cpu_mem_usage=False (Transformers 4.20-4.50)",
        what="One `from_pretrained` call gets a non-None `device_map` and a falsy `low_cpu_mem_usage` (the Qwen "
         "fine-tuning pattern with `low_cpu_mem_usage` switched off).",
        why="Transformers 4.20-4.50 check this before anything else and raise a ValueError, with or without ZeRO-3; "
        "4.51 dropped the check.",
        fix="Remove `low_cpu_mem_usage=False`, or `device_map=None` (under ZeRO-3 device_map must be None anyway).",
        section="Script"),
    check=check,
    valid=(Example('model = AutoModelForCausalLM.from_pretrained("m", device_map="auto", low_cpu_mem_usage=False)\n',
                   (("transformers", "4.51.0"),)),
           # the class's only call passes low_cpu_mem_usage: __init__'s False default is never the value
           Example(_SCORER + 'scorer = Scorer("m", low_cpu_mem_usage=args.low_cpu_mem_usage)\n',
                   (("transformers", "4.46.3"),)),
           # an ``elif`` arm drops the key before its own load (the arm's condition holds at both)
           Example('def load(name, kwargs):\n    kwargs["device_map"] = "auto"\n    if "llama" in name:\n'
                   '        return AutoModelForCausalLM.from_pretrained(name, **kwargs)\n    elif "qwen" in name:\n'
                   '        del kwargs["device_map"]\n'
                   '        return AutoModelForCausalLM.from_pretrained(name, low_cpu_mem_usage=False, **kwargs)\n',
                   (("transformers", "4.46.3"),)),
           # the same in a branch behind parameters that default off (LLaVA's builder: an audio checkpoint)
           Example('def load(name, audio=False, ckpt=None, device_map="auto"):\n'
                   '    kwargs = {"device_map": device_map}\n    if "lora" in name:\n        if audio and ckpt is not None:\n'
                   '            kwargs.pop("device_map")\n'
                   '            return AutoModelForCausalLM.from_pretrained(name, low_cpu_mem_usage=False, **kwargs)\n',
                   (("transformers", "4.46.3"),))),
    invalid=(Example('model = AutoModelForCausalLM.from_pretrained("m", device_map="auto", low_cpu_mem_usage=False)\n',
                     (("transformers", "4.46.3"),)),
             Example(_SCORER + 'scorer = Scorer("m")\n', (("transformers", "4.46.3"),))),
)
