"""Fill lint's base Usage for Python scripts: the project's ZeRO-3 context, ``[tool.dsdoctor]`` of its
pyproject.toml (``target``, ``select``, ``ignore``, ``zero3``) and the Transformers version (``--target
transformers==X`` first, then pyproject's ``target``, else the checked environment's package metadata)."""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence

from ..target import Usage
from .context import installed, parse_targets, project_zero3


def pyproject_tool(paths: Sequence[str]) -> Dict[str, Any]:
    """``[tool.dsdoctor]`` of the nearest pyproject.toml above the linted scripts (empty when none / unreadable;
    needs tomllib (3.11+) or tomli)."""
    try:
        import tomllib as toml  # type: ignore[import-not-found,unused-ignore]
    except ImportError:  # pragma: no cover - Python < 3.11
        try:
            import tomli as toml  # type: ignore[import-not-found,no-redef,unused-ignore]
        except ImportError:
            return {}
    seen = set()
    for p in paths:
        d = os.path.dirname(os.path.abspath(p))
        for _ in range(6):
            if d in seen:
                break
            seen.add(d)
            f = os.path.join(d, "pyproject.toml")
            if os.path.isfile(f):
                try:
                    with open(f, "rb") as fh:
                        tool = toml.load(fh).get("tool", {}).get("dsdoctor", {})
                except (OSError, ValueError):
                    return {}
                return tool if isinstance(tool, dict) else {}
            parent = os.path.dirname(d)
            if parent == d:
                break
            d = parent
    return {}


def python_usage(base: Usage, kinds: Dict[str, str], targets: Sequence[str], python: Optional[str],
                 zero_stage: Optional[int] = None) -> None:
    from ..discover import _read

    if zero_stage is not None:
        base.zero3, base.zero3_source = zero_stage == 3, f"--zero-stage {zero_stage}"
    else:
        base.zero3, base.zero3_source = project_zero3(kinds, _read)
    scripts = sorted(p for p, k in kinds.items() if k == "python")
    base.tool = pyproject_tool(scripts)
    if base.zero3 is None and isinstance(base.tool.get("zero3"), bool):
        base.zero3, base.zero3_source = base.tool["zero3"], "[tool.dsdoctor] zero3 in pyproject.toml"
    wanted = parse_targets(targets)
    source = "--target"
    if "transformers" not in wanted:
        tool_targets: List[str] = [t for t in base.tool.get("target", []) if isinstance(t, str)]
        try:
            wanted = parse_targets(tool_targets)
        except ValueError:
            wanted = {}
        source = "[tool.dsdoctor] target"
    if "transformers" in wanted:
        base.transformers, base.transformers_source = wanted["transformers"], source
        return
    found = installed(python, ("transformers",))
    if "transformers" in found:
        base.transformers = found["transformers"]
        base.transformers_source = f"installed in {python}" if python else "installed"
