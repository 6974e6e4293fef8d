"""Fix builders shared by every command, so one problem always gets the same advice."""

from __future__ import annotations

import shlex
from typing import Optional

from .knowledge.deepspeed import DEEPSPEED_ENV_FILE
from .model import Applicability, Fix


def env_fix(
    name: str,
    value: str,
    title: str,
    applicability: Applicability = "safe",
    reason: str = "",
    launcher: str = "deepspeed train.py ...",
) -> Fix:
    """An environment variable fix in every form a user needs.

    The ``deepspeed`` launcher has no ``--export`` flag and forwards only some prefixes to other nodes,
    so multi-node runs need the ``.deepspeed_env`` line.
    """
    q = shlex.quote(value)
    forms = (
        ("one-off", f"{name}={q} {launcher}"),
        ("shell-rc", f"echo 'export {name}={q}' >> ~/.bashrc"),
        ("in-script", f'import os; os.environ["{name}"] = {value!r}  # first lines of train.py, before DeepSpeed loads the op'),
        ("deepspeed_env", f"echo '{name}={value}' >> ./{DEEPSPEED_ENV_FILE}  # multi-node: read on every node"),
    )
    return Fix(
        title=title,
        applicability=applicability,
        commands=(f"export {name}={q}",),
        reason=reason,
        forms=forms,
    )


def pip_fix(requirement: str, title: str, python: Optional[str] = None, reason: str = "") -> Fix:
    py = shlex.quote(python) if python else "python"
    return Fix(
        title=title,
        applicability="safe",
        commands=(f"{py} -m pip install {shlex.quote(requirement)}",),
        reason=reason,
    )


def command_fix(title: str, *commands: str, applicability: Applicability = "safe", reason: str = "") -> Fix:
    return Fix(title=title, applicability=applicability, commands=tuple(commands), reason=reason)
