"""lint/guarded_imports.py: which import statements a ``try`` catching a SyntaxError holds (the body of such a
``try``, however nested; not its handlers, ``else`` or ``finally``; not a ``try`` catching only ImportError)."""

from __future__ import annotations

import ast

from dsdoctor.lint.guarded_imports import _imports

SOURCE = '''
import a
try:
    if True:
        import b
except Exception:
    import c
else:
    import d
try:
    import e
except (ImportError, ModuleNotFoundError):
    pass
try:
    import f
except:  # noqa: E722
    pass
finally:
    import g
def h():
    try:
        from . import i
    except SyntaxError:
        pass
'''


def test_guarded_imports() -> None:
    got = {(n.names[0].name, guarded) for n, guarded in _imports(ast.parse(SOURCE))}  # type: ignore[attr-defined]
    assert got == {("a", False), ("b", True), ("c", False), ("d", False), ("e", False), ("f", True), ("g", False),
                   ("i", True)}
