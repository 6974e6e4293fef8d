"""Which Python files need no libcst analysis: no script rule can fire on them, known from their text and the
project's context before parsing (issue 18: libcst's parse is most of a whole-repository lint's time).

:func:`dsdoctor.lint.script.make_target` decides a file's ZeRO-3 context; when it is off, only the rules that do
not depend on it can fire (``device-map-requires-low-cpu-mem-usage``, ``removed-transformers-deepspeed-import``,
``ds-skip-cuda-check-ineffective``, ``zero-init-below-stage3``, the inline ds_config variants,
``script-unparseable``). A file is *quiet* when

- its text lacks what those rules look for (:func:`ungated`: ``deepspeed`` with ``initialize``, ``Init`` or a
  transformers import, ``HfDeepSpeedConfig``, ``DS_SKIP_CUDA_CHECK``, ``low_cpu_mem_usage`` with
  ``device_map`` at a ``from_pretrained``), and
- either the text lacks what every other rule's events need (:func:`gated`: a per-rule necessary condition in
  words, e.g. ``BitsAndBytesConfig`` with ``load_in_4bit`` for ``qlora-quant-storage-missing``,
  ``from_pretrained`` with ``device_map`` for ``zero3-device-map-conflict``), or its context is off whatever its
  own code says: a test file or another engine's (``never_zero3``); or the script cannot find a ZeRO-3 config
  itself (none of the calls :func:`~dsdoctor.lint.script.local.script_zero3` reads is named in its text) and
  its context is off (a launch context that is off, a project that never names DeepSpeed), or it does not train
  (:func:`~dsdoctor.lint.script._trains`: none of the names it looks for) and is neither imported by a ZeRO-3
  launch nor given a ZeRO-3 context by the user.

A quiet file is only syntax-checked with the stdlib parser, as a file none of whose names a rule reads; when that
fails, libcst parses it as before (the same ``script-unparseable`` message). A rule added to the script rules
that fires without a ZeRO-3 context must name its trigger in :func:`ungated`, any other its entry in
:data:`GATED` (``tests/test_lint_quiet.py`` checks each rule has one, and runs every script rule's examples both
ways).
"""

from __future__ import annotations

import os
import re
from typing import Callable, Dict, Optional, Tuple

from ... import literal_gate
from ... import names as N
from ...knowledge import transformers as TF
from ...knowledge import trl as TRL
from ...knowledge.ds_cuda_check import SKIP_CUDA_CHECK_VAR
from ..target import Usage
from .context import asked
from .values import COLLECTIVE_SAVES, MODEL_CTOR_SUFFIXES, MODEL_MAKERS
from .values import UNSUPPORTED_QUANT_CONFIGS as UNSUPPORTED

_ARG_CLASSES = tuple(c for c in TF.ZERO3_REGISTERING_CLASSES if c not in ("Accelerator", "HfDeepSpeedConfig"))
_ARGS = "|".join(_ARG_CLASSES)
_SP = r"(?:\s|\\)"  # whitespace or a line continuation
# What the script rules that fire without a ZeRO-3 context look for, with ``deepspeed`` in the text: a raw
# deepspeed.initialize (inline configs), deepspeed.zero.Init (below stage 3), an import of transformers.deepspeed
# (``from transformers import deepspeed``); :func:`ungated` also looks for HfDeepSpeedConfig, DS_SKIP_CUDA_CHECK
# and low_cpu_mem_usage with device_map.
UNGATED = literal_gate.gated(rf"\binitialize\b|\bInit\b|transformers{_SP}*\.{_SP}*deepspeed|"
                             rf"\bfrom{_SP}+transformers{_SP}+import{_SP}*(?:\([^)]*|(?:[^\n;\\]|\\\n)*)\bdeepspeed\b")
# What script_zero3 reads a config from: a ``deepspeed=`` keyword, a ``deepspeed`` dataclass field or argparse
# dest (``--deepspeed``), HfDeepSpeedConfig, DeepSpeedPlugin; or a config keyword of an initialize call or of
# TrainingArguments & co. (their subclasses defined in the file name them as bases): :func:`own_config` wants both.
OWN_CONFIG = literal_gate.gated(r"\bdeepspeed\s*[:=]|[\"'](?:--)?deepspeed[\"']|HfDeepSpeedConfig|DeepSpeedPlugin")
_CONFIG_KW = literal_gate.gated(r"\b(?:config|config_params|hf_ds_config|config_file_or_dict)\s*=")
_CALLEE = literal_gate.gated(rf"\binitialize(?:\s|\\|#[^\n]*)*\(|\b(?:{_ARGS})\b")
# What _trains looks for: imports of DeepSpeed / the Trainer / accelerate / TRL, --deepspeed, and the register,
# initialize, trainer and hfds events (argument classes, Accelerator, HfArgumentParser's parse_* methods).
_TRAINS_WORDS = ("deepspeed", "accelerate", "trl", "trainer", "hfargumentparser")  # in any case
_TRAINS_REST = rf"\binitialize\b|\b(?:{_ARGS})\b|\bparse_(?:args_into_dataclasses|json_file|yaml_file|dict|args_and_config)\b"
TRAINS = re.compile(rf"(?i:{'|'.join(_TRAINS_WORDS)})|{_TRAINS_REST}")
_TRAINS_CASED = literal_gate.gated(_TRAINS_REST)
_FOLDS_TO_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")


def trains(text: str) -> bool:
    """``TRAINS.search(text)``, its case-insensitive words looked up in the lower-cased text where that is the
    same: no character that lower-cases to ASCII or that ``re.IGNORECASE`` matches to an ASCII letter (U+0130,
    U+0131, U+017F, U+212A: the only ones) is in the text."""
    if not text.isascii() and any(c in text for c in _FOLDS_TO_ASCII):
        return TRAINS.search(text) is not None
    low = text.lower()
    return any(w in low for w in _TRAINS_WORDS) or _TRAINS_CASED.search(text) is not None


# What each rule that needs a ZeRO-3 context reads, as words its events and arguments cannot do without (a
# necessary condition, never a sufficient one: :func:`gated`). :func:`ungated` is false when GATED is asked, so
# the text has no ``deepspeed.initialize`` (an initialize event needs ``deepspeed`` and the word initialize).
# A load event: a from_pretrained / from_config / _from_config call or a ``XForCausalLM(...)``-style constructor
# (dataflow.MODEL_CTOR); a model: a load or a MODEL_MAKERS call; a registration: the argument classes (a subclass
# defined in the file names its base), Accelerator, an HfArgumentParser ``parse_*`` method (HfDeepSpeedConfig
# makes :func:`ungated` true).
_LOAD = ("from_pretrained", "from_config", *MODEL_CTOR_SUFFIXES)
_MODEL = (*_LOAD, *MODEL_MAKERS)
_REGISTERS = literal_gate.gated(rf"\b(?:{'|'.join(TF.ZERO3_REGISTERING_CLASSES)})\b|"
                                r"\bparse_(?:args_into_dataclasses|json_file|yaml_file|dict|args_and_config)\b")
_TAKES = literal_gate.gated(r"Trainer\b|\bprepare\b")
# zero3-save-on-rank0-only's rank-0 tests: the words of its names, calls and flags
_RANK0 = ("rank", "process_index", "main_process", "should_save", "is_world_process_zero")
# zero3-unsupported-quantization: an 8-bit load, or a quantization_config of a format ZeRO-3 cannot partition
_QUANT = (*UNSUPPORTED, TRL.QUANTIZATION_CONFIG, "load_in_8bit")


def _has(text: str, words: Tuple[str, ...]) -> bool:
    return any(w in text for w in words)


# rule name -> can its events be in the text? (the arguments a load-time rule reads are written as keywords or
# dict keys of the file: ``Values.argument``)
GATED: Dict[str, Callable[[str], bool]] = {
    N.ZERO3_SAVE_ON_RANK0_ONLY: lambda t: _has(t, COLLECTIVE_SAVES) and _has(t, _RANK0),  # a gather, rank 0 only
    N.ZERO3_UNSAFE_SAVE: lambda t: "save_pretrained" in t or ("state_dict" in t and "save" in t),
    N.MODEL_LOADED_BEFORE_DS_CONFIG: lambda t: _has(t, _LOAD) and _REGISTERS.search(t) is not None,
    # a model's move, then a Trainer (a class name ending in Trainer) or an ``accelerator.prepare`` call
    N.MODEL_MOVED_BEFORE_INITIALIZE: lambda t: _has(t, _MODEL) and _TAKES.search(t) is not None,
    N.HF_DEEPSPEED_CONFIG_NOT_KEPT: lambda t: "HfDeepSpeedConfig" in t,
    N.PEFT_CHECKPOINTING_REENTRANT: lambda t: "peft" in t and "gradient_checkpointing" in t,
    N.PREPARE_KBIT_UNDER_ZERO3: lambda t: "prepare_model_for_kbit_training" in t,
    N.QLORA_QUANT_STORAGE_MISSING: lambda t: "BitsAndBytesConfig" in t and "load_in_4bit" in t,
    N.ZERO3_DEVICE_MAP_CONFLICT: lambda t: "from_pretrained" in t and "device_map" in t,
    N.ZERO3_LOW_CPU_MEM_USAGE_CONFLICT: lambda t: "from_pretrained" in t and "low_cpu_mem_usage" in t,
    N.ZERO3_UNSUPPORTED_QUANTIZATION: lambda t: "from_pretrained" in t and _has(t, _QUANT),
}


# the script rules :func:`ungated` stands for (and the inline ds_config variants, found by deepspeed.initialize /
# HfDeepSpeedConfig); every other script rule has its entry in GATED (tests/test_lint_quiet.py)
UNGATED_RULES = (N.DEVICE_MAP_REQUIRES_LOW_CPU_MEM_USAGE, N.REMOVED_TRANSFORMERS_DEEPSPEED_IMPORT,
                 N.DS_SKIP_CUDA_CHECK_INEFFECTIVE, N.SCRIPT_UNPARSEABLE, N.ZERO_INIT_BELOW_STAGE3,
                 N.SCRIPT_TRAILING_NULL_BYTES)


def gated(text: str) -> bool:
    """Does the text name what some rule that needs a ZeRO-3 context looks for (:data:`GATED`)?"""
    return any(can(text) for can in GATED.values())


def ungated(text: str) -> bool:
    """Does the text name what a script rule that fires without a ZeRO-3 context looks for?"""
    return "HfDeepSpeedConfig" in text or SKIP_CUDA_CHECK_VAR in text or \
        ("deepspeed" in text and UNGATED.search(text) is not None) or \
        ("low_cpu_mem_usage" in text and "device_map" in text and "from_pretrained" in text)


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
    if not gated(text):
        return True  # whatever its context: no rule's events are in the text
    norm = os.path.normpath(path)
    if norm in usage.never_zero3:
        return True
    if own_config(text):
        return False
    if zero3 is False or (zero3 is None and not asked(source) and norm in usage.no_deepspeed):
        return True
    return not asked(source) and norm not in usage.imported and not trains(text)
