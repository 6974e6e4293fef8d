"""Fill lint's base Usage for Python scripts: the project's ZeRO-3 context and the Transformers version
(``--target transformers==X`` first, else the checked environment's package metadata)."""

from __future__ import annotations

from typing import Dict, Optional, Sequence

from ..target import Usage
from .context import installed, parse_targets, project_zero3


def python_usage(base: Usage, kinds: Dict[str, str], targets: Sequence[str], python: Optional[str]) -> None:
    from ..discover import _read

    base.zero3, base.zero3_source = project_zero3(kinds, _read)
    wanted = parse_targets(targets)
    if "transformers" in wanted:
        base.transformers, base.transformers_source = wanted["transformers"], "--target"
        return
    found = installed(python, ("transformers",))
    if "transformers" in found:
        base.transformers = found["transformers"]
        base.transformers_source = f"installed in {python}" if python else "installed"
