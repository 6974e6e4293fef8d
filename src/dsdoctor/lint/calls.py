"""Which top-level functions of the files an entry script reaches it can call (call-based reach, by name).

Importing a module runs its module-level code, not its functions: a training script that star-imports a package
whose ``__init__`` defines an inference loader reaches the file but never runs the loader. From the files an entry
reaches (:mod:`.reach`), the code that runs is the module-level code of each (class-level statements included; a
non-entry file's ``if __name__ == "__main__":`` block left out), and, to a fixpoint, the body of every top-level
function whose name that code calls or names, and the methods (and bases) of every top-level class it uses in any
way (calls, names, a string, a subclass that is used, an attribute of an object): methods run only through their
class. A class is always used where it is decorated (a registry may hold it), and every class is, once running code
may look one up at run time (``globals()``, ``eval``, ``import_module`` / ``instantiate`` / ``locate`` of a non-
constant, not a method of the project's own such as ``self.import_module(...)``, ``getattr`` of a project module,
a metaclass or ``__init_subclass__`` that registers subclasses). A use is
tied to one file's function where the file's imports say which (``io.load()`` after ``from pkg import io``, ``f()``
after ``from pkg.m import f`` or with ``f`` defined beside it: ``FILE::f``); other uses match the name in every file
(conservative: a ``main()`` called through a star import keeps every ``main`` live). Uses through another package's
names (``json.load()``, ``load`` of ``from json import load``) are none.

A top-level function is

- ``called`` when running code calls it by name (``f(...)``, ``mod.f(...)``);
- ``named`` when running code only names it (a registry dict, a callback, ``getattr(m, "f")``, a decorator that
  may register it), or calls it only as an object's attribute (``obj.f()``: a method, unless a module is kept in a
  variable), or only from such functions: the call cannot be resolved, so its findings stay, as ``info``;
- ``unused`` when only methods of classes that nothing running uses reach it (an inference API class a training
  script imports but never builds): it never runs there, its findings are info and say why (so are the methods');
- ``dead`` otherwise: nothing that runs can reach it, its findings are dropped.

A file that does not parse leaves all its functions ``called``.
"""

from __future__ import annotations

import ast
import os
import re
from typing import Dict, Iterable, List, Optional, Set, Tuple

from .ast_nodes import all_nodes
from .binds import Binds, Resolver, file_binds, root_name
from .closure import ATTR_LOOKUP, DYNAMIC, OFF, PLAIN, Cls, Fn, Method, Verdicts, close, tie, verdicts
from .defaults import declared_defaults
from .discover import _read
from .option_values import VALUES, Values, not_taken, option_tests, taken_values
from .registry_select import Keys, registry_keys, unlooked, unselected

_IDENT = re.compile(r"^[A-Za-z_]\w*$")
_DYN_BUILTINS = {"globals", "locals", "eval", "exec"}  # called by bare name
_IMPORTS = {"__import__", "import_module"}
_DYN_LOOKUPS = {"__import__", "import_module", "instantiate", "locate", "get_obj_from_str", "get_class",
                "import_string", "load_class"}  # unless every argument is a constant


Uses = Tuple[Set[str], Set[str], Set[str]]  # names called, other names, attributes called on objects ("weak")


def _keys(n: ast.AST) -> List[ast.AST]:
    """The strings that name a key, not a function: a dict literal's keys, the operands of a comparison
    (``"load" in d``, ``name in ["load", "save"]``), the index of a mapping (``d["load"]``; ``globals()["f"]``, an
    index of a call's result, may name one)."""
    if isinstance(n, ast.Dict):
        return [k for k in n.keys if k is not None]
    if isinstance(n, ast.Compare):  # also the elements of a literal it tests membership in (``x in ["A", "B"]``)
        sides: List[ast.AST] = [n.left, *n.comparators]
        return sides + [e for c in sides if isinstance(c, (ast.List, ast.Tuple, ast.Set)) for e in c.elts]
    if isinstance(n, ast.Subscript) and not isinstance(n.value, ast.Call):
        return [n.slice]
    return []


def _uses(nodes: Iterable[ast.AST], binds: Optional[Binds] = None) -> Uses:
    """(uses called, other uses and identifier strings, attributes called or named on objects) in ``nodes``: each a
    name, or ``FILE::name`` where ``binds`` (the file's imports) tie it to one file's function."""
    called: Set[str] = set()
    named: Set[str] = set()
    weak: Set[str] = set()

    def add(use: Optional[str], into: Set[str]) -> None:
        if use is not None:
            (weak if use.startswith("~") else into).add(use.lstrip("~"))

    keys: Set[int] = set()
    strings: List[ast.Constant] = []
    bare: List[Tuple[str, Set[str]]] = []  # (name, into) of bare names, tied to files once the nested defs are known
    nested: Set[str] = set()  # functions and classes defined in ``nodes``: a call of one is no use of a file's
    statements: Set[int] = set()  # calls whose value is dropped (breadth first: a statement comes before its call)
    hints: Set[int] = set()  # the nodes of type annotations (``policy: Type[Policy]`` builds no Policy)
    listed = all_nodes(nodes)
    off = not_taken(listed)
    offs: Set[str] = set()  # the names used only there (marked OFF in ``named``: lint/closure.py)
    for n in listed:  # one pass over every node (no order needed: the uses are sets)
        if id(n) in hints:
            hints.update(id(c) for c in ast.iter_child_nodes(n))
            continue
        if isinstance(n, (ast.AnnAssign, ast.arg)) and n.annotation is not None:
            hints.add(id(n.annotation))
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.returns is not None:
            hints.add(id(n.returns))
        if isinstance(n, ast.Expr):
            statements.add(id(n.value))
        elif isinstance(n, ast.Call):
            f = n.func
            called |= _dynamic(n, binds, id(n) in statements)
            into = offs if id(n) in off else called
            if isinstance(f, ast.Name):
                bare.append((f.id, into))
            elif isinstance(f, ast.Attribute):
                add(f.attr if binds is None else binds.attr(f), into)
        elif isinstance(n, ast.Name):
            bare.append((n.id, offs if id(n) in off else named))
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            nested.add(n.name)
        elif isinstance(n, ast.Attribute):
            add(n.attr if binds is None else binds.attr(n), offs if id(n) in off else named)
        elif isinstance(n, ast.Constant) and isinstance(n.value, str) and _IDENT.match(n.value):
            strings.append(n)
        if binds is not None:
            keys.update(id(k) for k in _keys(n))
    for name, into in bare:
        if name not in nested:
            add(name if binds is None else binds.name(name), into)
    named.update(str(c.value) for c in strings if id(c) not in keys)
    named.update(OFF + u for u in offs - called - named)
    return called, named - called, weak - called - named


def _dynamic(n: ast.Call, binds: Optional[Binds], dropped: bool = False) -> Set[str]:
    """What classes the call can reach that no code names (a name looked up at run time): ``{DYNAMIC}``, any
    (``import_module``, hydra's ``instantiate`` of a non-constant); where the lookup is confined to one namespace,
    only the classes there (:func:`_scope`: ``eval`` / ``globals()`` see the calling module's names, ``getattr`` of
    a project module that module's); empty: none, also for an import whose module is ``dropped`` (a statement of
    its own: the imported module's code runs, nothing looks a class up in it)."""
    f = n.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
    if dropped and name in _IMPORTS:
        return set()
    if name == "__subclasses__":
        return {DYNAMIC}
    if isinstance(f, ast.Name) and name in _DYN_BUILTINS:
        own = len(n.args) < 2 or isinstance(n.args[1], ast.Dict) or \
            isinstance(n.args[1], ast.Call) and isinstance(n.args[1].func, ast.Name) and n.args[1].func.id == "globals"
        return _scope(binds) if own else {DYNAMIC}
    if name in _DYN_LOOKUPS:
        if isinstance(f, ast.Attribute) and _project_receiver(f.value, binds):
            return set()  # TPAttention.import_module(...), self.load_class(...): the project's own method, read itself
        return set() if all(isinstance(a, ast.Constant) for a in [*n.args, *(k.value for k in n.keywords)]) \
            else {DYNAMIC}
    if name == "vars" and isinstance(f, ast.Name):
        if not n.args:
            return _scope(binds)
        return _scope(binds, n.args[0].id) if binds is not None and isinstance(n.args[0], ast.Name) and \
            n.args[0].id in binds.mods else set()
    if name != "getattr" or len(n.args) < 2 or isinstance(n.args[1], ast.Constant):
        return set()
    obj = n.args[0]
    if binds is None:
        return {ATTR_LOOKUP} if isinstance(obj, ast.Name) and obj.id in ("self", "cls") else {DYNAMIC, ATTR_LOOKUP}
    if root_name(obj) == "sys" or isinstance(obj, ast.Call):
        return {DYNAMIC, ATTR_LOOKUP}
    return {ATTR_LOOKUP} | (_scope(binds, obj.id) if isinstance(obj, ast.Name) and obj.id in binds.mods else set())


def _project_receiver(obj: ast.AST, binds: Optional[Binds]) -> bool:
    """Is ``obj`` (of ``obj.import_module(...)``) the project's own: ``self`` / ``cls``, or a name the file's imports
    take from the project (a class, a module of the project)?"""
    root = root_name(obj)
    return root in ("self", "cls") or (binds is not None and root is not None and
                                        (root in binds.taken or root in binds.mods))


def _scope(binds: Optional[Binds], module: Optional[str] = None) -> Set[str]:
    """The classes a lookup by name in one namespace can reach: the file's own names (``module`` None: its
    top-level classes, the names it imports, the modules it binds, a package's files below it) or one bound
    module's; ``{DYNAMIC}`` (any class) where the namespace is not known (no import resolution, a module bound to
    more than one file, a star import of the project's)."""
    if binds is None or binds.star:
        return {DYNAMIC}
    mods = [binds.mods[module]] if module is not None else list(binds.mods.values())
    if any(m is None for m in mods):
        return {DYNAMIC}
    out = {DYNAMIC + _namespace(str(m)) for m in mods}
    if module is None:
        out.add(DYNAMIC + binds.path)
        out |= {u for u in (binds.name(t) for t in binds.taken) if u is not None}
    return out


def _namespace(module_file: str) -> str:
    """The scope token of a module: its file, or a package's directory (``d/``: its submodules are attributes)."""
    return module_file[:-len("__init__.py")] if os.path.basename(module_file) == "__init__.py" else module_file


def _is_main(node: ast.stmt) -> bool:
    t = node.test if isinstance(node, ast.If) else None
    return isinstance(t, ast.Compare) and isinstance(t.left, ast.Name) and t.left.id == "__name__"


def _is_all(node: ast.stmt) -> bool:
    return isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)


def _read_file(path: str, entry: bool, resolves: Optional[Resolver] = None
               ) -> Tuple[List[ast.AST], List[Fn], List[Cls], Optional[Binds], Dict[str, str], Keys, Uses, List[Fn],
                          Tuple[ast.expr, ...]]:
    """(module-level statements that run on import, top-level functions, top-level classes, import bindings, the
    options' defaults it declares, the keys of the classes a registry holds, the uses of their registry decorators
    but the registry's own name and the calls of its tables, its tables as functions that run where read, the tests
    of its branches on options: lint/option_values.py) of a file
    (SyntaxError: it does not parse)."""
    tree = ast.parse(_read(path, 4 * 2**20))
    nodes = all_nodes([tree])  # listed once for the import bindings and the options' defaults
    binds = file_binds(path, tree, resolves, nodes)
    runs: List[ast.AST] = []
    decos: List[ast.AST] = []  # the decorators of registry classes: they fill the registry, they look nothing up
    tables: List[Tuple[ast.stmt, List[str]]] = []  # module-level tables of names and the names they bind
    fill: Uses = (set(), set(), set())  # uses of code that runs on import, read apart from ``runs``
    fns: List[Fn] = []
    classes: List[Cls] = []
    held: Keys = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            called, named, weak = _uses(node.body, binds)
            runs.extend(node.decorator_list)  # decorators run when the module is imported
            end = getattr(node, "end_lineno", None) or node.lineno
            fns.append((node.name, node.lineno, end, called, named, bool(node.decorator_list), weak))
        elif isinstance(node, ast.ClassDef):
            keys = registry_keys(node, PLAIN)
            body: List[ast.AST] = []
            classes.append(_class(node, binds, runs, decos if keys is not None and keys.registry else runs, body))
            _add_uses(fill, body, binds, {node.name})  # `name = "RankGPT"` in class RankGPT does not use it
            if keys is not None and classes[-1][6] and DYNAMIC not in classes[-1][3]:
                held[node.name] = keys
        elif isinstance(node, (ast.Import, ast.ImportFrom)) or _is_all(node) or (not entry and _is_main(node)):
            continue
        elif (bound := _table(node)) is not None:
            tables.append((node, bound))
        else:
            runs.append(node)
    _add_uses(fill, decos, binds, {h.registry for h in held.values() if h.registry})
    own = {d[0] for d in fns} | {c[0] for c in classes}
    tabled: List[Fn] = []
    for node, bound in tables:
        called, named, weak = _uses([node], binds)
        fill[0].update(called)  # its calls run on import (``Spec(cls=A)``), the names it holds only where it is read
        tabled += [(t, node.lineno, getattr(node, "end_lineno", None) or node.lineno, set(), named, False, weak)
                   for t in bound if t not in own]
    return runs, fns, classes, binds, declared_defaults(tree, nodes), held, fill, tabled, option_tests(nodes)


def _add_uses(into: Uses, nodes: List[ast.AST], binds: Optional[Binds], but: Set[str]) -> None:
    """Add the uses of ``nodes`` to ``into``, but those of the names ``but`` (bare or tied to a file)."""
    for mine, theirs in zip(into, _uses(nodes, binds)):
        mine.update(u for u in theirs if u.rsplit("::", 1)[-1] not in but)


def _table(node: ast.stmt) -> Optional[List[str]]:
    """The names a module-level table binds (``MODELS = {"a": ModelA, ...}``, a dict, list, tuple or set literal
    assigned to names), None for any other statement: the names it holds are used only where code reads it."""
    if isinstance(node, ast.Assign):
        targets: List[ast.expr] = node.targets
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        targets = [node.target]
    else:
        return None
    if not isinstance(node.value, (ast.Dict, ast.List, ast.Tuple, ast.Set)) or \
            not all(isinstance(t, ast.Name) for t in targets):
        return None
    return [t.id for t in targets if isinstance(t, ast.Name)]


# decorators of a method that register it nowhere: it runs only where it is called (or read, a property)
_PLAIN_METHOD = {"property", "setter", "getter", "deleter", "staticmethod", "classmethod", "abstractmethod",
                 "cached_property", "lru_cache", "cache", "no_grad", "inference_mode", "wraps"}


def _class(node: ast.ClassDef, binds: Optional[Binds], runs: List[ast.AST], decos: List[ast.AST],
           body: List[ast.AST]) -> Cls:
    """A top-level class: what runs on import goes to ``runs`` (decorators, keywords, class-level statements);
    its methods, nested classes and bases are the class's own uses: they run only through the class (an object, a
    subclass), each method's only when it runs (lint/closure.py). Decorated (a registry may hold it) it is always
    live; a metaclass or ``__init_subclass__`` (a registry of subclasses) makes every class live (``DYNAMIC``).
    Its decorators go to ``decos``, its class-level statements to ``body``."""
    decos.extend(node.decorator_list)
    runs.extend(k.value for k in node.keywords)
    inner: List[ast.AST] = list(node.bases)
    methods: List[Method] = []
    dyn = any(k.arg == "metaclass" and _last(k.value) not in PLAIN for k in node.keywords)
    for n in node.body:
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            runs.extend(n.decorator_list)
            always = n.name.startswith("__") or any(_last(d) not in _PLAIN_METHOD for d in n.decorator_list)
            methods.append((n.name, n.lineno, getattr(n, "end_lineno", None) or n.lineno, *_uses(n.body, binds),
                            always))
            dyn = dyn or n.name == "__init_subclass__"
        elif isinstance(n, ast.ClassDef):
            inner.append(n)
        else:
            body.append(n)
    own = _uses(inner, binds)
    called, named, weak = set(own[0]), set(own[1]), set(own[2])
    for m in methods:
        called |= m[3]
        named |= m[4]
        weak |= m[5]
    if dyn:
        called.add(DYNAMIC)
    always = dyn or any(_last(d) not in PLAIN for d in node.decorator_list)
    end = getattr(node, "end_lineno", None) or node.lineno
    bases = tuple(b for b in (_last(x) for x in node.bases) if b is not None) if all(
        isinstance(x, (ast.Name, ast.Attribute)) for x in node.bases) else ("<expr>",)
    return node.name, node.lineno, end, called, named, weak, always, methods, bases, own


def _last(node: ast.AST) -> Optional[str]:
    """The last name of a decorator / base (``dataclass`` of ``@dataclasses.dataclass(frozen=True)``)."""
    node = node.func if isinstance(node, ast.Call) else node
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None


# a file's functions, what its running code calls / names / calls on objects, its classes, its options' defaults
# ... and its module-level tables of names (as functions that hold no code of their own: no verdict)
# ... and the tests of its branches on options (lint/option_values.py)
Read = Optional[Tuple[List[Fn], Set[str], Set[str], Set[str], List[Cls], Dict[str, str], Keys, List[Fn],
                      Tuple[ast.expr, ...]]]


def _facts(path: str, entry: bool, resolves: Optional[Resolver] = None, values: Values = ()) -> Read:
    """(top-level functions, names its running code calls, other names it uses, attributes it calls on objects,
    top-level classes, options' defaults: lint/defaults.py, registry keys: lint/registry_select.py) of a file; None: it
    does not parse. ``values``: those the entry's ZeRO-3 launches give the options the file compares."""
    token = VALUES.set(values)
    try:
        runs, defs, classes, binds, defaults, held, fill, tables, tests = _read_file(path, entry, resolves)
    except (SyntaxError, ValueError, RecursionError):
        return None
    finally:
        VALUES.reset(token)
    called, named, weak = _uses(runs, binds)
    called |= fill[0]
    named = (named | fill[1]) - called
    return defs, called, named, (weak | fill[2]) - called - named, classes, defaults, held, tables, tests


def function_reach(files: Iterable[str], entry: str, cache: Optional[Dict[Tuple[str, bool, Values], Read]] = None,
                   resolves: Optional[Resolver] = None, selects: Optional[str] = None,
                   values: Values = ()) -> Verdicts:
    """For each file an entry reaches that parses: its top-level functions' verdicts (called / named / unused /
    dead). ``cache``: each file read once for all the entries of one lint run (the project model's).
    ``resolves``: the project files an import of a file names (:mod:`.reach`); given, uses are tied to files, uses
    through other packages' names are none, and a function only called as an object's attribute (``obj.load()``),
    or only from such functions, is ``named``, not ``called``. A method runs only through its class: the methods
    of a class that nothing running uses are ``unused``, and so is a function only they use. ``selects``: what the
    entry's ZeRO-3 launches hand it (lint/registry_select.py): a registry's class it never names is not live by its
    decorator alone. A module-level table of names (``MODELS = {"a": ModelA}``) keeps its classes live only where
    code reads it. ``values``: those its ZeRO-3 launches give its options (lint/option_values.py): the calls in a
    branch none of them takes are names only."""
    held: Dict[str, Keys] = {}
    uses: Tuple[Set[str], Set[str], Set[str]] = (set(), set(), set())
    fns: Dict[str, List[Fn]] = {}  # with the tables, which hold uses but get no verdict
    tabled: Dict[str, Set[str]] = {}
    classes: Dict[str, List[Cls]] = {}
    cache = {} if cache is None else cache
    for f in sorted(set(files)):
        key = (f, f == entry, ())
        if key not in cache:
            cache[key] = _facts(f, f == entry, resolves)
        got = cache[key]
        tested = taken_values(got[8], values) if got is not None else ()
        if tested:  # read again with the values of the options it compares
            if (f, f == entry, tested) not in cache:
                cache[(f, f == entry, tested)] = _facts(f, f == entry, resolves, tested)
            got = cache[(f, f == entry, tested)]
        if got is None:
            continue
        fns[f], classes[f], held[f] = got[0] + got[7], got[4], got[6]
        tabled[f] = {t[0] for t in got[7]}
        for mine, theirs in zip(uses, got[1:4]):
            mine |= theirs
    fns, classes = tie(fns, classes, *uses)
    gone: Set[Tuple[str, str]] = set()
    if selects is not None:
        classes, gone = unselected(classes, held, selects)
    classes, unfilled = unlooked(fns, classes, held, uses, gone)
    all_live = (set(uses[0]), set(uses[1]), set(uses[2]))  # as if every class ran: what its methods reach
    live = close(fns, classes, *uses, keyed=gone | unfilled)
    if any(c[0] not in live.get(f, ()) for f, cls in classes.items() for c in cls):
        close(fns, classes, *all_live, every=True)
    else:
        all_live = uses
    own = {f: [d for d in defs if d[0] not in tabled[f]] for f, defs in fns.items()}
    # a function a table names, read or not, stays named (info; lint/script/not_taken.py counts that use too): only
    # the classes of a table nothing reads are left unused
    uses[1].update(u for f, defs in fns.items() for d in defs if d[0] in tabled[f] for u in d[4] | d[6])
    return verdicts(own, classes, live, uses, all_live, gone, unfilled)
