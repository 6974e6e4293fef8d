"""The project's own functions that make a PEFT model (for peft-checkpointing-reentrant's evidence).

A training script often makes its PEFT model through a helper of the project (``model = lora_setting(model,
args)`` in ``if training_args.lora_enable:``) whose body calls ``get_peft_model``. Such a helper, defined in the
file itself or in a project module the file imports (by name or ``*``), makes the PEFT model as much as a direct
call does: its calls are where the file's PEFT model is made (and the options that gate them gate the finding,
lint/script/flags.py). A module that cannot be found or read makes none (the call stays unknown).
"""

from __future__ import annotations

import ast
import os
from typing import Any, List, Optional, Set

from ..discover import _read

MAKERS = ("get_peft_model", "inject_adapter_in_model")  # PeftModel.from_pretrained: "from_pretrained" is ambiguous


def _makers_in(tree: ast.Module) -> Set[str]:
    """The top-level functions of a module whose body calls a PEFT maker."""
    out: Set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for n in ast.walk(node):
                f = n.func if isinstance(n, ast.Call) else None
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
                if name in MAKERS:
                    out.add(node.name)
                    break
    return out


def _module_file(path: str, module: str) -> Optional[str]:
    """The project file an import of ``path`` names: relative (``.train_utils``) from the file's package, absolute
    (``pkg.train_utils``) from the file's directory or one above it."""
    level = len(module) - len(module.lstrip("."))
    parts = [p for p in module.lstrip(".").split(".") if p]
    here = os.path.dirname(path) or "."
    if level:
        for _ in range(level - 1):
            here = os.path.dirname(here) or "."
        bases = [here]
    else:
        bases = []
        d = os.path.abspath(here)
        while True:
            bases.append(d)
            up = os.path.dirname(d)
            if up == d:
                break
            d = up
    for base in bases:
        stem = os.path.join(base, *parts)
        for cand in (stem + ".py", os.path.join(stem, "__init__.py")):
            if parts and os.path.isfile(cand):
                return cand
    return None


def project_makers(path: str, text: str, imports: List[Any]) -> Set[str]:
    """The names the file calls its project's PEFT-making helpers by: its own top-level functions that call
    ``get_peft_model``, and those of the project modules its ``from M import name`` / ``from M import *`` name
    (``imports``: the script's ``import_nodes``; ``text``: the file's source)."""
    out: Set[str] = set()
    try:
        out |= _makers_in(ast.parse(text))
    except (SyntaxError, ValueError, RecursionError):
        pass
    import libcst as cst

    for node, mod, _ in imports:
        f = _module_file(path, mod) if isinstance(node, cst.ImportFrom) else None
        if f is None:
            continue
        try:
            found = _makers_in(ast.parse(_read(f)))
        except (SyntaxError, ValueError, RecursionError):
            continue
        if isinstance(node.names, cst.ImportStar):
            out |= found
        else:
            for a in node.names:
                name = a.name.value if isinstance(a.name, cst.Name) else None
                local = a.asname.name.value if a.asname and isinstance(a.asname.name, cst.Name) else name
                if name in found and local:
                    out.add(local)
    return out
