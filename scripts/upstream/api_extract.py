"""What one Python source file of an upstream release defines and uses, read with ``ast`` (never imported).

:func:`extract` returns a :class:`FileApi`: the module's top-level names (defs, classes, assignments, imported
names, the string literals of a lazy ``_import_structure`` / ``__all__``), whether that list is open (a star import
or a module ``__getattr__`` may add names nobody can read), its star imports, where each imported name comes from,
every function's / class ``__init__``'s / method's parameters, and the imports and keyword calls it makes into
other packages (each marked conditional when it runs only after a version or availability check).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

# a call or name in an ``if`` test that makes its body depend on the installed version of another package
_VERSION_WORDS = ("version", "VERSION", "_available", "is_torch_greater", "is_torch_less", "compare_versions",
                  "hasattr", "require_version", "check_min_version", "packaging")
_IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError", "AttributeError", "Exception", "BaseException", "TypeError"}


@dataclass
class FileApi:
    names: Set[str] = field(default_factory=set)
    open: bool = False
    stars: List[str] = field(default_factory=list)
    origins: Dict[str, str] = field(default_factory=dict)  # imported name -> the module it comes from
    callables: Dict[str, Tuple[Tuple[str, ...], bool]] = field(default_factory=dict)  # qualname -> (params, **kwargs)
    imports: List[Tuple[str, str, bool, bool]] = field(default_factory=list)  # (module, name or "", conditional, top level)
    calls: List[Tuple[str, str, str, bool]] = field(default_factory=list)  # (module, name, keyword, conditional)


def _absolute(module: str, is_pkg: bool, level: int, target: Optional[str]) -> str:
    if level == 0:
        return target or ""
    parts = module.split(".")
    base = parts if is_pkg else parts[:-1]
    base = base[:len(base) - (level - 1)] if level > 1 else base
    return ".".join(base + ([target] if target else []))


def _params(fn: ast.AST) -> Tuple[Tuple[str, ...], bool]:
    a = fn.args  # type: ignore[attr-defined]
    names = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
    if a.vararg is not None:
        names.append("*")
    return tuple(names), a.kwarg is not None


def _strings(node: ast.AST) -> Set[str]:
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and n.value.isidentifier()}


def _guard_is_version(test: ast.AST) -> bool:
    """An ``if`` test that checks another package's version or availability with a version."""
    for n in ast.walk(test):
        if isinstance(n, ast.Call):
            fn = n.func
            name = fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else ""
            if name.startswith("is_") and name.endswith("_available") and (n.args or n.keywords):
                return True
            if name in ("parse", "Version", "hasattr", "compare_versions", "require_version") or "version" in name.lower():
                return True
        if isinstance(n, ast.Compare) and any(isinstance(op, (ast.GtE, ast.Gt, ast.Lt, ast.LtE)) for op in n.ops):
            if any(w in ast.dump(n) for w in _VERSION_WORDS):
                return True
        if isinstance(n, (ast.Name, ast.Attribute)):
            ident = n.id if isinstance(n, ast.Name) else n.attr
            if "version" in ident.lower() or ident.isupper() and ("TORCH" in ident or "AVAILABLE" in ident):
                return True
    return False


def _try_catches_import(node: ast.Try) -> bool:
    for h in node.handlers:
        if h.type is None:
            return True
        types = h.type.elts if isinstance(h.type, ast.Tuple) else [h.type]
        if any(isinstance(t, ast.Name) and t.id in _IMPORT_ERRORS for t in types):
            return True
    return False


class _Walker(ast.NodeVisitor):
    def __init__(self, module: str, is_pkg: bool, providers: Tuple[str, ...], out: FileApi) -> None:
        self.module, self.is_pkg, self.providers, self.out = module, is_pkg, providers, out
        self.cond = 0
        self.depth = 0  # inside a function: runs only when it is called
        self.bound: Dict[str, Tuple[str, str]] = {}  # local name -> (provider module, name)

    def _visit_all(self, nodes: List[ast.stmt]) -> None:
        for n in nodes:
            self.visit(n)

    def visit_If(self, node: ast.If) -> None:
        self.visit(node.test)
        if isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            return
        guarded = _guard_is_version(node.test)
        self.cond += guarded
        self._visit_all(node.body)
        self._visit_all(node.orelse)
        self.cond -= guarded

    def visit_Try(self, node: ast.Try) -> None:
        guarded = _try_catches_import(node)
        self.cond += guarded
        self._visit_all(node.body)
        self.cond -= guarded
        for h in node.handlers:
            self.cond += 1  # a fallback: runs only when the body failed
            self._visit_all(h.body)
            self.cond -= 1
        self._visit_all(node.orelse)
        self._visit_all(node.finalbody)

    visit_TryStar = visit_Try  # type: ignore[assignment]

    def _provider(self, mod: str) -> bool:
        return mod.split(".")[0] in self.providers

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        mod = _absolute(self.module, self.is_pkg, node.level, node.module)
        if not self._provider(mod):
            return
        for a in node.names:
            if a.name == "*":
                continue
            self.out.imports.append((mod, a.name, self.cond > 0, self.depth == 0))
            self.bound[a.asname or a.name] = (mod, a.name)

    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            if self._provider(a.name):
                self.out.imports.append((a.name, "", self.cond > 0, self.depth == 0))

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_Call(self, node: ast.Call) -> None:
        fn = node.func
        if isinstance(fn, ast.Name) and fn.id in self.bound:
            mod, name = self.bound[fn.id]
            for kw in node.keywords:
                if kw.arg is not None:
                    self.out.calls.append((mod, name, kw.arg, self.cond > 0))
        self.generic_visit(node)


def _dataclass_init(node: ast.ClassDef) -> Optional[Tuple[Tuple[str, ...], bool]]:
    """The ``__init__`` that ``@dataclass`` writes for a class with no base (its annotated fields in order, less
    ``ClassVar`` and ``field(init=False)``); None for any other class (a base's fields are not read here)."""
    deco = [ast.unparse(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list]
    if not any(d in ("dataclass", "dataclasses.dataclass") for d in deco) or node.bases or node.keywords:
        return None
    names = []
    for item in node.body:
        if not isinstance(item, ast.AnnAssign) or not isinstance(item.target, ast.Name):
            continue
        ann = ast.unparse(item.annotation)
        if "ClassVar" in ann or ann.endswith("KW_ONLY") or (isinstance(item.value, ast.Call) and any(
                k.arg == "init" and isinstance(k.value, ast.Constant) and k.value.value is False
                for k in item.value.keywords)):
            continue
        names.append(item.target.id)
    return ("self", *names), False


def _top_level(tree: ast.Module, module: str, is_pkg: bool, out: FileApi) -> None:
    def stmts(body: List[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out.names.add(node.name)
                out.callables[node.name] = _params(node)
                if node.name == "__getattr__":
                    out.open = True
            elif isinstance(node, ast.ClassDef):
                out.names.add(node.name)
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        out.callables[f"{node.name}.{item.name}"] = _params(item)
                init = _dataclass_init(node)
                if init is not None and f"{node.name}.__init__" not in out.callables:
                    out.callables[f"{node.name}.__init__"] = init
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name):
                            out.names.add(n.id)
                if any(isinstance(t, ast.Name) and t.id in ("_import_structure", "__all__") for t in targets):
                    out.names |= _strings(node.value) if node.value is not None else set()
            elif isinstance(node, ast.Expr) and "_import_structure" in ast.dump(node):
                out.names |= _strings(node)  # _import_structure["x"].extend([...]) / .append("Y")
            elif isinstance(node, ast.ImportFrom):
                src = _absolute(module, is_pkg, node.level, node.module)
                for a in node.names:
                    if a.name == "*":
                        out.stars.append(src)
                    else:
                        out.names.add(a.asname or a.name)
                        out.origins[a.asname or a.name] = src
            elif isinstance(node, ast.Import):
                for a in node.names:
                    out.names.add(a.asname or a.name.split(".")[0])
            elif isinstance(node, ast.If):
                stmts(node.body)
                stmts(node.orelse)
            elif isinstance(node, ast.Try):
                stmts(node.body)
                stmts(node.orelse)
                stmts(node.finalbody)
                for h in node.handlers:
                    stmts(h.body)
            elif isinstance(node, (ast.With, ast.For)):
                stmts(node.body)
            if isinstance(node, (ast.Expr, ast.Assign)):
                head = ast.unparse(node.targets[0] if isinstance(node, ast.Assign) else node)[:200]
                out.open |= "globals()" in head or "sys.modules[__name__]" in head and not lazy[0]

    lazy = [any(isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_import_structure"
                                                  for t in n.targets) for n in ast.walk(tree))]

    stmts(tree.body)


def extract(source: bytes, module: str, is_pkg: bool, providers: Tuple[str, ...]) -> Optional[FileApi]:
    """The API of one file; None when it does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    out = FileApi()
    _top_level(tree, module, is_pkg, out)
    if providers:
        _Walker(module, is_pkg, providers, out).visit(tree)
    return out
