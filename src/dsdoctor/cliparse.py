"""The command-line parser layer: argparse (stdlib, ~3 ms to import) instead of typer/click, because dsdoctor
must answer in a blink in environments that are broken (typer >= 0.2x builds a pydantic TypeAdapter per option
at parse time: ~90 ms where pydantic is installed, i.e. in every DeepSpeed environment).

What it keeps from the typer CLI: ``Usage:`` help for the program and every command (with each option's
default), usage errors as one clear message with exit 2 and no traceback, ``--flag/--no-flag`` pairs, and
options given before or after positional arguments. ``dsdoctor.cli`` declares the commands with :class:`App`.
"""

from __future__ import annotations

import argparse
import inspect
from typing import Any, Callable, Dict, List, NoReturn, Optional, Sequence, Tuple, Type

from .errors import UsageError
from .exitcodes import FAILED

Command = Callable[..., Any]


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


class App:
    """Commands registered with :meth:`command`: the function is the body, the options are declared beside it."""

    def __init__(self, prog: str, description: str) -> None:
        self.prog = prog
        self.description = description
        self.commands: Dict[str, Tuple[Command, Sequence[Option], bool]] = {}

    def command(self, *options: Option, name: Optional[str] = None, extra_args: bool = False) -> Callable[[Command], Command]:
        """Register the decorated function as command ``name`` (default: its name); its docstring is the help.
        ``extra_args``: unknown arguments (and everything after ``--``) go to it as ``extra``."""

        def register(fn: Command) -> Command:
            self.commands[name or fn.__name__] = (fn, options, extra_args)
            return fn

        return register

    def parser(self) -> Parser:
        """The whole parser (every command), built on demand."""
        top = Parser(prog=self.prog, description=self.description, formatter_class=HelpFormatter)
        top._optionals.title = "Options"
        top.add_argument("--version", "-V", action="store_true",
                         help="Print dsdoctor's version and the versions it knows facts for.")
        sub = top.add_subparsers(dest="_command", metavar="COMMAND", title="Commands", parser_class=Parser)
        for cmd, (fn, options, _extra) in self.commands.items():
            doc = inspect.cleandoc(fn.__doc__ or "")
            p = sub.add_parser(cmd, help=" ".join(doc.split()), description=doc, formatter_class=HelpFormatter)
            p._optionals.title = "Options"
            for flags, kw in options:
                p.add_argument(*flags, **kw)
        return top

    def __call__(self, argv: Sequence[str]) -> int:
        """Parse ``argv`` and run the command; its exit code. Raises ParseError for a bad command line;
        ``--help`` exits 0 (SystemExit)."""
        args = list(argv)
        top = self.parser()
        spec = self.commands.get(args[0]) if args else None
        extra: List[str] = []
        if spec is not None and spec[2]:
            tail: List[str] = []
            if "--" in args:
                i = args.index("--")
                args, tail = args[:i], args[i + 1:]
            ns, unknown = top.parse_known_args(args)
            extra = unknown + tail
        else:
            ns = top.parse_args(args)
        opts = dict(vars(ns))
        cmd = "version" if opts.pop("version") else opts.pop("_command")
        if cmd is None:
            top.print_help()
            return FAILED
        fn, _options, takes_extra = self.commands[cmd]
        opts.pop("_command", None)
        if takes_extra:
            opts["extra"] = extra
        rv = fn(**opts)
        return rv if isinstance(rv, int) else 0
