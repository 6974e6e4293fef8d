"""TrainingArguments' fields per Transformers release, read from the API history (``data/api.json.gz``: the
parameters of ``TrainingArguments.__init__``, which its dataclass fields make), and what HfArgumentParser does with a
command-line option that no dataclass it parses into has. Answers only about the releases read."""

from __future__ import annotations

import functools
from typing import Any, Dict, FrozenSet, Optional

from . import api_history, derived_data
from .release_spans import Span

MODULE, INIT = "transformers.training_args", "TrainingArguments.__init__"
# lint's part of the API history (scripts/upstream/derive_api.py writes it beside api.json.gz): the rows of the
# callables every lint run asks of, so that a lint never reads the whole 1.6 MB history (0.2 s of its ~0.5 s start)
LINT_DATA = derived_data.path("api_lint.json.gz")
# transformers/hf_argparser.py HfArgumentParser.parse_args_into_dataclasses, every release read (messages data):
# raised unless the caller asks for the remaining strings (return_remaining_strings=True)
MSG_NOT_USED = "Some specified arguments are not used by the HfArgumentParser: {}"
# the field that replaced a removed one (read in 5.24.0's training_args.py: eval_strategy from 4.41.0, use_cpu from
# 4.32.0; warmup_steps takes a float below 1 as the ratio of the total steps in 5.x)
RENAMED = {"evaluation_strategy": "eval_strategy", "no_cuda": "use_cpu", "warmup_ratio": "warmup_steps"}


@functools.lru_cache(maxsize=1)
def fields() -> Dict[str, Span]:
    """Each field some release read of TrainingArguments has, with the releases that have it (from lint's part of
    the history where it has the row, as it does unless the install lost the file)."""
    got = lint_params(MODULE, INIT) or api_history.params(MODULE, INIT) or {}
    return {k: v for k, v in got.items() if k.isidentifier() and k != "self"}


@functools.lru_cache(maxsize=1)
def _lint_data() -> Dict[str, Any]:
    return derived_data.load(LINT_DATA, {"params": {}})


def lint_params(module: str, qualname: str) -> Optional[Dict[str, Span]]:
    """:func:`api_history.params` of a callable lint's part holds (None for the others)."""
    row = _lint_data()["params"].get(module, {}).get(qualname)
    if row is None:
        return None
    package = module.split(".")[0]
    read = api_history.releases(package)  # as api_history's own spans are made
    return {k: Span.of(package, read, v) for k, v in row.items()}


def newest() -> Optional[str]:
    """The newest Transformers release read."""
    read = api_history.releases("transformers")
    return read[-1] if read else None


@functools.lru_cache(maxsize=None)  # one entry per release asked (a range's releases: every one read)
def _of(version: str) -> Optional[FrozenSet[str]]:
    """The fields of Transformers ``version``; None where not known."""
    read = api_history.releases("transformers")
    if version in read:  # a release read: its index in each field's ranges (no version parsing per field)
        i = read.index(version)
        return frozenset(k for k, s in fields().items() if any(lo <= i <= hi for lo, hi in s.ranges))
    has = {k: s.has(version) for k, s in fields().items()}
    return None if any(v is None for v in has.values()) else frozenset(k for k, v in has.items() if v)


def lacks(option: str, version: str) -> Optional[bool]:
    """Does the TrainingArguments of Transformers ``version`` take no ``--option`` (``-`` as ``_``) that some other
    release read has? Not where ``--option`` is the ``--no_<field>`` of a field it has, or a prefix of one
    (argparse's abbreviations). None where unknown (outside the releases read) or no release read has the field."""
    if option not in fields():
        return None
    own = _of(version)
    if own is None:
        return None
    if option in own or any(f.startswith(option) for f in own):
        return False
    return not (option.startswith("no_") and option[3:] in own)
