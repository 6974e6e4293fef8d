"""What a training script does, as far as the rules need it: model loads and their arguments, the calls that
register ZeRO-3 (TrainingArguments, HfArgumentParser.parse_*, Accelerator, a kept HfDeepSpeedConfig), raw
``deepspeed.initialize`` / Trainer calls, and their order (calls to functions of the same file are followed).

Argument values are followed through variables (every assignment in the function, any branch), conditional
expressions, ``**kwargs`` dicts built in the same function, parameters' defaults, and argparse / dataclass
field defaults (``model_args.low_cpu_mem_usage`` -> ``low_cpu_mem_usage: bool = True``).

The evaluators of those values (``Values``: one mutually recursive set over one evaluation state) live together in
``evaluation.py``, with :func:`analyse`, the two passes that use them.

Kept whole: ``Script`` is one libcst visitor whose visit / leave methods share the walk's state (the scope, block,
statement and branch stacks, the dead-branch depth, the enclosing ``with`` blocks); split across modules, every
method would reach into another module's half of that state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Set, Tuple

import libcst as cst

from ...knowledge import callback_kwargs as CB
from ...knowledge import deepspeed as K
from ...knowledge import foreign_loaders as FL
from ...knowledge import transformers as TF
from .values import COLLECTIVE_SAVES, FALSE, MODEL_CTOR_SUFFIXES, MODEL_MAKERS, NONE, TRUE, UNKNOWN
from .walk import descendants

if TYPE_CHECKING:
    from .evaluation import Values

__all__ = ["FALSE", "NONE", "TRUE", "UNKNOWN"]
LOAD_METHODS = ("from_pretrained", "from_config", "_from_config")
NOT_A_MODEL = re.compile(r"(?i)tokenizer|config|processor|extractor|peft|adapter|dataset|pipeline")
MODEL_CTOR = re.compile(rf"^[A-Z]\w*(?:{'|'.join(MODEL_CTOR_SUFFIXES)})$")
# a predicate that tells a ZeRO-3 run by its name: HfDeepSpeedConfig.is_zero3(), a project's is_zero3() /
# model_has_zero3_params(model) / ds_zero3_enabled() (not a per-parameter test: is_zero3_param(p))
ZERO3_PREDICATE = re.compile(r"^_*(?:is|has|uses?|model_has|module_has)_(?:deepspeed_|ds_)?zero_?3"
                             r"(?:_enabled|_params|_model|_partitioned|_mode)?$|^_*(?:ds_|deepspeed_)?zero_?3_enabled$")


@dataclass
class Val:
    kind: str  # NONE / FALSE / TRUE / UNKNOWN
    node: Any  # the expression the value comes from


@dataclass
class Arg:
    name: str
    site: Any  # the expression a fix rewrites (keyword value, dict value)
    anchor: Any  # what a finding points at
    values: List[Val]
    entries: List[Tuple[Any, Any]] = field(default_factory=list)  # (value, anchor) of every ``**dict`` entry

    def set_at(self, bad: List[Val]) -> Tuple[Any, Any]:
        """(site, anchor) of the dict entry a bad value is set in (the first one), else of the keyword."""
        for value, anchor in self.entries:
            if any(v.node is value or _inside(v.node, value) for v in bad if v.node is not None):
                return value, anchor
        return self.site, self.anchor


@dataclass
class Scope:
    node: Any  # cst.Module or cst.FunctionDef
    parent: Optional["Scope"]
    assigns: Dict[str, List[Any]] = field(default_factory=dict)  # name -> value expressions (None: unknown)
    dicts: Dict[str, Dict[str, List[Tuple[Any, Any]]]] = field(default_factory=dict)  # kwargs dicts
    params: Dict[str, Optional[Any]] = field(default_factory=dict)
    returns: Set[str] = field(default_factory=set)
    globals_: Set[str] = field(default_factory=set)


@dataclass
class Event:
    kind: str  # load | register | initialize | trainer | call (a function of this file) | move
    call: Any
    scope: Scope
    stmt: Any  # innermost statement line
    block: Any  # the block holding it
    seq: int
    name: str = ""  # callee text
    zero_init: bool = False  # inside ``with deepspeed.zero.Init()``
    bound: Optional[str] = None  # the name the call's result is assigned to (register / HfDeepSpeedConfig)
    bare: bool = False  # an expression statement (result dropped)
    dead: bool = False  # in a branch that cannot run under ZeRO-3 (``if not is_deepspeed_zero3_enabled():``)
    gathered: bool = False  # inside ``with deepspeed.zero.GatheredParameters(...)``
    conds: Tuple[Tuple[Any, bool], ...] = ()  # the enclosing ``if`` tests, with True for the body / False for else
    fallback: bool = False  # in a ``try:`` body whose ``except`` loads the model again (the fallback runs instead)
    meta: bool = False  # built on the meta device (``with init_empty_weights():``): a skeleton, no weights
    before_own: bool = False  # a load before the script's own (only) ZeRO-3 config is registered: ZeRO-3 not on yet


def dotted(node: Any) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr.value}" if base else ""
    if isinstance(node, cst.Call):
        inner = dotted(node.func)
        return f"{inner}()" if inner else ""
    return ""


def kw_key(node: Any) -> Optional[str]:
    if isinstance(node, cst.SimpleString):
        s = node.evaluated_value
        return s if isinstance(s, str) else None
    return None


class Script(cst.CSTVisitor):
    """One pass over the module collecting scopes, assignments, defaults, imports and ordered events."""

    def __init__(self, prior: "Optional[Values]" = None) -> None:
        super().__init__()
        self.prior = prior  # the first pass: evaluates ``if`` tests that need the file's assignments
        self.module_scope: Optional[Scope] = None
        self.scopes: List[Scope] = []
        self.all_scopes: List[Scope] = []
        self.functions: Dict[str, Scope] = {}  # top-level and nested functions by name
        self.events: List[Event] = []
        self.field_defaults: Dict[str, List[Any]] = {}  # dataclass field / argparse dest -> default exprs
        self.flag_dests: Set[str] = set()  # argparse store_true/false flags (the value can be either)
        self.args_classes: Set[str] = set(TF.ZERO3_REGISTERING_CLASSES) - {"Accelerator", "HfDeepSpeedConfig"}
        self.imported: Dict[str, str] = {}  # local name -> "module.name"
        self.import_nodes: List[Any] = []  # (statement, module text, inside if/try) for every import statement
        self.last_top_import: Any = None
        self.calls_with: List[Any] = []  # all Call nodes with their callee text (for context / misc rules)
        self.call_scope: Dict[int, Scope] = {}  # id(Call) -> the scope it is in
        self._stmt: List[Any] = []
        self._block: List[Any] = []
        self._class: List[Any] = []
        self._zero_init = 0
        self._dead = 0  # depth of branches that cannot run under ZeRO-3
        self._gathered = 0
        self._meta = 0  # inside ``with init_empty_weights():`` / a meta device: weights never materialize
        self._try = 0
        self._ifs: List[Tuple[Any, bool, bool, List[Any]]] = []  # (If, body dead, else dead, blocks marked)
        self._conds: List[Tuple[Any, bool]] = []
        self._elifs: Dict[int, bool] = {}  # id() of an ``elif``'s If -> whether it made the branch dead
        self._dead_rest: List[int] = []  # blocks whose rest is dead (after an ``if`` always taken that returns)
        self._tries: List[Any] = []
        self._assign_target: List[Optional[str]] = []
        self._seq = 0
        self.name_count: Dict[str, int] = {}  # Name nodes by text (a function's own name counts once)
        self.methods: Set[int] = set()  # id() of the FunctionDef nodes inside a class (called through objects)
        self.method_class: Dict[int, str] = {}  # id() of such a FunctionDef -> the name of its innermost class
        self.attr_assigns: List[Tuple[str, Any, Any, Scope]] = []  # ``obj.attr = value`` that can run: (attr, value, stmt, scope)
        self.dead_calls: Set[int] = set()  # id() of the calls (and attribute assignments) a ZeRO-3 run does not reach
        self.unrun_calls: Set[int] = set()  # id() of the calls no run reaches (a module's ``__main__`` block, imported)
        self.conds_of: Dict[int, Tuple[Tuple[Any, bool], ...]] = {}  # id() of each call / attribute assignment -> its ifs
        self.gathered_calls: Set[int] = set()  # id() of each call inside ``with GatheredParameters(...)``
        self.if_tests: List[Tuple[Any, Scope, Optional[bool]]] = []  # (test, scope, what this pass decided)
        self.has_main = False  # ``if __name__ == "__main__":`` at module level (a script, not only a library)
        self._drops: List[Tuple[Scope, str, str, List[Tuple[Any, bool]]]] = []  # kwargs.pop(key) under ZeRO-3
        self.dropped: Dict[int, Set[str]] = {}  # id(load call) -> the keys its ``**kwargs`` lost before it
        self.callback_classes: Set[str] = {CB.CALLBACK_BASE}  # TrainerCallback and the file's subclasses of it
        self.callback_kwargs: Dict[int, str] = {}  # id() of a callback's on_* method -> its ``**kwargs`` name

    @property
    def scope(self) -> Scope:
        return self.scopes[-1]

    # scopes and blocks -------------------------------------------------------------------------------
    def visit_Module(self, node: cst.Module) -> None:
        self.module_scope = Scope(node, None)
        self.all_scopes.append(self.module_scope)
        self.scopes.append(self.module_scope)
        self._block.append(node)

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._block.append(node)
        if self._ifs and self._ifs[-1][0].body is node:
            self._conds.append((self._ifs[-1][0].test, True))
            if self._ifs[-1][1]:
                self._dead += 1
                self._ifs[-1][3].append(node)

    def leave_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._block.pop()
        if self._ifs and self._ifs[-1][0].body is node:
            self._conds.pop()
        if self._ifs and node in self._ifs[-1][3]:
            self._dead -= 1
        while self._dead_rest and self._dead_rest[-1] == id(node):
            self._dead_rest.pop()
            self._dead -= 1

    def _truth(self, test: Any) -> Optional[bool]:
        if self.prior is None:
            return branch_guard(test)
        return self.prior.truth(test, self.prior.s.scope_of(self.scope.node))

    def visit_Name(self, node: cst.Name) -> None:
        self.name_count[node.value] = self.name_count.get(node.value, 0) + 1

    def visit_If(self, node: cst.If) -> None:
        if len(self.scopes) == 1 and "__main__" in cst.Module([]).code_for_node(node.test):
            self.has_main = True
        if self._ifs and self._ifs[-1][0].orelse is node:  # an ``elif``: the enclosing test was false
            self._conds.append((self._ifs[-1][0].test, False))
            self._elifs[id(node)] = self._ifs[-1][2]
            self._dead += self._ifs[-1][2]
        g = self._truth(node.test)
        self.if_tests.append((node.test, self.scope, g))
        self._ifs.append((node, g is False, g is True, []))

    def leave_If(self, node: cst.If) -> None:
        _, body_dead, else_dead, _ = self._ifs.pop()
        if id(node) in self._elifs:
            self._conds.pop()
            self._dead -= self._elifs.pop(id(node))
        # the rest of the block runs only when the test is false, or after ZeRO-3 was unregistered when it is true
        ends = _exits(node.body) or any(_unsets_zero3(st) for st in node.body.body)
        if else_dead and not self._dead and ends and self._block:
            self._dead_rest.append(id(self._block[-1]))
            self._dead += 1

    def visit_Else(self, node: cst.Else) -> None:
        if self._ifs and self._ifs[-1][0].orelse is node:
            self._conds.append((self._ifs[-1][0].test, False))
            if self._ifs[-1][2]:
                self._dead += 1
                self._ifs[-1][3].append(node)

    def leave_Else(self, node: cst.Else) -> None:
        if self._ifs and self._ifs[-1][0].orelse is node:
            self._conds.pop()
        if self._ifs and node in self._ifs[-1][3]:
            self._dead -= 1

    def scope_of(self, node: Any) -> Scope:
        """This pass' scope of a module / function node."""
        found = next((s for s in self.all_scopes if s.node is node), self.module_scope)
        assert found is not None
        return found

    def scope_at(self, call: Any) -> Scope:
        """The scope a call is in."""
        found = self.call_scope.get(id(call), self.module_scope)
        assert found is not None
        return found

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        s = Scope(node, self.scope)
        for p in list(node.params.params) + list(node.params.kwonly_params) + list(node.params.posonly_params):
            s.params[p.name.value] = p.default
        self.functions.setdefault(node.name.value, s)
        if self._class:
            self.methods.add(id(node))
            self.method_class[id(node)] = self._class[-1].name.value
            star = node.params.star_kwarg
            if self._class[-1].name.value in self.callback_classes and node.name.value.startswith("on_") and star:
                self.callback_kwargs[id(node)] = star.name.value
        self.all_scopes.append(s)
        self.scopes.append(s)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.scopes.pop()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._class.append(node)
        if any(dotted(b.value).split(".")[-1] in self.args_classes for b in node.bases):
            self.args_classes.add(node.name.value)
        if any(dotted(b.value).split(".")[-1] in self.callback_classes for b in node.bases):
            self.callback_classes.add(node.name.value)

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self._class.pop()

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self._stmt.append(node)
        if self._block and self._block[-1] is self.module_scope.node and any(  # type: ignore[union-attr]
                isinstance(s, (cst.Import, cst.ImportFrom)) for s in node.body):
            self.last_top_import = node

    def leave_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self._stmt.pop()
        if _unsets_zero3(node) and not self._dead and self._block:
            self._dead_rest.append(id(self._block[-1]))  # ZeRO-3 is unregistered for the rest of the block
            self._dead += 1

    @staticmethod
    def _with(node: cst.With, suffix: str) -> bool:
        return any(dotted(i.item.func if isinstance(i.item, cst.Call) else i.item).endswith(suffix) for i in node.items)

    @staticmethod
    def _meta_device(node: cst.With) -> bool:
        """accelerate's ``init_empty_weights()`` / ``init_on_device(torch.device("meta"))``, ``torch.device("meta")``."""
        for i in node.items:
            call = i.item
            name = dotted(call.func if isinstance(call, cst.Call) else call).split(".")[-1]
            if name == "init_empty_weights":
                return True
            if name in ("init_on_device", "device") and isinstance(call, cst.Call) and any(
                    isinstance(n, cst.SimpleString) and n.value.strip("'\"") == "meta" for n in descendants(call)):
                return True
        return False

    def visit_With(self, node: cst.With) -> None:
        self._zero_init += self._with(node, "zero.Init")
        self._gathered += self._with(node, "GatheredParameters")
        self._meta += self._meta_device(node)

    def leave_With(self, node: cst.With) -> None:
        self._zero_init -= self._with(node, "zero.Init")
        self._gathered -= self._with(node, "GatheredParameters")
        self._meta -= self._meta_device(node)

    # names -------------------------------------------------------------------------------------------
    def visit_Global(self, node: cst.Global) -> None:
        self.scope.globals_.update(n.name.value for n in node.names)

    def visit_Return(self, node: cst.Return) -> None:
        if node.value is not None:
            for n in _names(node.value):
                self.scope.returns.add(n)

    def visit_Import(self, node: cst.Import) -> None:
        for a in node.names:
            full = dotted(a.name)
            local = a.asname.name.value if a.asname and isinstance(a.asname.name, cst.Name) else full.split(".")[0]
            self.imported[local] = full
        self.import_nodes.append((node, " ".join(dotted(a.name) for a in node.names), self._guarded()))

    def _guarded(self) -> bool:
        """Inside an ``if`` / ``try`` (a version-gated or fallback import)."""
        return bool(self._ifs) or self._try > 0

    def visit_Try(self, node: cst.Try) -> None:
        self._try += 1
        self._tries.append(node)

    def leave_Try(self, node: cst.Try) -> None:
        self._try -= 1
        self._tries.pop()
        first = [e for e in self.events if e.kind == "load" and _inside(e.stmt, node.body)]
        if first and any(_inside(e.stmt, h) for e in self.events if e.kind == "load" for h in node.handlers):
            for e in first:
                e.fallback = True

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        mod = ("." * len(node.relative)) + (dotted(node.module) if node.module else "")
        self.import_nodes.append((node, mod, self._guarded()))
        if isinstance(node.names, cst.ImportStar):
            return
        for a in node.names:
            name = dotted(a.name)
            local = a.asname.name.value if a.asname and isinstance(a.asname.name, cst.Name) else name
            self.imported[local] = f"{mod}.{name}"

    def _entries(self, name: str, value: Any) -> None:
        """The keys of a dict literal / ``dict(...)`` call stored in (or merged into) the dict ``name``."""
        if isinstance(value, cst.Dict):
            d = self.scope.dicts.setdefault(name, {})
            for el in value.elements:
                if isinstance(el, cst.DictElement) and kw_key(el.key):
                    d.setdefault(kw_key(el.key) or "", []).append((el.value, el))
        elif isinstance(value, cst.Call) and dotted(value.func) == "dict":
            self._keywords(name, value.args)

    def _keywords(self, name: str, args: Sequence[cst.Arg]) -> None:
        d = self.scope.dicts.setdefault(name, {})
        for a in args:
            if a.keyword is not None:
                d.setdefault(a.keyword.value, []).append((a.value, a))

    def visit_Del(self, node: cst.Del) -> None:
        if isinstance(node.target, cst.Subscript) and len(node.target.slice) == 1 and \
                isinstance(node.target.slice[0].slice, cst.Index):
            self._drop(node.target.value, node.target.slice[0].slice.value)

    def _drop(self, holder: Any, key_node: Any) -> None:
        """``kwargs.pop("device_map")`` / ``del kwargs["device_map"]`` where a ZeRO-3 run always takes it, given
        the branches it shares with a later load (the branch of each other enclosing ``if`` that ZeRO-3 takes):
        that load's ``**kwargs`` no longer holds the key (:meth:`_dropped_for`)."""
        key = kw_key(key_node)  # also in a branch no ZeRO-3 run takes: a load there (rules that need no ZeRO-3) lost it
        if key is None or not isinstance(holder, cst.Name) or len(self._conds) != len(self._ifs):
            return
        shared = []
        for (test, body), (node, body_dead, else_dead, _) in zip(self._conds, self._ifs):
            if node.test is not test:
                return
            if not (else_dead if body else body_dead):
                shared.append((test, body))
        self._drops.append((self.scope, holder.value, key, shared))

    def _dropped_for(self, call: Any) -> None:
        stars = {a.value.value for a in call.args if a.star == "**" and isinstance(a.value, cst.Name)}
        for scope, name, key, shared in self._drops:
            if scope is self.scope and name in stars and all(
                    any(t is test and b == body for t, b in self._conds) for test, body in shared):
                self.dropped.setdefault(id(call), set()).add(key)

    def _bind(self, target: Any, value: Any) -> None:
        sc = self.scope
        if self._dead:
            return  # an assignment that does not run under ZeRO-3
        if isinstance(target, cst.Name):
            sc.assigns.setdefault(target.value, []).append(value)
            self._entries(target.value, value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for item in target.elements:
                self._bind(item.value, None)
        elif isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name) and len(target.slice) == 1:
            sl = target.slice[0].slice
            key = kw_key(sl.value) if isinstance(sl, cst.Index) else None
            if key:
                sc.dicts.setdefault(target.value.value, {}).setdefault(key, []).append((value, value))

    def visit_Assign(self, node: cst.Assign) -> None:
        self.conds_of[id(node.value)] = tuple(self._conds)  # where the value is bound (a reaching definition's branch)
        for t in node.targets:
            self._bind(t.target, node.value)
            tg = t.target
            if isinstance(tg, cst.Attribute) and not self._dead:
                self.attr_assigns.append((tg.attr.value, node.value, node, self.scope))
                self.conds_of[id(node)] = tuple(self._conds)
            if isinstance(tg, cst.Subscript) and dotted(tg.value) == "os.environ" and len(tg.slice) == 1 \
                    and isinstance(tg.slice[0].slice, cst.Index) and self._stmt:
                key = kw_key(tg.slice[0].slice.value)
                if key:
                    self._event("env", node, key)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if self._class and isinstance(node.target, cst.Name):  # a dataclass field
            val = node.value
            if isinstance(val, cst.Call) and dotted(val.func).split(".")[-1] == "field":
                val = next((a.value for a in val.args if a.keyword and a.keyword.value == "default"), None)
            self.field_defaults.setdefault(node.target.value, []).append(val)
            return
        if node.value is not None:
            self._bind(node.target, node.value)

    def visit_For(self, node: cst.For) -> None:
        self._bind(node.target, None)

    # calls -------------------------------------------------------------------------------------------
    def visit_Call(self, node: cst.Call) -> None:
        name = dotted(node.func)
        self.calls_with.append((node, name))
        self.call_scope[id(node)] = self.scope
        self.conds_of[id(node)] = tuple(self._conds)
        if self._gathered:
            self.gathered_calls.add(id(node))
        if self._dead:
            self.dead_calls.add(id(node))
        last = node.func.attr.value if isinstance(node.func, cst.Attribute) else name.split(".")[-1]
        if last == "add_argument":
            self._argparse(node)
        if last == "update" and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name) \
                and node.args and not self._dead:
            if node.args[0].keyword is None:  # ``kw.update({...})`` / ``kw.update(dict(...))``
                self._entries(node.func.value.value, node.args[0].value)
            else:  # ``kw.update(device_map=...)``
                self._keywords(node.func.value.value, node.args)
        if last == "pop" and isinstance(node.func, cst.Attribute) and node.args:
            self._drop(node.func.value, node.args[0].value)
        kind = ""
        if self.foreign_loader(name):
            pass  # ipex_llm's AutoModelForCausalLM / prepare_model_for_kbit_training: its own, not Transformers'
        elif last in LOAD_METHODS and "." in name and not NOT_A_MODEL.search(name.rsplit(".", 1)[0]):
            kind = "load"
        elif MODEL_CTOR.match(last) and node.args:
            kind = "load"
        elif last in self.args_classes or last == "Accelerator" or re.match(r"parse_(args_into_dataclasses|json_file|"
                                                                            r"yaml_file|dict|args_and_config)$", last):
            kind = "register"
        elif last in ("HfDeepSpeedConfig", "HfTrainerDeepSpeedConfig"):  # the Trainer's subclass registers alike
            kind = "hfds"
        elif name.endswith("deepspeed.initialize") or name == "initialize" and "deepspeed" in self.imported.get(
                "initialize", ""):
            kind = "initialize"
        elif last.endswith("Trainer") and last[0].isupper():
            kind = "trainer"
        elif (isinstance(node.func, cst.Attribute) and last in ("save_pretrained", "_save")) or name == "torch.save":
            kind = "save"
        elif isinstance(node.func, cst.Attribute) and last in COLLECTIVE_SAVES:
            kind = "gather"
        elif last == "prepare_model_for_kbit_training":
            kind = "kbit"
        elif last in ("DeepSpeedCPUAdam", "FusedAdam", "DeepSpeedCPUAdagrad", "DeepSpeedCPULion") or (
                last == "load" and "Builder" in name):
            kind = "opbuild"  # builds (JIT) and checks a DeepSpeed op now
        elif isinstance(node.func, cst.Attribute) and last in ("cuda", "to", "half"):
            kind = "move"
        elif isinstance(node.func, cst.Name):
            kind = "call"
        if kind == "load" and self._drops:
            self._dropped_for(node)
        if kind and self._stmt:
            self._event(kind, node, name)

    def foreign_loader(self, callee: str) -> bool:
        """Is ``callee`` (``AutoModelForCausalLM.from_pretrained``) imported from a package whose loaders under
        Transformers' / PEFT's names are its own (knowledge/foreign_loaders)?"""
        return self.imported.get(callee.split(".")[0], "").split(".")[0] in FL.OWN_LOADER_PACKAGES

    def _event(self, kind: str, node: Any, name: str) -> None:
        stmt = self._stmt[-1]
        small = stmt.body[0] if len(stmt.body) == 1 else None
        bound = None
        if isinstance(small, cst.Assign) and small.value is node and len(small.targets) == 1:
            t = small.targets[0].target
            bound = t.value if isinstance(t, cst.Name) else dotted(t) or None
        bare = isinstance(small, cst.Expr) and small.value is node
        self._seq += 1
        self.events.append(Event(kind, node, self.scope, stmt, self._block[-1] if self._block else None, self._seq,
                                 name, self._zero_init > 0, bound, bare, self._dead > 0, self._gathered > 0,
                                 tuple(self._conds), meta=self._meta > 0))

    def _argparse(self, node: cst.Call) -> None:
        flags = [kw_key(a.value) for a in node.args if a.keyword is None]
        dest = next((kw_key(a.value) for a in node.args if a.keyword and a.keyword.value == "dest"), None)
        long = [f for f in flags if f and f.startswith("--")]
        if not dest and long:
            dest = long[0][2:].replace("-", "_")
        if not dest:
            return
        action = next((kw_key(a.value) for a in node.args if a.keyword and a.keyword.value == "action"), None)
        if action in ("store_true", "store_false"):
            self.flag_dests.add(dest)
        default = next((a.value for a in node.args if a.keyword and a.keyword.value == "default"), None)
        self.field_defaults.setdefault(dest, []).append(default if action is None else None)


def _exits(block: Any) -> bool:
    """Does the block end in ``return`` / ``raise``?"""
    body = getattr(block, "body", ())
    last = body[-1] if body else None
    return isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], (cst.Return, cst.Raise))


def _unsets_zero3(stmt: Any) -> bool:
    """``unset_hf_deepspeed_config()`` as a statement: Transformers forgets the ZeRO-3 config, so what follows
    (a fresh ``from_pretrained``, its save) runs as without ZeRO-3."""
    return isinstance(stmt, cst.SimpleStatementLine) and any(
        isinstance(s, cst.Expr) and isinstance(s.value, cst.Call)
        and dotted(s.value.func).split(".")[-1] == TF.UNSET_HF_DEEPSPEED_CONFIG for s in stmt.body)


def _inside(node: Any, container: Any) -> bool:
    return any(n is node for n in descendants(container, trivia=False))  # a statement: never trivia


def _names(node: Any) -> Set[str]:
    return {n.value for n in descendants(node, trivia=False) if isinstance(n, cst.Name)}


def names_in(node: Any) -> Set[str]:
    return _names(node)


# values ----------------------------------------------------------------------------------------------

def is_guard(node: Any) -> Optional[bool]:
    """``is_deepspeed_zero3_enabled()`` (or the engine's ``zero_optimization_partition_weights()``, or a predicate
    named for ZeRO-3: :data:`ZERO3_PREDICATE`) -> True; ``not is_deepspeed_zero3_enabled()`` -> False; else None."""
    if isinstance(node, cst.Call) and (dotted(node.func).split(".")[-1] in (TF.ZERO3_GUARD_NAME, *K.ENGINE_ZERO3_TESTS)
                                       or ZERO3_PREDICATE.match(dotted(node.func).split(".")[-1])):
        return True
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        inner = is_guard(node.expression)
        return None if inner is None else not inner
    return True if _reads_deepspeed_env(node) else None


def _reads_deepspeed_env(node: Any) -> bool:
    """``strtobool(os.environ.get("ACCELERATE_USE_DEEPSPEED", "false"))``, ``os.getenv(...) == "true"``,
    ``os.environ["ACCELERATE_USE_DEEPSPEED"]``: true wherever the run uses DeepSpeed, so under ZeRO-3 (the launcher
    or TrainingArguments sets it before the model is built, the same order ``is_deepspeed_zero3_enabled()`` needs)."""
    if isinstance(node, cst.Call) and len(node.args) == 1 and not dotted(node.func).startswith("os."):
        node = node.args[0].value  # strtobool(...) / str_to_bool(...) / bool(...)
    if isinstance(node, cst.Comparison) and len(node.comparisons) == 1 \
            and isinstance(node.comparisons[0].operator, cst.Equal) \
            and isinstance(node.comparisons[0].comparator, cst.SimpleString) \
            and node.comparisons[0].comparator.value[1:-1].lower() in ("true", "1"):
        node = node.left
    if isinstance(node, cst.Call) and dotted(node.func) in ("os.environ.get", "os.getenv", "environ.get", "getenv"):
        key = node.args[0].value if node.args else None
    elif isinstance(node, cst.Subscript) and dotted(node.value) in ("os.environ", "environ") \
            and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
        key = node.slice[0].slice.value
    else:
        return False
    return isinstance(key, cst.SimpleString) and key.value[1:-1] == TF.DEEPSPEED_ENV_FLAG


def branch_guard(test: Any) -> Optional[bool]:
    """True when ``if test:`` implies ZeRO-3 is on, False when it implies it is off, else None
    (``a and not is_deepspeed_zero3_enabled()`` -> False; ``a or b`` -> None)."""
    g = is_guard(test)
    if g is not None:
        return g
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        for side in (test.left, test.right):
            g = branch_guard(side)
            if g is not None:
                return g
    return None


def is_model_call(node: Any) -> bool:
    """A call whose result is a model (a load, a PEFT wrap, accelerate's unwrap_model)."""
    if not isinstance(node, cst.Call):
        return False
    name = dotted(node.func)
    last = name.split(".")[-1]
    if last == "from_pretrained":
        return not NOT_A_MODEL.search(name.rsplit(".", 1)[0]) or "Peft" in name
    return last in MODEL_MAKERS or bool(MODEL_CTOR.match(last))


def model_names(script: "Script") -> Set[str]:
    """Names that hold a model somewhere in the file (assigned from a load / PEFT wrap)."""
    out: Set[str] = set()
    for sc in script.all_scopes:
        for name, vals in sc.assigns.items():
            if any(is_model_call(v) for v in vals):
                out.add(name)
    return out
