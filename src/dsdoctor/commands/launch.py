"""``dsdoctor launch [--hostfile F] -- <deepspeed|torchrun|accelerate launch ...>``: preflight (every node when
multi-node), stop on errors, offer the ``.deepspeed_env`` lines a multi-node run needs, optionally pre-build
the JIT ops once per node, then run the real launcher with the arguments unchanged, pass signals through,
exit with its code, and explain its log when it fails (the launcher itself: :mod:`dsdoctor.launcher`).

The launcher's output streams through as it runs (``rendered``); the exit code is the launcher's (1 when the
preflight stops it)."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, List, Optional, Sequence

from ..cliparse import option
from ..errors import UsageError
from ..render.formats import Format
from . import Outcome
from . import options as O

if TYPE_CHECKING:
    from ..model import Report

HELP = """Preflight, then run `deepspeed|torchrun|accelerate launch ...` (after `--`) unchanged; explain a failure.
    Exit code: the launcher's (1 when the preflight stops it, 2 for usage errors)."""
EXTRA_ARGS = True  # the launcher command: unknown arguments and everything after `--` (Options.extra)


@dataclass
class Options:
    """``launch``'s options (see ``dsdoctor launch --help``); ``extra`` is the launcher command after ``--``."""

    hostfile: Optional[str] = option("--hostfile", "-H", help="Preflight every node of this hostfile (default: the "
                                     "launcher's own -H/--hostfile).")
    include: str = option("--include", "-i", default="", help="As deepspeed's --include.")
    exclude: str = option("--exclude", "-e", default="", help="As deepspeed's --exclude.")
    python: Optional[str] = O.python("Interpreter the ranks run (default: the launcher's).")
    yes: bool = option("--yes", "-y", default=False, action="store_true",
                       help="Write the needed .deepspeed_env lines without asking.")
    prebuild: bool = option("--prebuild", default=False, action="store_true",
                            help="Build cpu_adam once per node before ranks start.")
    preflight: bool = option("--preflight", default=True, action=argparse.BooleanOptionalAction,
                             help="Run the checks first (default).")
    transport: str = option("--transport", default="auto", help="auto, ssh, pdsh or srun (multi-node preflight).")
    timeout: float = option("--timeout", default=120.0, type=float, help="Seconds per node for the preflight.")
    fmt: Format = O.fmt()
    verbose: bool = O.verbose()
    extra: List[str] = field(default_factory=list)


def run(o: Options) -> Outcome:
    """The whole launch flow; the launcher's exit code, or 1 when the preflight or the pre-build stops it."""
    if not o.extra:
        raise UsageError("usage: dsdoctor launch [options] -- deepspeed ... train.py ...")
    try:
        rc = _launch(o, str(getattr(o.fmt, "value", o.fmt)) == "json")
    except OSError as exc:
        raise UsageError(str(exc)) from exc
    return Outcome(None, rc, rendered=True)


def _launch(o: Options, fmt_json: bool) -> int:
    from ..checks import run_check
    from ..exitcodes import FINDINGS, OK, for_report
    from ..launcher import explain_failure, hostfile_of, launcher_opt, launcher_python, run_launcher, write_stdout
    from ..multinode import check_nodes, nodes_of
    from ..probes.interpreter import default_executable

    argv = list(o.extra)
    py = os.path.abspath(o.python or launcher_python(argv) or default_executable())
    hostfile = o.hostfile or hostfile_of(argv)
    include = o.include or launcher_opt(argv, "-i", "--include") or ""
    exclude = o.exclude or launcher_opt(argv, "-e", "--exclude") or ""
    multi = bool(hostfile and os.path.isfile(hostfile))
    hosts = nodes_of(hostfile, include, exclude) if multi and hostfile else []
    if o.preflight:
        print(f"dsdoctor: preflight of {len(hosts) or 1} node(s) with {py} ...", file=sys.stderr)
        rep = check_nodes(hosts, python=py, transport=o.transport, timeout=o.timeout) if multi else run_check(py)
        if for_report(rep) != OK:
            _emit(rep, fmt_json, o.verbose)
            print("dsdoctor: not launching: fix the errors above (or --no-preflight)", file=sys.stderr)
            return FINDINGS
    if multi:
        _offer_env_lines(o.yes)
    if o.prebuild and not _prebuild(py, hosts if multi else None, o.transport):
        return FINDINGS
    rc, log = run_launcher(argv, write_stdout)
    if rc != 0:
        _emit(explain_failure(log, rc), fmt_json, o.verbose)
    return rc


def _offer_env_lines(yes: bool) -> None:
    """Show (and with consent append to ``.deepspeed_env``) the variables a multi-node launch would not forward."""
    from ..knowledge import deepspeed as K
    from ..launcher import append_env_file, needed_env_lines
    from ..multinode import env_file

    env = dict(os.environ)
    lines = needed_env_lines(env, env_file(env))
    target = env.get(K.DEEPSPEED_ENV_FILE_VAR, K.DEEPSPEED_ENV_FILE)
    if lines:
        print("dsdoctor: a multi-node launch does not forward these variables to the other nodes:\n  "
              + "\n  ".join(lines), file=sys.stderr)
        if _ask(f"append them to {target}?", yes):
            append_env_file(target, lines)
            print(f"dsdoctor: appended {len(lines)} line(s) to {target}", file=sys.stderr)


def _prebuild(py: str, hosts: Optional[Sequence[str]], transport: str) -> bool:
    """Build cpu_adam once per node (here when ``hosts`` is None: single-node); False (after saying where) when it failed."""
    import shlex
    import subprocess

    from ..launcher import prebuild_command
    from ..multinode import forwarded_env
    from ..multinode import transport as T

    print("dsdoctor: pre-building cpu_adam once per node ...", file=sys.stderr)
    if hosts is not None:
        cmd = prebuild_command(py, forwarded_env(os.environ))
        outs = T.run_ssh(hosts, cmd, None, 900) if T.pick(transport, os.environ) == "ssh" \
            else T.run_pdsh(hosts, cmd, 900)
        bad = [h for h, o in outs.items() if "DSDOCTOR-PREBUILT" not in o.stdout]
    else:
        r = subprocess.run(shlex.split(prebuild_command(py)), capture_output=True, text=True)
        bad = [] if "DSDOCTOR-PREBUILT" in r.stdout else ["localhost"]
        if bad:
            sys.stderr.write(r.stdout[-4000:] + r.stderr[-4000:])
    if bad:
        print(f"dsdoctor: the op build failed on {', '.join(bad)}; not launching "
              "(see `dsdoctor verify` for the root cause)", file=sys.stderr)
    return not bad


def _emit(report: "Report", fmt_json: bool, verbose: bool) -> None:
    """The preflight's / the failure's report: text on stdout, or JSON on stderr (stdout is the launcher's)."""
    from ..render import emit

    emit(report, "launch", "json" if fmt_json else "text", verbose, out=sys.stderr if fmt_json else sys.stdout)


def _ask(question: str, yes: bool) -> bool:
    if yes:
        return True
    if not sys.stdin.isatty():
        print(f"{question} [not asked: stdin is not a terminal; pass --yes]", file=sys.stderr)
        return False
    from ..redact import redact

    # input() writes its prompt straight to the terminal (not through the redacting sys.stdout)
    return input(redact(f"{question} [y/N] ")).strip().lower() in ("y", "yes")
