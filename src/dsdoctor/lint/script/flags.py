"""Findings behind a command-line flag that no ZeRO-3 launch of the project passes.

A problem in the body of ``if args.bits in [4, 8]:`` (``args.q_lora``, ``training_args.load_in_4bit is not None``
...) only happens when the run passes that option. Where the project's ZeRO-3 launches are known and none of
those that reach the file passes it, the finding is ``info`` ("only with --bits ..."); a launch that passes the
option keeps it an error or warning. A negated test (``if not args.x``: the default path) never gates. So does a
call argument whose value is set only with the option (``load_in_8bit=args.bits == 8``, ``X if args.use_lora
else None``): an option given as false in the launch (``--use_lora False``) is not passed. Both sides of an ``and``
gate (``args.use_lora and args.use_q_lora`` needs both options); an option compared with literals
(``args.bits in [4, 8]``, ``args.mode == "qlora"``) gates against the values the launches give it (``--bits 16``
leaves it off; a value written as a variable counts as any). A section of a config file the launch hands over reads
the same way (``config.model.load_from_origin``: set by the Python config or a ``key value`` override of the launch
line, lint/recipe_yaml.py). Only for the rules in
``GATED``. A test on a parameter that every call of its function passes from an option (``if qlora:`` in
``load(..., qlora=args.qlora)``, default off) reads that option, and so does a test on a name set in an option's
``if`` body and None in its ``else`` (``if args.qlora: bnb = BitsAndBytesConfig(...)`` / ``else: bnb = None``, then
``if bnb:``). The ``else`` of ``if args.x == "no":`` (the rest of its block where its body returns), and the body
of ``if args.x != "no":``, run only with another value than "no": closed where the launch does not pass ``x`` and
the code it runs declares the default "no" (a dataclass field, ``add_argument``: lint/defaults.py; none declared, or
several: open). For every rule: a finding in a top-level function or class that the file names only inside such
gates (``if model_args.use_lora: trainer.add_callback(SavePeftModelCallback)``) runs only with the option. In a
method of the options dataclass itself (a class the file gives ``HfArgumentParser``, or a ``@dataclass`` named
``*Arguments`` / ``*Args``), ``self.load_in_4bit`` reads ``--load_in_4bit`` as ``args.load_in_4bit`` does, for the
fields that default to False / None (one defaulting to True or a value is on without the option). A finding of
``GATED`` behind several options (nested ``if``s; for ``BY_SOURCE``, its line and the values it names) is judged
launch by launch as well (flags_gating.apart): where each ZeRO-3 launch leaves one of them closed, it is info
though the launches together pass them all (``--use_lora`` in the LoRA recipe, ``--gradient_checkpointing`` in the
full one).
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any, Dict, List, Optional, Set, Tuple

import libcst as cst

from ... import names as N
from ...knowledge import trl as TRL
from ..defaults import CONFLICT, OFF
from ..entry_options import EVERY
from ..entry_options import given as given_values
from ..option_values import NAMESPACE, SECTIONED
from . import flags_sources as FS
from .dataflow import dotted
from .flags_sources import Own, in_orelse, is_none, own_field, own_methods, param_option_names, param_options, set_in_gate
from .walk import walk

# rules whose finding points at the value that causes the problem (a load argument, a quantization, a call), so
# that a finding inside a gated body happens only with the option (not e.g. a setting chosen in the other branch)
# zero3-device-map-conflict: also when every value it names as the source is in such a body (the load is not);
# device-map-requires-low-cpu-mem-usage names the device_map's sources when low_cpu_mem_usage is off only under ZeRO-3
# peft-checkpointing-reentrant names the calls that make the file's PEFT model; qlora-quant-storage-missing names the
# value that makes the config 4-bit (``load_in_4bit=args.bits == 4`` beside ``load_in_8bit=args.bits == 8``)
BY_SOURCE = {N.ZERO3_DEVICE_MAP_CONFLICT, N.DEVICE_MAP_REQUIRES_LOW_CPU_MEM_USAGE, N.PEFT_CHECKPOINTING_REENTRANT,
             N.QLORA_QUANT_STORAGE_MISSING}
GATED = {N.ZERO3_DEVICE_MAP_CONFLICT, N.ZERO3_LOW_CPU_MEM_USAGE_CONFLICT, N.QLORA_QUANT_STORAGE_MISSING,
         N.ZERO3_UNSUPPORTED_QUANTIZATION, N.PREPARE_KBIT_UNDER_ZERO3,
         N.PEFT_CHECKPOINTING_REENTRANT,  # points at the use_reentrant=False that causes it
         N.ZERO3_UNSAFE_SAVE}  # points at the save: `if args.save_merged:` saves only with the option
# load arguments that do harm under ZeRO-3 only when true: given straight from an option (``load_in_8bit=args.q8``,
# or a name assigned from one: ``q8 = args.q8`` ... ``load_in_8bit=q8``) they are on only with that option
_ON_WHEN_TRUE = frozenset({"load_in_8bit", "load_in_4bit", "low_cpu_mem_usage"})


def _alts(test: Any, optional: Optional[Dict[str, Set[str]]] = None, own: "Own" = None) -> List[Set[str]]:
    """The options a test reads positively (``args.x``, ``args.x == 4``, ``args.x in (...)``, ``and`` / ``or``), as
    alternatives: the test is false unless, for each set, the launch passes one of its options (``a and b``: two
    sets; ``a or b``: one). An option compared with literals (``args.bits in [4, 8]``) reads ``bits=4|8``: a
    launch that passes it with other values (``--bits 16``) leaves the test false. ``optional``: names holding a
    value that is None unless an option is passed (``q is not None``, ``if q:``). ``own``: in a method of an
    options dataclass, its ``self`` and fields (``self.load_in_4bit`` reads ``--load_in_4bit``: :func:`.flags_sources.options_classes`)."""
    if optional and _is_not_none(test):
        test = test.left
    if optional and isinstance(test, cst.Name):
        return [set(optional[test.value])] if test.value in optional else []
    if isinstance(test, cst.BooleanOperation):
        left, right = _alts(test.left, optional, own), _alts(test.right, optional, own)
        if isinstance(test.operator, cst.And):  # false unless both sides hold: each side's options gate it
            return left + right  # (``args.merge and trainer.is_world_process_zero()``: the option alone)
        return [set().union(*left, *right)] if left and right else []
    values: List[str] = []
    if isinstance(test, cst.Comparison):
        values = _literals(test)
        test = test.left
        held = _HELD.get() or {}
        if values and isinstance(test, cst.Name) and test.value in held:  # ``bits == 8``, bits=args.bits
            return [{held[test.value] + "=" + "|".join(values)}]
    if isinstance(test, cst.Attribute) and (options_namespace(test.value) or own_field(test, own) or (
            isinstance(test.value, cst.Name) and test.value.value in (_TYPED.get() or set()))):
        return [{test.attr.value + ("=" + "|".join(values) if values else "")}]
    return []


# in :func:`option_gates`, the parameters of the function visited that hold an option's value
# (:func:`.flags_sources.param_option_names`): parameter -> option
_HELD: ContextVar[Optional[Dict[str, str]]] = ContextVar("held", default=None)
# ... and its parameters annotated with a class the module parses options into (``model_config: ModelConfig``)
_TYPED: ContextVar[Optional[Set[str]]] = ContextVar("typed", default=None)


def _option_name(value: Any) -> Optional[str]:
    return value.attr.value if isinstance(value, cst.Attribute) and options_namespace(value.value) else None


def options_namespace(value: Any) -> bool:
    """Is ``value`` (the object of ``value.attr``) a namespace of the run's options: ``args``, ``opts``, ``cfg`` (or
    ``self.model_args``), or a section of a config the launch hands over (``config.model``; ``config``: a model's)?"""
    if isinstance(value, cst.Name):
        return bool(NAMESPACE.match(value.value))
    while isinstance(value, cst.Attribute):
        if isinstance(value.value, cst.Name) and value.value.value == "self":  # parsed arguments kept on the object
            return value.attr.value.endswith("_args")  # (``self.args`` may carry values set at run time: global_rank)
        value = value.value
    return isinstance(value, cst.Name) and bool(NAMESPACE.match(value.value) or SECTIONED.match(value.value))


def config_mirrors(module: Any) -> Dict[str, str]:
    """The model-config attributes the module sets from an option, ``self.config.x = model_args.x`` (LLaVA-style
    code stores its options in the config it saves): attribute -> option."""
    out: Dict[str, str] = {}

    class Visit(cst.CSTVisitor):
        def visit_Assign(self, node: Any) -> None:
            target, value = node.targets[0].target, node.value
            if len(node.targets) == 1 and isinstance(target, cst.Attribute) and _is_config(target.value) and \
                    isinstance(value, cst.Attribute) and options_namespace(value.value):
                out[target.attr.value] = value.attr.value

    walk(module, Visit())
    return out


def _is_config(value: Any) -> bool:
    """``config``, ``self.config``, ``model.config``."""
    return (isinstance(value, cst.Name) and value.value == "config") or \
        (isinstance(value, cst.Attribute) and value.attr.value == "config")


def _mirrored(test: Any, mirrors: Dict[str, str]) -> List[Set[str]]:
    """``getattr(config, "x", False)`` / ``self.config.x`` where the module sets ``config.x`` from ``--x``
    (:func:`config_mirrors`): the test reads that option."""
    attr = None
    if isinstance(test, cst.Call) and dotted(test.func) == "getattr" and len(test.args) == 3 and \
            _is_config(test.args[0].value) and isinstance(test.args[1].value, cst.SimpleString) and \
            isinstance(test.args[2].value, cst.Name) and test.args[2].value.value in ("False", "None"):
        attr = test.args[1].value.evaluated_value
    elif isinstance(test, cst.Attribute) and _is_config(test.value):
        attr = test.attr.value
    return [{mirrors[attr]}] if isinstance(attr, str) and attr in mirrors else []


def _is_not_none(test: Any) -> bool:
    """``name is not None``."""
    return isinstance(test, cst.Comparison) and isinstance(test.left, cst.Name) and len(test.comparisons) == 1 \
        and isinstance(test.comparisons[0].operator, cst.IsNot) \
        and isinstance(test.comparisons[0].comparator, cst.Name) and test.comparisons[0].comparator.value == "None"


def _optional_call(value: Any) -> Set[str]:
    """The options without which a call returns None (TRL's ``get_quantization_config``), also through a method
    called on its result (``get_quantization_config(args).to_dict()``: without them that call raises
    AttributeError, so nothing after it runs)."""
    while isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and isinstance(value.func.value, cst.Call):
        value = value.func.value
    if isinstance(value, cst.Call) and dotted(value.func).split(".")[-1] == TRL.QUANTIZATION_CONFIG:
        return set(TRL.QUANTIZATION_OPTIONS)
    return set()


def _flags(test: Any) -> Set[str]:
    """Every option :func:`_alts` reads, in one set (any of them may turn the test on)."""
    return set().union(*_alts(test))


def _literals(test: Any) -> List[str]:
    """The values ``x == 4`` / ``x in (4, 8)`` / ``x == "nf4"`` allows (all comparisons ``==`` / ``in`` literal
    numbers or strings); [] when not only such."""
    out: List[str] = []
    for t in test.comparisons:
        if not isinstance(t.operator, (cst.Equal, cst.In)):
            return []
        items = [e.value for e in t.comparator.elements] if isinstance(t.comparator, (cst.Tuple, cst.List, cst.Set)) \
            else [t.comparator]
        for it in items:
            if isinstance(it, cst.Integer):
                out.append(it.value)
            elif isinstance(it, cst.SimpleString):
                out.append(it.value[1:-1])
            else:
                return []
    return out


_OFF_DEFAULTS = OFF | {CONFLICT}  # declared defaults a bare test reads as off (CONFLICT: unknown)


def is_open(flag: str, passed: Set[str], defaults: Optional[Dict[str, str]] = None) -> bool:
    """Does a launch passing ``passed`` (``bits``, and ``bits=16`` where it gives a value) turn on the option test
    ``flag`` (``bits``, or ``bits=4|8``: only those values; ``exp=!no``: any value but the option's default
    ``no``, which ``defaults``, the code the launch runs, must declare: else it is open; ``-deepspeed``: the
    option left out, closed where every launch passes it, ``+deepspeed`` in ``passed``)?"""
    if flag.startswith("-"):
        return EVERY + flag[1:] not in passed
    if "!=" in flag:
        name, _, lit = flag.partition("!=")
        if name in passed:
            return given_values(passed, name) != {lit}
        return (defaults or {}).get(name) != lit
    name, eq, allowed = flag.partition("=")
    if name not in passed:  # left out: the option's declared default (``bits: int = 8`` turns ``bits == 8`` on,
        declared = (defaults or {}).get(name)  # ``default=True`` turns ``if args.save_merged:`` on)
        return declared in allowed.split("|") if eq else declared is not None and declared not in _OFF_DEFAULTS
    given = given_values(passed, name)
    return not eq or not given or bool(given & set(allowed.split("|")))


def _value_flags(value: Any, optional: Optional[Dict[str, Set[str]]] = None, own: "Own" = None) -> List[Set[str]]:
    """The options a call argument's value is set only with: ``load_in_8bit=args.bits == 8`` (``==`` / ``in``
    a literal), ``quantization_config=BitsAndBytesConfig(...) if args.use_lora else None``, TRL's
    ``get_quantization_config(model_args)`` (None unless ``--load_in_4bit`` / ``--load_in_8bit``)."""
    if isinstance(value, cst.Comparison):
        ops = all(isinstance(t.operator, (cst.Equal, cst.In)) for t in value.comparisons)
        lits = all(isinstance(t.comparator, (cst.Integer, cst.SimpleString, cst.Tuple, cst.List, cst.Set))
                   for t in value.comparisons)
        return _alts(value, None, own) if ops and lits else []
    if isinstance(value, cst.IfExp) and isinstance(value.orelse, cst.Name) and value.orelse.value in ("None", "False"):
        return _alts(value.test, optional, own)
    if isinstance(value, cst.BooleanOperation) and isinstance(value.operator, cst.And):  # false unless each side holds
        return _value_flags(value.left, optional, own) + _value_flags(value.right, optional, own)  # (``hasattr(a, "x") and ...``)
    got = _optional_call(value)
    return [got] if got else []


_QUANTIZING = ("load_in_4bit", "load_in_8bit")


def _quantizes_with(call: Any, optional: Dict[str, Set[str]], own: "Own" = None) -> Set[str]:
    """The options a quantization config call (``BitsAndBytesConfig(load_in_4bit=args.bits == 4, ...)``)
    quantizes with: every ``load_in_4bit`` / ``load_in_8bit`` it passes is set only with one of them (none passed:
    nothing; a ``**kwargs``: unknown)."""
    if dotted(call.func).split(".")[-1] != "BitsAndBytesConfig" or any(a.star for a in call.args):
        return set()
    keys = [a for a in call.args if a.keyword is not None and a.keyword.value in _QUANTIZING]
    out: Set[str] = set()
    for a in keys:
        alts = _value_flags(a.value, optional, own)
        if len(alts) != 1:
            return set()
        out |= alts[0]
    return out


def option_gates(src: Any) -> "Gates":
    """(start, end, options) of the body of every ``if`` whose test reads options (whole lines), and of every call
    argument whose value is set only with an option (:func:`_value_flags`, to the column). A test on a parameter
    of the enclosing function (``if qlora:``) reads the options every call of the function in the file passes for
    it (``load(..., qlora=args.qlora)``)."""
    out: Gates = []
    params, held = param_options(src.module, _flags), param_option_names(src.module, _option_name)
    mirrors, methods, parsed = config_mirrors(src.module), own_methods(src.module), FS.parsed_classes(src.module)
    stack: List[Any] = []
    tokens: List[Any] = []  # per function: the context tokens of _HELD and _TYPED
    owns: List["Own"] = [None]  # per function: the options dataclass whose method it is (or is nested in)
    optional: Dict[int, Dict[str, Set[str]]] = {}  # per function (0: module): name -> options it needs to be set
    aliases: Dict[int, Dict[str, List[Set[str]]]] = {}  # per function: name -> the option it was assigned from
    ifs: List[Tuple[Any, List[Set[str]]]] = []  # the ``if`` statements around the node visited, with their options

    def here() -> Dict[str, Set[str]]:
        return optional.setdefault(id(stack[-1]) if stack else 0, {})

    def alias() -> Dict[str, List[Set[str]]]:
        return aliases.setdefault(id(stack[-1]) if stack else 0, {})

    class Visit(cst.CSTVisitor):
        def visit_FunctionDef(self, node: Any) -> None:
            owns.append(methods.get(id(node), owns[-1]))
            stack.append(node)
            tokens.append((_HELD.set(held.get(id(stack[0]), {})), _TYPED.set((_TYPED.get() or set()) | FS.typed_options(node, parsed))))

        def leave_FunctionDef(self, node: Any) -> None:
            stack.pop()
            owns.pop()
            _TYPED.reset(tokens[-1][1])
            _HELD.reset(tokens.pop()[0])

        def visit_Assign(self, node: Any) -> None:
            target = node.targets[0].target if len(node.targets) == 1 else None
            if isinstance(target, cst.Name):  # a later assignment of the name replaces what it needs
                plain = _alts(node.value) if isinstance(node.value, cst.Attribute) else []
                if plain:
                    alias()[target.value] = plain
                else:
                    alias().pop(target.value, None)
                flags = _optional_call(node.value) or set_in_gate(target.value, node, src, ifs)
                if flags:
                    here()[target.value] = flags
                elif target.value not in here() or not is_none(node.value) or not in_orelse(node, src, ifs):
                    here().pop(target.value, None)

        def leave_If(self, node: Any) -> None:
            ifs.pop()

        def visit_Call(self, node: Any) -> None:
            flags = _optional_call(node) or _quantizes_with(node, here(), owns[-1])
            out.extend(_over(node, [flags] if flags else [], src))

        def visit_DictElement(self, node: Any) -> None:  # ``{"load_in_8bit": args.bits == 8}``: as a keyword
            out.extend(_over(node, _value_flags(node.value, here(), owns[-1])
                             if isinstance(node.key, cst.SimpleString) else [], src))

        def visit_If(self, node: Any) -> None:
            alts = _alts(node.test, here(), owns[-1]) or _mirrored(node.test, mirrors) or (
                alias().get(node.test.value, []) if isinstance(node.test, cst.Name) else [])  # is_int8 = args.use_int8
            ifs.append((node, alts))
            if not alts and stack and isinstance(node.test, cst.Name):
                alts = [f for f in [params.get((id(stack[-1]), node.test.value), set())] if f]
            out.extend(_if_gates(node, alts, src))

        def visit_IndentedBlock(self, node: Any) -> None:
            out.extend(_after_return(node, src))

        def visit_Arg(self, node: Any) -> None:
            out.extend(_over(node, _arg_alts(node, here(), alias(), owns[-1]), src))

    walk(src.module, Visit())  # the same hooks as src.module.visit, without copying the tree
    return out


def _over(node: Any, alts: List[Set[str]], src: Any) -> "Gates":
    """The gates ``alts`` over ``node``'s range: the file's positions (a codegen pass) asked only where there is one."""
    r = src.positions[node] if alts else None
    return [((r.start.line, r.start.column), (r.end.line, r.end.column), flags) for flags in alts] if r else []


def _if_gates(node: Any, alts: List[Set[str]], src: Any) -> "Gates":
    """The gates of ``if`` ``node`` whose test reads the options ``alts``: its body; the ``else`` of ``if args.x:``
    (``-x``: closed where every launch passes ``--x``); the body or ``else`` of a test against a default
    (:func:`_not_default`)."""
    body = src.positions[node.body] if alts else None  # the file's positions only where a gate is found
    out: Gates = [((body.start.line, 0), (body.end.line, _EOL), flags) for flags in alts] if body else []
    if isinstance(node.orelse, cst.Else) and len(alts) == 1 and len(alts[0]) == 1 and \
            "=" not in next(iter(alts[0])) and isinstance(node.test, cst.Attribute):  # `else` of `if args.x:`
        where = src.positions[node.orelse]
        out.append(((where.start.line, 0), (where.end.line, _EOL), {"-" + next(iter(alts[0]))}))
    other = _not_default(node.test)
    if other is not None and (other[1] or node.orelse is not None):
        where = src.positions[node.body if other[1] else node.orelse]
        out.append(((where.start.line, 0), (where.end.line, _EOL), {other[0]}))
    return out


def _arg_alts(node: Any, optional: Dict[str, Set[str]], aliases: Dict[str, List[Set[str]]],
              own: "Own" = None) -> List[Set[str]]:
    """The options a keyword argument is set only with (:func:`_value_flags`), or, for a load argument harmful only
    when true (``_ON_WHEN_TRUE``), the option it is given straight from (``load_in_8bit=args.q8``, or a name
    assigned from one, or one set in an option's ``if`` and off in its ``else``)."""
    if node.keyword is None:
        return []
    alts = _value_flags(node.value, optional, own)
    if not alts and node.keyword.value in _ON_WHEN_TRUE:
        alts = _alts(node.value, None, own) if isinstance(node.value, cst.Attribute) else \
            aliases.get(node.value.value, []) if isinstance(node.value, cst.Name) else []
        if not alts and isinstance(node.value, cst.Name) and node.value.value in optional:
            alts = [set(optional[node.value.value])]  # ``load_in_8bit = args.bits == 8`` in the option's if, else False
    return alts


def _not_default(test: Any) -> Optional[Tuple[str, bool]]:
    """``args.x == "no"``: (``x!=no``, False: its ``else`` runs only with another value than "no"); ``args.x !=
    "no"``: (``x!=no``, True: its body does). Such a gate is closed where the launch leaves the option at a
    declared default "no" (:func:`is_open`)."""
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1 or \
            not isinstance(test.left, cst.Attribute) or not options_namespace(test.left.value):
        return None
    op, lit = test.comparisons[0].operator, test.comparisons[0].comparator
    if not isinstance(op, (cst.Equal, cst.NotEqual)) or not isinstance(lit, (cst.SimpleString, cst.Integer)):
        return None
    value = lit.value[1:-1] if isinstance(lit, cst.SimpleString) else lit.value
    return f"{test.left.attr.value}!={value}", isinstance(op, cst.NotEqual)


def _after_return(block: Any, src: Any) -> "Gates":
    """``if args.x == "no": return`` (its body ends in a return / raise): the rest of the block runs only with
    another value (``x!=no``)."""
    out: Gates = []
    for i, st in enumerate(block.body[:-1]):
        other = _not_default(st.test) if isinstance(st, cst.If) and st.orelse is None else None
        if other is None or other[1] or not st.body.body:
            continue
        last = st.body.body[-1]
        if isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], (cst.Return, cst.Raise)):
            start, end = src.positions[block.body[i + 1]], src.positions[block.body[-1]]
            out.append(((start.start.line, 0), (end.end.line, _EOL), {other[0]}))
    return out


_EOL = 10**9
Pos = Tuple[int, int]  # (1-based line, 0-based column)
Gates = List[Tuple[Pos, Pos, Set[str]]]
