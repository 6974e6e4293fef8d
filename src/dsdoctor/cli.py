"""Command line: build the parser from the commands (:mod:`dsdoctor.commands`, one module each, whose ``Options``
declare the options once), parse, call the command's ``run``, render its Outcome (:mod:`dsdoctor.render`) and
return its exit code (:mod:`dsdoctor.exitcodes`).

A :class:`~dsdoctor.errors.UsageError` from anywhere is caught once, in :func:`main` (exit 2); a closed stdout
(``dsdoctor rules | head -1``) is a normal end.
The parser is :mod:`dsdoctor.cliparse` (argparse: fast to start; see docs/performance.md).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, List, Optional

from .cliparse import App

if TYPE_CHECKING:
    from types import ModuleType

    from .commands import Outcome

# the commands in help order, each a module of dsdoctor.commands (imported only when its command runs)
app = App("dsdoctor", "Preflight, lint, explain, fix and verify DeepSpeed ZeRO-3 / ZeRO-Offload setups.", "dsdoctor.commands",
          ("check", "launch", "verify", "estimate", "lint", "fix", "explain", "smoke", "rules", "rule", "report", "completion",
           "version"))


def _run(command: "ModuleType", options: Any) -> int:
    """Run the command, render what it produced (unless it printed its own output), then its stderr messages;
    the exit code is the command's (:mod:`dsdoctor.exitcodes`)."""
    # the completion command prints a script of the parser it is part of: handed over here (it cannot import
    # the CLI that imports it)
    outcome: "Outcome" = command.run(options, app.parser()) if getattr(command, "NEEDS_PARSER", False) else command.run(options)
    if not outcome.rendered and outcome.report is not None:
        from .render import emit

        name = getattr(command, "REPORTS_AS", command.__name__.rsplit(".", 1)[-1])
        emit(outcome.report, name, getattr(options, "fmt", "text"), getattr(options, "verbose", False), outcome.edits)
    for line in outcome.messages:
        print(line, file=sys.stderr)
    return outcome.exit_code


def commands() -> List[str]:
    """The command names, in help order."""
    return list(app.commands)


def main(argv: Optional[List[str]] = None) -> int:
    """Console entry point; never lets a traceback escape (exit 2 instead). Everything it prints, on stdout
    and stderr, in every format, goes through the secret redactor (``dsdoctor.redact``)."""
    from .redact_streams import install
    from .stdout import flushed, stdout_closed

    restore = install()
    try:
        code = _main(argv)
    except BrokenPipeError:  # the reader closed stdout (`dsdoctor rules | head -1`): a normal end
        code = stdout_closed(0)
    finally:
        restore()
    return flushed(code)


def _main(argv: Optional[List[str]]) -> int:
    from .errors import UsageError
    from .exitcodes import FAILED

    try:
        parsed = app.parse(sys.argv[1:] if argv is None else argv)
        return FAILED if parsed is None else _run(*parsed)
    except UsageError as exc:  # the one place a usage / input error becomes exit 2
        sys.stderr.write(exc.lines())
        return FAILED
    except SystemExit as exc:  # --help (0) and argparse's own usage errors (2)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else FAILED)
    except KeyboardInterrupt:
        return FAILED
    except BrokenPipeError:
        raise  # a closed stdout is a normal end (main)
    except Exception as exc:  # noqa: BLE001 - the contract is exit 2 with a message, not a traceback
        import os

        if os.environ.get("DSDOCTOR_DEBUG"):
            import traceback

            traceback.print_exc()
        print(f"dsdoctor: internal error: {type(exc).__name__}: {exc}\n"
              "  note: this is a bug in dsdoctor; please report it with the traceback that DSDOCTOR_DEBUG=1 prints",
              file=sys.stderr)
        return FAILED


if __name__ == "__main__":
    sys.exit(main())
