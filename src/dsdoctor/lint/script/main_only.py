"""A standalone tool's code.

Where no launch reaches the file (its ZeRO-3 context is the project's, from a stage-3 config somewhere): a class
or function that no other Python file of the project names (an import or ``__all__`` entry aside) and that the
file's own ``__main__`` block uses, a block calling no other function of the project, in a file that names no
Trainer, accelerate or DeepSpeed (a standalone scorer beside the training code: it runs as its own process, which
never sets ZeRO-3 up), is info.
"""

from __future__ import annotations

import os
import re
from typing import Any, Dict, List, Optional, Set

import libcst as cst

from ..discover import _read
from ..target import Target
from .callers import parsed
from .name_uses import is_main, name_uses

# what sets up DeepSpeed in a process (a Trainer, its arguments, accelerate, the DeepSpeed API)
_SETS_UP = re.compile(r"\bdeepspeed\b|Trainer\b|TrainingArguments\b|HfDeepSpeedConfig|\bAccelerator\b|\baccelerate\b|"
                      r"\btrl\b", re.I)
_SKIP_DIRS = ("node_modules", "site-packages", "venv", "__pycache__")


def main_only(t: Target, module: Any, src: Any, line: int, cache: Dict[str, Any]) -> Optional[str]:
    """Where no launch reaches the file (its ZeRO-3 context is the project's): the top-level class or function
    holding ``line`` that the project uses only in this file's own ``__main__`` block, a block that calls no other
    function of the project, in a file that sets up no DeepSpeed (a standalone scorer next to the training code):
    why it does not run under ZeRO-3; None otherwise."""
    tops = [s for s in module.body if isinstance(s, (cst.FunctionDef, cst.ClassDef))]
    hold = next((s for s in tops if src.positions[s].start.line <= line <= src.positions[s].end.line), None)
    if hold is None or sum(s.name.value == hold.name.value for s in tops) != 1 or _SETS_UP.search(src.text):
        return None
    name = hold.name.value
    key = "main_only:" + name
    if key not in cache:
        cache[key] = _main_only(t, src, hold, name, cache)
    return cache[key]  # type: ignore[no-any-return]


def _main_only(t: Target, own: Any, hold: Any, name: str, cache: Dict[str, Any]) -> Optional[str]:
    path = os.path.normpath(t.path)
    root = _project_root(path)
    if root is None or not _main_calls_local(own, name, root):
        return None
    got = name_uses(own, True, cache).uses(name, id(hold.name), set())
    if got is None or got[0] or not got[1]:
        return None
    word = re.compile(r"\b" + re.escape(name) + r"\b")
    for f in _py_files(root):
        if os.path.samefile(f, path):
            continue
        text = _read(f)
        if not word.search(text):
            continue
        src = parsed(f, cache) if parses_fast(text) else None  # parsed and walked once, whatever the name
        other = name_uses(src, False, cache).uses(name, None, set()) if src is not None and src.module else None
        if other is None or other[0]:
            return None
    return f"{name}() is used only in the __main__ block of {t.path}, which sets up no DeepSpeed"


def parses_fast(text: str) -> bool:
    import ast

    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _project_root(path: str) -> Optional[str]:
    """The topmost directory above ``path`` that is a project (.git or pyproject.toml)."""
    from ..discover import is_project

    d, top = os.path.dirname(os.path.abspath(path)), None
    while True:
        if is_project(d):
            top = d
        if os.path.dirname(d) == d:
            return top
        d = os.path.dirname(d)


def _py_files(root: str) -> List[str]:
    out: List[str] = []
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(".") and x not in _SKIP_DIRS]
        out += [os.path.join(d, f) for f in files if f.endswith(".py")]
    return out


def _main_calls_local(src: Any, name: str, root: str) -> bool:
    """Does the one ``__main__`` block call only ``name``, methods of local values and functions of installed
    packages (no other function of the project, which might set up DeepSpeed)?"""
    project: Set[str] = set()
    star = False

    def ours(mod: str) -> bool:
        first = mod.split(".")[0]
        return bool(first) and (os.path.exists(os.path.join(root, first)) or
                                os.path.exists(os.path.join(root, first + ".py")))

    class Imports(cst.CSTVisitor):
        def visit_Import(self, node: Any) -> None:
            for a in node.names:
                mod = cst.Module([]).code_for_node(a.name)
                if ours(mod):
                    project.add(a.asname.name.value if a.asname else mod.split(".")[0])

        def visit_ImportFrom(self, node: Any) -> None:
            nonlocal star
            mod = cst.Module([]).code_for_node(node.module) if node.module is not None else ""
            if not (node.relative or ours(mod)):
                return
            if isinstance(node.names, cst.ImportStar):
                star = True
                return
            project.update(cst.Module([]).code_for_node(a.asname.name if a.asname else a.name) for a in node.names)

    src.module.visit(Imports())
    mains = [st for st in src.module.body if isinstance(st, cst.If) and is_main(st.test)]
    called: Set[str] = set()

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: Any) -> None:
            f = node.func
            while isinstance(f, cst.Attribute):
                f = f.value
            if isinstance(f, cst.Name):
                called.add(f.value)

    for m in mains:
        m.visit(Calls())
    tops = {st.name.value for st in src.module.body if isinstance(st, (cst.FunctionDef, cst.ClassDef))}
    return len(mains) == 1 and not star and not (called & (project | tops)) - {name}
