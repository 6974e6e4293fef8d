"""What each HF Trainer launch of a config sets where the Trainer checks the config against its arguments
(ds-config-trainer-mismatch): the value the launch passes (``--gradient_accumulation_steps 4``), else the default
the code its entry reaches declares for the option, else TrainingArguments' own
(:data:`~dsdoctor.knowledge.transformers.TRAINER_CHECKED`). A default only where nothing else can set the option:
the entry builds no TrainingArguments in code nor reads them from a file the launch does not name (TrlParser's
``--config $RECIPE``), and the launch passes no argument unknown here (``$EXTRA_ARGS``) and is no README's (often
abridged) command; a TRL config has learning rates of its own. Only launches whose entry
parses TrainingArguments (or a TRL config) from its command line and builds an HF Trainer count."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable, Dict, List, Optional, Tuple

from ..knowledge import trl as TRLK
from ..knowledge.transformers import TRAINER_CHECKED, TRAINER_CHECKED_SWITCHES, TRAINER_CLASS, TRL_CONFIGS
from ..literal_gate import gated
from .defaults import CONFLICT
from .entry_options import given

if TYPE_CHECKING:
    from .entry_texts import EntryTexts
    from .launched import _Entries
    from .recipe import Recipe

Values = Dict[str, float]  # option -> the value the run gets (only the known ones)
Launch = Tuple[str, Values, Tuple[str, ...]]  # where the launch is, its values, the options left at a default
_TRL = gated(r"\b" + TRL_CONFIGS + r"\b")  # a TRL config class: another default learning rate
# the options a TRL config defaults otherwise than TrainingArguments: its own learning rates; bf16, on unless fp16
# from TRL 0.19 (which TRL release runs is not known here, so neither default is assumed)
_TRL_OWN_DEFAULTS = {"learning_rate": "", "bf16": TRLK.BF16_ON_BY_DEFAULT_SINCE}
# training arguments built in code (not a subclass's definition: ``class TrainingArguments(transformers...)``): the
# code's values, not the defaults
_BUILT = gated(r"(?<!class )\b\w*TrainingArguments\s*\(")
# arguments read from a file the launch names (TrlParser's ``--config recipe.yaml``): where the launch's --config
# is not known (``--config $recipe``), the options it leaves out may be set there (a YAML it names is read:
# lint/recipe_yaml.py training_yaml)
_FROM_FILE = gated(r"\b(?:parse_args_and_config|parse_yaml_file|parse_json_file)\s*\(")
# a parser of the command line over training arguments: HfArgumentParser((..., TrainingArguments)), TrlParser((...,
# SFTConfig)); not one over the script's own plain dataclass (old TRL's PPOConfig is built in code, not parsed)
PARSES_TRAINING_ARGS = gated(r"\b(?:HfArgumentParser|TrlParser)\s*\(\s*[\[(]?[^)\]]*?\b(?:\w*TrainingArguments|"
                + TRL_CONFIGS + r")\b")


def trainer_launches(recipes: List["Recipe"], entries: "_Entries") -> Dict[str, List[Launch]]:
    """Config (a ds_config a launch hands over, or its accelerate YAML) -> each HF Trainer launch's values."""
    out: Dict[str, List[Launch]] = {}
    for r in recipes:
        e = r.entry
        if r.launcher is None or e is None or e not in entries.graph or not entries.uses(e, "trainer"):
            continue
        texts = entries.texts(e)
        if not texts.has(PARSES_TRAINING_ARGS) or not texts.once(_hf_trainer, _hf_trainer):
            continue
        values, defaulted = _values(r, entries, texts)
        for cfg in [*r.configs, *([r.yaml] if r.yaml else [])]:
            out.setdefault(cfg, []).append((r.where, values, defaulted))
    return out


def _values(r: "Recipe", entries: "_Entries", texts: "EntryTexts") -> Tuple[Values, Tuple[str, ...]]:
    assert r.entry is not None
    defaults = _defaults(r, entries, texts)
    out: Values = {}
    defaulted: List[str] = []
    for _, options, hf in TRAINER_CHECKED:
        for opt, dflt in zip(options, hf):
            if opt in out:
                continue
            if opt in TRAINER_CHECKED_SWITCHES and f"{opt}_full_eval" in r.flags:
                continue  # --bf16_full_eval turns the check's side on too: not judged
            passed = opt in r.flags  # ``Recipe.flags``: ``name`` and, with a known value, ``name=value``
            vals = given(r.flags, opt) if passed else set()
            one = next(iter(vals)) if len(vals) == 1 else None
            got = defaults(opt, dflt) if not passed else None if len(vals) > 1 else \
                _switch(one) if opt in TRAINER_CHECKED_SWITCHES else _number(one)
            if got is not None:
                out[opt] = got
                defaulted += [] if passed else [opt]
    return out, tuple(defaulted)


def _defaults(r: "Recipe", entries: "_Entries", texts: "EntryTexts") -> Callable[[str, float], Optional[float]]:
    """The default an option the launch does not pass takes: the one the entry's code declares, else
    TrainingArguments' (not under TRL's configs: their learning rates, and bf16, on by default from TRL 0.19); None
    where something else may set it."""
    assert r.entry is not None
    unread = "config" in r.flags and not given(r.flags, "config") and texts.has(_FROM_FILE)
    if r.opaque or unread or r.file.lower().endswith((".md", ".rst", ".txt", ".ipynb")) or \
            texts.has(_BUILT):
        return lambda opt, dflt: None
    trl = texts.has(_TRL)
    declared = entries.defaults(r.entry)

    def default(opt: str, dflt: float) -> Optional[float]:
        own = declared.get(opt)
        if own is not None:
            return _number(own) if own != CONFLICT else None
        return None if trl and opt in _TRL_OWN_DEFAULTS else dflt
    return default


_MADE = gated(r"(?<!class )\b(" + TRAINER_CLASS + r")\s*\(")
_CLASS = re.compile(r"^[ \t]*class[ \t]+(\w+)[ \t]*(?:\(([^)]*)\))?[ \t]*:", re.M)


def _hf_trainer(texts: List[str]) -> bool:
    """Does code an entry reaches (``texts``) build an HF Trainer (only its deepspeed_init runs the check): a
    ``*Trainer`` it does not define (Transformers' or TRL's), or a class of its own that derives from one; not a
    trainer class of its own that calls deepspeed.initialize itself (LOMO's ``class LOMOTrainer:``)."""
    bases = {m.group(1): m.group(2) or "" for t in texts for m in _CLASS.finditer(t)}

    def hf(name: str, depth: int = 0) -> bool:
        if name not in bases:
            return True
        own = [b.strip().split(".")[-1] for b in bases[name].split(",") if "Trainer" in b]
        return depth < 5 and any(hf(b, depth + 1) for b in own)
    return any(hf(m.group(1)) for t in texts for m in _MADE.finditer(t))


def _switch(text: Optional[str]) -> Optional[float]:
    """A switch given bare (``--bf16``) or with a value (``--bf16 True``; ``False`` never gets here): 1.0 on."""
    return 1.0 if text is None or text.lower() in ("true", "1", "yes") else None


def _number(text: Optional[str]) -> Optional[float]:
    try:
        return float(text) if text is not None else None
    except ValueError:
        return None
