"""Which Python files need no libcst analysis: no script rule can fire on them, known from their text and the
project's context before parsing (issue 18: libcst's parse is most of a whole-repository lint's time).

:func:`dsdoctor.lint.script.make_target` decides a file's ZeRO-3 context; when it is off, only the rules that do
not depend on it can fire (``device-map-requires-low-cpu-mem-usage``, ``removed-transformers-deepspeed-import``,
``ds-skip-cuda-check-ineffective``, the inline ds_config variants, ``script-unparseable``). A file is *quiet* when

- its text lacks what those rules look for (:func:`ungated`: ``deepspeed`` with ``initialize`` or a
  transformers import, ``HfDeepSpeedConfig``, ``DS_SKIP_CUDA_CHECK``, ``low_cpu_mem_usage`` with
  ``device_map``), and
- its context is off whatever its own code says: a test file or another engine's (``never_zero3``); or the
  script cannot find a ZeRO-3 config itself (none of the calls :func:`~dsdoctor.lint.script.local.script_zero3`
  reads is named in its text) and its context is off (a launch context that is off, a project that never names
  DeepSpeed), or it does not train (:func:`~dsdoctor.lint.script._trains`: none of the names it looks for) and
  is neither imported by a ZeRO-3 launch nor given a ZeRO-3 context by the user.

A quiet file is only syntax-checked with the stdlib parser, as a file none of whose names a rule reads; when that
fails, libcst parses it as before (the same ``script-unparseable`` message). A rule added to the script rules
that fires without a ZeRO-3 context must name its trigger in :func:`ungated` (``tests/test_lint_quiet.py`` runs
every script rule's examples both ways).
"""

from __future__ import annotations

import os
import re
from typing import Optional

from ...knowledge import transformers as TF
from ...knowledge.ds_cuda_check import SKIP_CUDA_CHECK_VAR
from ..target import Usage
from .context import asked

_ARG_CLASSES = tuple(c for c in TF.ZERO3_REGISTERING_CLASSES if c not in ("Accelerator", "HfDeepSpeedConfig"))
_ARGS = "|".join(_ARG_CLASSES)
_SP = r"(?:\s|\\)"  # whitespace or a line continuation
# What the script rules that fire without a ZeRO-3 context look for, with ``deepspeed`` in the text: a raw
# deepspeed.initialize (inline configs), an import of transformers.deepspeed (``from transformers import
# deepspeed``); :func:`ungated` also looks for HfDeepSpeedConfig, DS_SKIP_CUDA_CHECK and low_cpu_mem_usage with
# device_map.
UNGATED = re.compile(rf"\binitialize\b|transformers{_SP}*\.{_SP}*deepspeed|"
                     rf"\bfrom{_SP}+transformers{_SP}+import{_SP}*(?:\([^)]*|(?:[^\n;\\]|\\\n)*)\bdeepspeed\b")
# What script_zero3 reads a config from: a ``deepspeed=`` keyword, a ``deepspeed`` dataclass field or argparse
# dest (``--deepspeed``), HfDeepSpeedConfig, DeepSpeedPlugin; or a config keyword of an initialize call or of
# TrainingArguments & co. (their subclasses defined in the file name them as bases): :func:`own_config` wants both.
OWN_CONFIG = re.compile(r"\bdeepspeed\s*[:=]|[\"'](?:--)?deepspeed[\"']|HfDeepSpeedConfig|DeepSpeedPlugin")
_CONFIG_KW = re.compile(r"\b(?:config|config_params|hf_ds_config|config_file_or_dict)\s*=")
_CALLEE = re.compile(rf"\binitialize(?:\s|\\|#[^\n]*)*\(|\b(?:{_ARGS})\b")
# What _trains looks for: imports of DeepSpeed / the Trainer / accelerate / TRL, --deepspeed, and the register,
# initialize, trainer and hfds events (argument classes, Accelerator, HfArgumentParser's parse_* methods).
TRAINS = re.compile(rf"(?i:deepspeed|accelerate|trl|trainer|hfargumentparser)|\binitialize\b|\b(?:{_ARGS})\b|"
                    r"\bparse_(?:args_into_dataclasses|json_file|yaml_file|dict|args_and_config)\b")


def ungated(text: str) -> bool:
    """Does the text name what a script rule that fires without a ZeRO-3 context looks for?"""
    return "HfDeepSpeedConfig" in text or SKIP_CUDA_CHECK_VAR in text or \
        ("deepspeed" in text and UNGATED.search(text) is not None) or \
        ("low_cpu_mem_usage" in text and "device_map" in text)


def own_config(text: str) -> bool:
    """Can the script's own code name a ds_config (:func:`~dsdoctor.lint.script.local.script_zero3`)? (Each
    pattern searched only where the words it needs are in the text: the same answer, without scanning most
    files three times.)"""
    if ("deepspeed" in text or "DeepSpeed" in text) and OWN_CONFIG.search(text):
        return True
    callee = "initialize" in text or any(a in text for a in _ARG_CLASSES)
    return bool(callee and "config" in text and _CONFIG_KW.search(text) and _CALLEE.search(text))


def quiet(path: str, text: str, usage: Usage, zero3: Optional[bool], source: str) -> bool:
    """Can no script rule fire on the file (``zero3``, ``source``: its context before its own code is read)?"""
    if ungated(text):
        return False
    norm = os.path.normpath(path)
    if norm in usage.never_zero3:
        return True
    if own_config(text):
        return False
    if zero3 is False or (zero3 is None and not asked(source) and norm in usage.no_deepspeed):
        return True
    return not asked(source) and norm not in usage.imported and not TRAINS.search(text)
