"""ds-config-given-twice: a launch gives ``--deepspeed_config`` to a script that also passes a config to
``deepspeed.initialize`` (a DeepSpeed-Chat-style ``config=ds_config`` next to ``args=args``).

Only where the entry script is the project's own file, registers the option (``deepspeed.add_config_arguments``
or its own ``--deepspeed_config``), calls ``deepspeed.initialize`` with both ``args=`` and a ``config=`` /
``config_params=`` that is not ``None``, and never clears ``args.deepspeed_config``."""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Dict, Iterator, List, Sequence, Tuple

from ... import names as N
from ...knowledge import deepspeed as K
from ...model import Severity
from ..rule import Example, Hit, Rule, spec
from ..target import Target

if TYPE_CHECKING:
    from ..recipe import Recipe

_REGISTERS = re.compile(r"add_config_arguments\s*\(|[\"']--deepspeed_config[\"']")
_CLEARS = re.compile(r"\.deepspeed_config\s*=\s*None|del\s+[\w.]+\.deepspeed_config\b|"
                     r"delattr\s*\([^)]*[\"']deepspeed_config[\"']")


def twice_configs(recipes: Sequence["Recipe"]) -> Dict[str, List[Tuple[int, str]]]:
    """Shell script -> (line, entry script) of its launches that give ``--deepspeed_config`` to an entry script
    which also hands deepspeed.initialize a config of its own."""
    from ..discover import _read

    out: Dict[str, List[Tuple[int, str]]] = {}
    for r in recipes:
        if r.entry is None or "deepspeed_config" not in r.flags:
            continue
        path, _, line = r.where.rpartition(":")
        if path.endswith((".sh", ".bash", ".slurm", ".sbatch")) and passes_own_config(_read(r.entry)):
            out.setdefault(path, []).append((int(line), r.entry))
    return out


def passes_own_config(text: str) -> bool:
    """Does the script register ``--deepspeed_config`` and call deepspeed.initialize with ``args=`` and a config
    of its own, without clearing ``args.deepspeed_config``?"""
    if "initialize" not in text or not _REGISTERS.search(text) or _CLEARS.search(text):
        return False
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _is_initialize(node.func):
            kw = {k.arg: k.value for k in node.keywords if k.arg}
            own = [kw[k] for k in ("config", "config_params") if k in kw]
            if "args" in kw and any(not (isinstance(c, ast.Constant) and c.value is None) for c in own):
                return True
    return False


def _is_initialize(func: ast.expr) -> bool:
    return isinstance(func, ast.Attribute) and func.attr == "initialize" and \
        isinstance(func.value, ast.Name) and func.value.id == "deepspeed"


def check(t: Target) -> Iterator[Hit]:
    lines = t.text.split("\n")
    for line, entry in t.usage.twice_launches:
        pos = sum(len(x) + 1 for x in lines[:line - 1])
        at = t.text.find("--deepspeed_config", pos)
        if t.usage.ds < K.CONFIG_TWICE_SINCE:
            yield RULE.hit(t, at if at >= 0 else pos,
                           f"--deepspeed_config is given to {entry}, which also passes its own config to "
                           f"deepspeed.initialize: DeepSpeed {t.usage.ds} uses that config and ignores the file; "
                           f"from {K.CONFIG_TWICE_SINCE} on the run stops with an AssertionError",
                           severity=Severity.INFO)
            continue
        yield RULE.hit(t, at if at >= 0 else pos,
                       f"--deepspeed_config is given to {entry}, which also passes its own config to "
                       f"deepspeed.initialize: `AssertionError: Not sure how to proceed, {K.MSG_CONFIG_TWICE}` at "
                       f"startup ({t.usage.ds_source or f'DeepSpeed {t.usage.ds}'})")


RULE = Rule(
    spec(
        N.DS_CONFIG_GIVEN_TWICE,
        "shell",
        Severity.ERROR,
        summary="A launch gives --deepspeed_config to a script that passes its own config to deepspeed.initialize",
        what="A shell launch passes `--deepspeed_config FILE` to a project script that registers the option "
        "(`deepspeed.add_config_arguments`) and calls `deepspeed.initialize(args=args, config=...)` (or "
        "`config_params=`) with a config of its own, as DeepSpeed-Chat's training scripts do.",
        why="From DeepSpeed 0.9.0 (read in deepspeed/__init__.py, 0.9.0-0.19.8) `initialize` asserts that only one "
        "of the two is given: `AssertionError: Not sure how to proceed, we were given deepspeed configs in the "
        "deepspeed arguments and deepspeed.initialize() function call`, before anything trains. Up to 0.8.3 the "
        "config argument won and the file was silently ignored.",
        fix="Drop `--deepspeed_config` from the launch (the script builds its config), or pass the file and drop "
        "`config=` from the call. Reported as info for a pinned DeepSpeed older than 0.9.0.",
        section="Launch"),
    check=check,
    valid=(Example("deepspeed train.py --deepspeed --zero_stage 3\n"),
           Example("deepspeed train.py --deepspeed --deepspeed_config ds.json\n",
                   note="train.py reads its config from the option only")),
    # the project model finds, for each launch line, whether its entry script also passes a config of its own
    invalid=(Example("deepspeed train.py --deepspeed --deepspeed_config ds.json\n",
                     options=(("twice_launches", [(1, "train.py")]),),
                     note="train.py calls deepspeed.initialize(args=args, config=ds_config)"),),
)
