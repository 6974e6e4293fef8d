"""Options several commands share, each declared once (a :func:`dsdoctor.cliparse.option` field per use).

Every function returns a new field: a command's ``Options`` lists its options in ``--help`` order."""

from __future__ import annotations

from typing import Any, List

from ..cliparse import choice, enum_metavar, option
from ..exitcodes import FailOn
from ..render.formats import Format

DS_CONFIG_HELP = "The DeepSpeed config you train with"


def python(help: str = "Interpreter whose environment is checked (default: this one).") -> Any:
    """``--python``."""
    return option("--python", help=help)


def loaded_by() -> Any:
    """``--loaded-by`` trainer, accelerate or deepspeed (``lint``, ``fix``)."""
    return option("--loaded-by", choices=("trainer", "accelerate", "deepspeed"),
                  help="How the ds_configs are loaded: the HF Trainer, accelerate, or raw deepspeed.initialize "
                  "(default: from the project's launch files and scripts; a config with \"auto\" values is taken as "
                  "the HF Trainer's).")


def fmt() -> Any:
    """``--format/-f`` text, json, sarif or github (a :class:`~dsdoctor.render.formats.Format`)."""
    return option("--format", "-f", default=Format.text, type=choice(Format), metavar=enum_metavar(Format),
                  help="Output format.")


def text_or_json() -> Any:
    """``--format/-f`` text or json (``rules``, ``rule``)."""
    return option("--format", "-f", default="text", choices=("text", "json"), metavar="[text|json]",
                  help="Output format.")


def verbose() -> Any:
    """``--verbose/-v``."""
    return option("--verbose", "-v", default=False, action="store_true",
                  help="Show evidence, explanations and every fix form.")


def fail_on() -> Any:
    """``--fail-on`` (a :class:`~dsdoctor.exitcodes.FailOn`)."""
    return option("--fail-on", type=choice(FailOn), metavar=enum_metavar(FailOn), help="Exit 1 when a finding has at "
                  "least this severity (default: fail-on in the configuration, else error).")


def exit_zero() -> Any:
    """``--exit-zero``."""
    return option("--exit-zero", default=False, action="store_true", help="Exit 0 even when findings are reported "
                  "(2 still means dsdoctor failed).")


def config() -> Any:
    """``--config``: dsdoctor's own configuration file."""
    return option("--config", help="Configuration file (pyproject.toml with [tool.dsdoctor], or "
                  "dsdoctor.toml); default: the nearest one above the paths / the current directory.")


def target() -> Any:
    """``--target`` (repeatable)."""
    empty: List[str] = []
    return option("--target", default=empty, action="append", help="Versions to lint scripts for, e.g. "
                  "transformers==4.46 (repeatable).")


def zero_stage() -> Any:
    """``--zero-stage``."""
    return option("--zero-stage", type=int, help="The ZeRO stage the scripts run with (else from the project).")


def sniff() -> Any:
    """``--sniff``."""
    return option("--sniff", default=False, action="store_true", help="Skip named JSON/YAML files that are not "
                  "DeepSpeed / accelerate configs (for pre-commit, which passes every changed file).")


def no_lint(help: str) -> Any:
    """``--no-lint``."""
    return option("--no-lint", default=False, action="store_true", help=help)


def ds_config(help: str) -> Any:
    """``--ds-config``: the DeepSpeed config."""
    return option("--ds-config", help=help)
