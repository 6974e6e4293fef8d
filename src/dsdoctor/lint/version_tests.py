"""Tests of the installed Transformers version around a module's import statements, evaluated on each release read.

A module that supports several Transformers releases picks its implementation at import time::

    trans_version = transformers.__version__
    if trans_version >= "4.47.0":
        from .benchmark_util_4_47 import BenchmarkWrapper
    else:
        from .benchmark_util_4_29 import BenchmarkWrapper

Each import runs only on the releases the tests above it let through: here ``benchmark_util_4_29`` on releases
before 4.47.0 (compared as strings, as Python does: ``"4.5.0" >= "4.47.0"``). A test is read when one side is the
version (``transformers.__version__``, ``importlib.metadata.version("transformers")``, ``version.parse(...)`` /
``Version(...)`` of it, or a module-level name bound to one of those) and the other a literal (a string, or
``version.parse("4.42")``); ``and`` / ``or`` / ``not`` of such tests too; and version helpers' calls
(``is_transformers_version(">=", "4.35")``, ``compare_versions("transformers", ">=", "4.35")``, a helper named
``..._at_least("transformers", "4.35.0")``). Other tests are left out: they only narrow where the import runs
further."""

from __future__ import annotations

import ast
import operator
from typing import Any, Callable, Dict, FrozenSet, Iterator, List, Optional, Tuple

from packaging.version import InvalidVersion, Version

Cond = Tuple[ast.expr, bool]  # an ``if`` test and the branch (True: its body, False: its else)
_PARSE = ("parse", "Version", "LooseVersion")
_OPS: Dict[type, Callable[[Any, Any], Any]] = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
                                               ast.GtE: operator.ge, ast.Eq: operator.eq, ast.NotEq: operator.ne}

_STR_OPS: Dict[str, Callable[[Any, Any], Any]] = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
                                                  "==": operator.eq, "!=": operator.ne}


def _last(node: ast.AST) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


class VersionTests:
    """The import statements of one parsed module with the ``if`` tests above each, and those tests' answers."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.bound: Dict[str, str] = {}  # module-level name -> "str" | "ver": the version it holds
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                kind = self._kind(node.value)
                if kind is not None:
                    self.bound[node.targets[0].id] = kind

    def _kind(self, node: ast.AST) -> Optional[str]:
        """"str" / "ver" where ``node`` is the installed Transformers version as a string / a parsed version."""
        if isinstance(node, ast.Attribute) and node.attr == "__version__" and isinstance(node.value, ast.Name) \
                and node.value.id == "transformers":
            return "str"
        if isinstance(node, ast.Name):
            return self.bound.get(node.id)
        if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
            arg = node.args[0]
            if _last(node.func) in _PARSE and self._kind(arg) is not None:
                return "ver"
            if _last(node.func) == "version" and isinstance(arg, ast.Constant) and arg.value == "transformers":
                return "str"  # importlib.metadata.version("transformers")
        return None

    @staticmethod
    def _literal(node: ast.AST) -> Optional[Tuple[str, str]]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return "str", node.value
        if isinstance(node, ast.Call) and _last(node.func) in _PARSE and len(node.args) == 1 and \
                isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            return "ver", node.args[0].value
        return None

    def _pair(self, left: ast.AST, op: ast.cmpop, right: ast.AST, version: str) -> Optional[bool]:
        kind, lit, flip = self._kind(left), self._literal(right), False
        if kind is None or lit is None:
            kind, lit, flip = self._kind(right), self._literal(left), True
        test = _OPS.get(type(op))
        if kind is None or lit is None or test is None:
            return None
        a: object = version
        b: object = lit[1]
        if "ver" in (kind, lit[0]):
            try:
                a, b = Version(version), Version(lit[1])
            except InvalidVersion:
                return None
        return bool(test(b, a) if flip else test(a, b))

    def holds(self, test: ast.AST, version: str) -> Optional[bool]:
        """Is ``test`` true on Transformers ``version`` (None: not a test of the version)?"""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = self.holds(test.operand, version)
            return None if inner is None else not inner
        if isinstance(test, ast.BoolOp):
            got = [self.holds(v, version) for v in test.values]
            if isinstance(test.op, ast.And):
                return False if False in got else (True if None not in got else None)
            return True if True in got else (False if None not in got else None)
        if isinstance(test, ast.Call):
            return self._helper(test, version)
        if isinstance(test, ast.Compare):
            parts, left = [], test.left
            for op, right in zip(test.ops, test.comparators):
                parts.append(self._pair(left, op, right, version))
                left = right
            return None if None in parts else all(parts)
        return None

    @staticmethod
    def _helper(call: ast.Call, version: str) -> Optional[bool]:
        """A version helper's answer: accelerate's / Transformers' ``is_transformers_version(">=", "4.35")``,
        accelerate's ``compare_versions("transformers", ">=", "4.35")``, a helper named ``..._at_least("transformers",
        "4.35.0")`` (LMFlow's ``is_package_version_at_least``); None for any other call."""
        args = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in call.args]
        name = _last(call.func)
        if call.keywords or None in args:
            return None
        if name == "is_transformers_version" and len(args) == 2:
            op, wanted = args
        elif name == "compare_versions" and len(args) == 3 and args[0] == "transformers":
            op, wanted = args[1:]
        elif name.endswith("at_least") and len(args) == 2 and args[0] == "transformers":
            op, wanted = ">=", args[1]
        else:
            return None
        test = _STR_OPS.get(str(op))
        try:
            return None if test is None else bool(test(Version(version), Version(str(wanted))))
        except InvalidVersion:
            return None

    def imports(self) -> Iterator[Tuple[ast.stmt, List[Cond]]]:
        """Every import statement of the module, with the ``if`` tests (and branches) above it."""
        yield from self._walk(self.tree.body, [])

    def _walk(self, body: List[ast.stmt], conds: List[Cond]) -> Iterator[Tuple[ast.stmt, List[Cond]]]:
        for node in body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                yield node, conds
            elif isinstance(node, ast.If):
                yield from self._walk(node.body, conds + [(node.test, True)])
                yield from self._walk(node.orelse, conds + [(node.test, False)])
            else:
                for part in ("body", "handlers", "orelse", "finalbody"):
                    inner = getattr(node, part, None)
                    if isinstance(inner, list):
                        stmts = [s for h in inner for s in h.body] if part == "handlers" else inner
                        yield from self._walk([s for s in stmts if isinstance(s, ast.stmt)], conds)

    def releases(self, conds: List[Cond], releases: Tuple[str, ...]) -> Optional[FrozenSet[str]]:
        """The ``releases`` on which every version test of ``conds`` lets the import through; None where none of
        them tests the version (the import runs on any)."""
        read = [(t, branch) for t, branch in conds if any(self.holds(t, v) is not None for v in releases)]
        if not read:
            return None  # (a test that is None on a release also tests something else: the import may run there)
        return frozenset(v for v in releases if all(self.holds(t, v) is not (not branch) for t, branch in read))
