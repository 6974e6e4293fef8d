"""The command-line parser layer: argparse (stdlib, ~3 ms to import) instead of typer/click, because dsdoctor
must answer in a blink in environments that are broken (typer >= 0.2x builds a pydantic TypeAdapter per option
at parse time: ~90 ms where pydantic is installed, i.e. in every DeepSpeed environment).

What it keeps from the typer CLI: ``Usage:`` help for the program and every command (with each option's
default), usage errors as one clear message with exit 2 and no traceback, ``--flag/--no-flag`` pairs, and
options given before or after positional arguments. Each option is declared once, as an :func:`option` field of
its command's ``Options`` dataclass; :class:`App` builds the parser from them (``dsdoctor.cli``).
"""

from __future__ import annotations

import argparse
import inspect
from dataclasses import field, fields
from types import ModuleType
from typing import Any, Callable, Dict, Iterator, List, Mapping, NoReturn, Optional, Sequence, Tuple, Type

from .errors import UsageError


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """``Usage:`` (as click printed it) and ``[default: X]`` after the help of options that have one."""

    def add_usage(self, usage: Optional[str], actions: Any, groups: Any, prefix: Optional[str] = None) -> None:
        super().add_usage(usage, actions, groups, "Usage: " if prefix is None else prefix)

    def _get_help_string(self, action: argparse.Action) -> Optional[str]:
        text = action.help or ""
        default = action.default
        shown = not (default is None or isinstance(default, bool) or default in ("", [], argparse.SUPPRESS))
        if action.option_strings and shown and "[default:" not in text and "(default" not in text:
            text += f" [default: {getattr(default, 'value', default)}]"
        return text.replace("%", "%%")

    def _format_action_invocation(self, action: argparse.Action) -> str:
        if not action.option_strings or action.nargs == 0:
            return super()._format_action_invocation(action)
        return ", ".join(action.option_strings) + " " + self._format_args(action, self._get_default_metavar_for_optional(action))


class ParseError(UsageError):
    """argparse's own usage errors (unknown flag, bad value): printed as the usage, then one
    ``dsdoctor <command>: error: ...`` line and where the help is."""

    def __init__(self, usage: str, prog: str, message: str) -> None:
        super().__init__(message)
        self.text = f"{usage}{prog}: error: {message}\nTry '{prog} --help' for help.\n"

    def lines(self) -> str:
        return self.text


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are :class:`ParseError` (exit 2 where every UsageError is)."""

    def error(self, message: str) -> NoReturn:
        raise ParseError(self.format_usage(), self.prog, message)


def choice(enum: Type[Any]) -> Callable[[str], Any]:
    """An argparse ``type`` for a str Enum with a clear error listing the values."""
    values = [e.value for e in enum]

    def convert(text: str) -> Any:
        try:
            return enum(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid choice: {text!r} (choose from {', '.join(values)})") from None

    convert.__name__ = enum.__name__
    convert.choices = tuple(values)  # type: ignore[attr-defined]  # read by dsdoctor.completion
    return convert


def enum_metavar(enum: Type[Any]) -> str:
    """``[text|json|...]`` as typer showed a choice."""
    return "[" + "|".join(e.value for e in enum) + "]"


Option = Tuple[Tuple[str, ...], Dict[str, Any]]


def opt(*flags: str, **kw: Any) -> Option:
    """One option or argument, as ``ArgumentParser.add_argument(*flags, **kw)`` takes it (an option without help
    still shows its default)."""
    if "help" not in kw and kw.get("default") not in (None, False, "", []):
        kw["help"] = f"[default: {kw['default']}]"
    return flags, kw


ARG = "dsdoctor.cliparse.arg"  # the field metadata key holding the argparse declaration


def option(*flags: str, default: Any = None, **kw: Any) -> Any:
    """A command option declared once: a dataclass field of the command's ``Options`` (default ``default``; none
    for a required positional) whose metadata is its argparse declaration, ``add_argument(*flags, **kw)`` with
    ``dest`` the field's name and ``default`` the field's. A positional's first flag is its field name."""
    if default is not None:
        kw["default"] = list(default) if isinstance(default, list) else default
    meta = {ARG: opt(*flags, **kw)}
    if isinstance(default, list):
        items = list(default)
        return field(default_factory=lambda: list(items), metadata=meta)
    if not flags[0].startswith("-") and "nargs" not in kw:  # a required positional: a required field
        return field(metadata=meta)
    return field(default=default, metadata=meta)


def add_options(parser: argparse.ArgumentParser, options: Type[Any]) -> None:
    """Add the argparse declaration of every :func:`option` field of the dataclass ``options``, in field order."""
    for f in fields(options):
        decl = f.metadata.get(ARG)
        if decl is None:
            continue
        flags, kw = decl
        if flags[0].startswith("-"):
            kw = dict(kw, dest=f.name)
        elif flags[0] != f.name:
            raise TypeError(f"{options.__qualname__}.{f.name}: a positional is named as its field ({flags[0]!r})")
        parser.add_argument(*flags, **kw)


class Commands(Mapping[str, ModuleType]):
    """Command name -> its module (``<package>.<name>``), imported when first looked up: a command line imports
    only its own command's module (and what it imports); the whole parser (``--help``, completion) imports all."""

    def __init__(self, package: str, names: Sequence[str]) -> None:
        self._package, self._names = package, tuple(names)

    def __getitem__(self, name: str) -> ModuleType:
        if name not in self._names:
            raise KeyError(name)
        import importlib

        return importlib.import_module(f"{self._package}.{name}")

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


class App:
    """The program's parser, built from the command modules (:mod:`dsdoctor.commands`): each module's name is the
    command's, its ``HELP`` the help, its ``Options`` dataclass the options (:func:`option` fields); a module with
    ``EXTRA_ARGS = True`` gets unknown arguments (and everything after ``--``) in ``Options.extra``. ``names`` are
    the command names in help order, each a module of ``package``."""

    def __init__(self, prog: str, description: str, package: str, names: Sequence[str]) -> None:
        self.prog = prog
        self.description = description
        self.commands: Mapping[str, ModuleType] = Commands(package, names)

    def parser(self, only: Optional[str] = None) -> Parser:
        """The whole parser (every command), built on demand; with ``only``, the same parser holding that one
        command (what parsing a command line needs: the others' modules are not imported)."""
        top = Parser(prog=self.prog, description=self.description, formatter_class=HelpFormatter)
        top._optionals.title = "Options"
        top.add_argument("--version", "-V", action="store_true",
                         help="Print dsdoctor's version and the versions it knows facts for.")
        sub = top.add_subparsers(dest="_command", metavar="COMMAND", title="Commands", parser_class=Parser)
        for cmd in self.commands if only is None else [only]:
            mod = self.commands[cmd]
            doc = inspect.cleandoc(mod.HELP)
            p = sub.add_parser(cmd, help=" ".join(doc.split()), description=doc, formatter_class=HelpFormatter)
            p._optionals.title = "Options"
            add_options(p, mod.Options)
        return top

    def parse(self, argv: Sequence[str]) -> Optional[Tuple[ModuleType, Any]]:
        """The command module and its ``Options`` for ``argv``; None (after printing the help) when no command
        is given. Raises ParseError for a bad command line; ``--help`` exits 0 (SystemExit)."""
        args = list(argv)
        mod = self.commands.get(args[0]) if args else None
        top = self.parser(only=args[0] if mod is not None else None)
        extra: List[str] = []
        if mod is not None and getattr(mod, "EXTRA_ARGS", False):
            tail: List[str] = []
            if "--" in args:
                i = args.index("--")
                args, tail = args[:i], args[i + 1:]
            ns, unknown = top.parse_known_args(args)
            extra = unknown + tail
        else:
            ns = top.parse_args(args)
        opts = vars(ns)
        cmd = "version" if opts.get("version") else opts.get("_command")
        if cmd is None:
            top.print_help()
            return None
        mod = self.commands[cmd]
        kwargs = {f.name: opts[f.name] for f in fields(mod.Options) if ARG in f.metadata and f.name in opts}
        if getattr(mod, "EXTRA_ARGS", False):
            kwargs["extra"] = extra
        return mod, mod.Options(**kwargs)
