"""Command line. Commands are thin: parse options, call one function, render, return an exit code.

Exit codes: 0 no errors, 1 errors found, 2 dsdoctor could not run (usage or internal error).
The parser is :mod:`dsdoctor.cliparse` (argparse: fast to start; see docs/performance.md).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, Dict, List, NoReturn, Optional, Tuple

from .cliparse import App, choice, enum_metavar, opt, usage_error
from .output import FailOn, Format

if TYPE_CHECKING:
    from .dsconfig import OffloadIntent
    from .lint.rule import Edit
    from .model import Finding, Report
    from .probes.interpreter import Interpreter
    from .settings import Settings

app = App("dsdoctor", "Preflight, lint, explain, fix and verify DeepSpeed ZeRO-3 / ZeRO-Offload setups.")


def _exit(code: int) -> NoReturn:
    raise SystemExit(code)


PythonOpt = opt("--python", help="Interpreter whose environment is checked (default: this one).")
FormatOpt = opt("--format", "-f", dest="fmt", type=choice(Format), default=Format.text, metavar=enum_metavar(Format),
                help="Output format.")
VerboseOpt = opt("--verbose", "-v", action="store_true", help="Show evidence, explanations and every fix form.")
FailOnOpt = opt("--fail-on", type=choice(FailOn), metavar=enum_metavar(FailOn), help="Exit 1 when a finding has at "
                "least this severity (default: fail-on in the configuration, else error).")
ConfigOpt = opt("--config", help="Configuration file (pyproject.toml with [tool.dsdoctor], or "
                "dsdoctor.toml); default: the nearest one above the paths / the current directory.")
ExitZeroOpt = opt("--exit-zero", action="store_true", help="Exit 0 even when findings are reported (2 still means "
                  "dsdoctor failed).")
DsConfigHelp = "The DeepSpeed config you train with"


def _settings(config: Optional[str], paths: List[str]) -> "Settings":
    """The command's configuration, or exit 2 with the file's problem."""
    from .settings import SettingsError, for_command

    try:
        return for_command(config, paths)
    except SettingsError as exc:
        usage_error(str(exc))


def _finish(report: "Report", command: str, fmt: Format, verbose: bool, fail_on: Optional[FailOn], exit_zero: bool,
            settings: "Optional[Settings]" = None, edits: "Optional[Dict[Finding, List[Edit]]]" = None,
            show: bool = True) -> NoReturn:
    """Drop what the configuration ignores, render ``report`` in ``fmt`` (unless ``show`` is False: ``--diff``
    printed its own output) and exit with the shared exit code (0 clean, 1 findings >= --fail-on, else the
    configuration's fail-on, else error; 0 with --exit-zero)."""
    from .output import emit, exit_code

    if settings is not None:
        from .settings import apply

        report = apply(report, settings)
        if fail_on is None and settings.fail_on:
            fail_on = FailOn(settings.fail_on)
    if show:
        emit(report, command, fmt, verbose, edits)
    _exit(exit_code(report, fail_on or FailOn.error, exit_zero))


def _interpreter(python: Optional[str]) -> "Optional[Interpreter]":
    """The --python interpreter, or exit 2 with a clear message when it cannot be queried."""
    return _check_inputs(python, None)[0]


def _check_inputs(python: Optional[str], ds_config: Optional[str]) -> "Tuple[Optional[Interpreter], Optional[OffloadIntent]]":
    """``--python`` and ``--ds-config`` as the checks read them, or exit 2 with the reason."""
    from .checks import InputError, resolve_inputs

    try:
        return resolve_inputs(python, ds_config)
    except InputError as exc:
        usage_error(str(exc))


@app.command(
    PythonOpt, FormatOpt, VerboseOpt,
    opt("--nvme", action="store_true", help="Also check what NVMe offload (async_io) needs."),
    opt("--ds-config", help=f"{DsConfigHelp} (NVMe / pinned offload decide the libaio and memlock checks)."),
    opt("--no-lint", action="store_true", help="Do not lint the DeepSpeed configs / launch files found in the "
        "current directory."),
    opt("--hostfile", "-H", help="Check every node of this DeepSpeed hostfile (through ssh/pdsh/srun) and diff them."),
    opt("--include", "-i", default="", help="As deepspeed's --include (NAME[:SLOT,..][@...])."),
    opt("--exclude", "-e", default="", help="As deepspeed's --exclude."),
    opt("--transport", default="auto", help="auto (srun in Slurm, else pdsh, else ssh), ssh, pdsh, srun."),
    opt("--timeout", type=float, default=120.0, help="Seconds per node before it is reported unreachable."),
    FailOnOpt, ExitZeroOpt, ConfigOpt,
)
def check(python: Optional[str], fmt: Format, verbose: bool, nvme: bool, ds_config: Optional[str], no_lint: bool,
          hostfile: Optional[str], include: str, exclude: str, transport: str, timeout: float,
          fail_on: Optional[FailOn], exit_zero: bool, config: Optional[str]) -> None:
    """Preflight the environment: versions, CUDA toolkit vs torch, JIT build toolchain, accelerator, limits;
    then lint the DeepSpeed configs and launch files in the current directory (see `dsdoctor lint`).
    With --hostfile: the same on every node, plus what differs between nodes."""
    from .checks import run_check

    settings = _settings(config, ["."])

    if hostfile is not None:
        from .multinode.command import check_hostfile

        report = check_hostfile(hostfile, include, exclude, transport, python, timeout, nvme)
        _finish(report, "check", fmt, verbose, fail_on, exit_zero, settings)

    interp, intent = _check_inputs(python, ds_config)
    report = run_check(python, nvme=nvme, interp=interp, intent=intent)
    if not no_lint:
        from .lint.project import lint_project, merge

        merge(report, lint_project(".", report.facts.get("deepspeed"), python, settings))
    _finish(report, "check", fmt, verbose, fail_on, exit_zero, settings)


@app.command(
    opt("--hostfile", "-H", help="Preflight every node of this hostfile (default: the launcher's own -H/--hostfile)."),
    opt("--include", "-i", default="", help="As deepspeed's --include."),
    opt("--exclude", "-e", default="", help="As deepspeed's --exclude."),
    opt("--python", help="Interpreter the ranks run (default: the launcher's)."),
    opt("--yes", "-y", action="store_true", help="Write the needed .deepspeed_env lines without asking."),
    opt("--prebuild", action="store_true", help="Build cpu_adam once per node before ranks start."),
    opt("--preflight", action=argparse.BooleanOptionalAction, default=True, help="Run the checks first (default)."),
    opt("--transport", default="auto", help="auto, ssh, pdsh or srun (multi-node preflight)."),
    opt("--timeout", type=float, default=120.0, help="Seconds per node for the preflight."),
    FormatOpt, VerboseOpt,
    extra_args=True,
)
def launch(hostfile: Optional[str], include: str, exclude: str, python: Optional[str], yes: bool, prebuild: bool,
           preflight: bool, transport: str, timeout: float, fmt: Format, verbose: bool, extra: List[str]) -> None:
    """Preflight, then run `deepspeed|torchrun|accelerate launch ...` (after `--`) unchanged; explain a failure.
    Exit code: the launcher's (1 when the preflight stops it, 2 for usage errors)."""
    from .launch import main as launch_main
    from .multinode import HostfileError

    if not extra:
        usage_error("usage: dsdoctor launch [options] -- deepspeed ... train.py ...")
    try:
        rc = launch_main(list(extra), hostfile, include, exclude, python, yes, prebuild, preflight, transport,
                         timeout, fmt is Format.json, verbose)  # launch prints text or JSON
    except (HostfileError, OSError) as exc:
        usage_error(str(exc))
    _exit(rc)


@app.command(
    PythonOpt,
    opt("--op", action="append", help="Op to build and load: cpu_adam (default), async_io, ... (repeatable)."),
    opt("--timeout", type=float, default=900.0, help="Seconds before the build is declared hung."),
    opt("--extensions-dir", help="TORCH_EXTENSIONS_DIR to build in (default: a fresh temporary one)."),
    FormatOpt, VerboseOpt, FailOnOpt, ExitZeroOpt, ConfigOpt,
)
def verify(python: Optional[str], op: Optional[List[str]], timeout: float, extensions_dir: Optional[str], fmt: Format,
           verbose: bool, fail_on: Optional[FailOn], exit_zero: bool, config: Optional[str]) -> None:
    """Really build and load DeepSpeed ops (as `CPUAdamBuilder().load()` would) and report the root cause."""
    from .model import Report
    from .probes.child import BUILDERS
    from .verify import build_op, default_python, diagnose

    op = op or ["cpu_adam"]
    bad = [o for o in op if o not in BUILDERS]
    if bad:
        print(f"unknown op {bad[0]!r}; choose from {', '.join(BUILDERS)}", file=sys.stderr)
        _exit(2)
    py = default_python(python)
    merged = Report()
    for name in op:
        if fmt is Format.text and sys.stderr.isatty():
            from rich.console import Console

            con = Console(stderr=True)
            with con.status(f"building {name} with DeepSpeed ...") as status:

                def tick(seconds: float, n: str = name) -> None:
                    status.update(f"building {n} with DeepSpeed ... {seconds:.0f}s")

                res = build_op(name, py, timeout, extensions_dir, tick=tick)
        else:
            if fmt is Format.text:
                print(f"building {name} with DeepSpeed (timeout {timeout:g}s) ...", file=sys.stderr)
            res = build_op(name, py, timeout, extensions_dir)
        rep = diagnose(res, python)
        merged.findings += rep.findings
        merged.passed += rep.passed
        merged.facts[name] = rep.facts
    if fmt is Format.text and verbose:
        for name in op:
            tail = merged.facts[name].get("log_tail")
            if tail:
                print(f"--- {name} build log (tail) ---\n{tail}\n---")
    _finish(merged, "verify", fmt, verbose, fail_on, exit_zero, _settings(config, ["."]))


@app.command(
    opt("model_arg", nargs="?", metavar="MODEL", help="Model dir, config.json, or org/name in the local HF cache."),
    opt("--model", help="The same as MODEL."),
    opt("--params", type=float, help="Total parameters (e.g. 7e9) instead of --model."),
    opt("--largest-layer", type=float, help="Largest layer's parameters."),
    opt("--layers", type=int),
    opt("--hidden", type=int),
    opt("--vocab", type=int),
    opt("--lora-r", type=int, help="LoRA rank: only adapters are trained."),
    opt("--lora-targets", default="q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj"),
    opt("--qlora", action="store_true", help="4-bit base weights (with --lora-r)."),
    opt("--seq-len", type=int, default=2048),
    opt("--micro-batch", type=int, default=1),
    opt("--no-gradient-checkpointing", dest="no_grad_ckpt", action="store_true"),
    opt("--gpus-per-node", type=int, help="Default: detected (NVML/nvidia-smi)."),
    opt("--nodes", type=int, default=1),
    opt("--gpu-mem", help="Per GPU, e.g. 80GB (default: detected)."),
    opt("--cpu-mem", help="Per node, e.g. 512GB (default: this host's RAM)."),
    opt("--margin", type=float, default=0.1, help="Headroom an option must leave to count as fitting."),
    opt("--deepspeed-version", dest="ds_version",
        help="Whose estimator formulas to use. [default: the newest release dsdoctor knows]"),
    opt("--transformers4", action="store_true", help="Count MoE experts as Transformers 4.x lays them out."),
    opt("--write-config", help="Write a ds_config for the recommended option."),
    FormatOpt,
)
def estimate(**opts: Any) -> None:
    """Will it fit? Every ZeRO-2/3 x offload option with per-GPU and per-node memory, and the fastest that fits."""
    import os

    from .estimate import run_estimate

    _exit(run_estimate(opts, os.environ, json_out=opts["fmt"] is Format.json))


PathsHelp = "Files or directories (default: the current directory)."
TargetOpt = opt("--target", action="append", default=[], help="Versions to lint scripts for, e.g. transformers==4.46 "
                "(repeatable).")
SniffOpt = opt("--sniff", action="store_true", help="Skip named JSON/YAML files that are not DeepSpeed / accelerate "
               "configs (for pre-commit, which passes every changed file).")
ZeroStageOpt = opt("--zero-stage", type=int, help="The ZeRO stage the scripts run with (else from the project).")


@app.command(
    opt("paths", nargs="*", metavar="PATH", help=PathsHelp),
    opt("--world-size", type=int, help="Ranks in the run (else from launcher args / hostfile)."),
    opt("--ds-version", help="DeepSpeed version to lint for (default: installed)."),
    opt("--fix", action="store_true", help="Apply safe fixes (formatting and comments kept; atomic writes)."),
    opt("--unsafe-fixes", action="store_true", help="With --fix/--diff: also unsafe fixes."),
    opt("--diff", action="store_true", help="Print the fixes as a unified diff; change nothing."),
    TargetOpt, ZeroStageOpt, PythonOpt, FormatOpt, VerboseOpt, SniffOpt, FailOnOpt, ExitZeroOpt, ConfigOpt,
)
def lint(paths: List[str], world_size: Optional[int], ds_version: Optional[str], fix: bool, unsafe_fixes: bool,
         diff: bool, target: List[str], zero_stage: Optional[int], python: Optional[str], fmt: Format, verbose: bool,
         sniff: bool, fail_on: Optional[FailOn], exit_zero: bool, config: Optional[str]) -> None:
    """Lint DeepSpeed configs, hostfiles, .deepspeed_env, launch scripts and Python training scripts."""
    from .lint.cli import run_lint

    settings = _settings(config, paths or ["."])
    res, rc = run_lint(paths or ["."], world_size, ds_version, fix, unsafe_fixes, diff, target, python, zero_stage,
                       sniff, settings)
    if res is None:
        _exit(rc)
    _finish(res.report, "lint", fmt, verbose, fail_on, exit_zero, settings, res.fix_edits, show=not res.diff_printed)


@app.command(
    opt("paths", nargs="*", metavar="PATH", help="Files or directories to fix (default: the current directory)."),
    opt("--unsafe-fixes", action="store_true", help="Also apply unsafe fixes."),
    opt("--diff", action="store_true", help="Print the fixes as a unified diff; change nothing."),
    TargetOpt, ZeroStageOpt, PythonOpt, FormatOpt, VerboseOpt, SniffOpt, FailOnOpt, ExitZeroOpt, ConfigOpt,
    name="fix",
)
def fix_cmd(paths: List[str], unsafe_fixes: bool, diff: bool, target: List[str], zero_stage: Optional[int],
            python: Optional[str], fmt: Format, verbose: bool, sniff: bool, fail_on: Optional[FailOn], exit_zero: bool,
            config: Optional[str]) -> None:
    """Apply lint's fixes (same as `dsdoctor lint --fix`): minimal edits, formatting kept, atomic writes."""
    lint(paths, None, None, True, unsafe_fixes, diff, target, zero_stage, python, fmt, verbose, sniff, fail_on,
         exit_zero, config)


@app.command(
    opt("paths", nargs="*", metavar="PATH", help="Log files, a directory of rank logs, or - for stdin (gzip accepted)."),
    opt("--follow", action="store_true", help="Watch live logs; report as soon as a cause appears."),
    opt("--follow-seconds", type=float, help="Stop following after this many seconds."),
    opt("--env", action="store_true", help="Also run the environment checks and merge what they confirm."),
    PythonOpt, FormatOpt, VerboseOpt, FailOnOpt, ExitZeroOpt, ConfigOpt,
)
def explain(paths: List[str], follow: bool, follow_seconds: Optional[float], env: bool, python: Optional[str],
            fmt: Format, verbose: bool, fail_on: Optional[FailOn], exit_zero: bool, config: Optional[str]) -> None:
    """Find the root cause in a failed DeepSpeed / Hugging Face training log."""
    from .explain.command import InputError, explain_paths, merge_env
    from .explain.command import follow as follow_logs

    _interpreter(python)
    try:
        if follow:
            report = follow_logs(paths or ["-"], follow_seconds)
            if env:
                merge_env(report, python)
        else:
            report = explain_paths(paths or ["-"], env=env, python=python)
    except InputError as exc:
        usage_error(str(exc))
    _finish(report, "explain", fmt, verbose, fail_on, exit_zero, _settings(config, paths or []))


SMOKE_CONFIG_MOVED = ("smoke's DeepSpeed config is --ds-config (--config is dsdoctor's own configuration file in "
                      "every other command): use --ds-config {path}")


@app.command(
    PythonOpt,
    opt("--nproc", type=int, default=1, help="Processes (ranks) to launch."),
    opt("--ds-config", help="Your ds_config (default: ZeRO-3, both offloads to CPU)."),
    opt("--config", dest="old_config", help=argparse.SUPPRESS),
    opt("--model", help="Model dir / config.json: its architecture, scaled down."),
    opt("--steps", type=int, default=12),
    opt("--timeout", type=float, default=900.0, help="Overall seconds before everything is stopped."),
    FormatOpt, VerboseOpt,
)
def smoke(python: Optional[str], nproc: int, ds_config: Optional[str], old_config: Optional[str], model: Optional[str],
          steps: int, timeout: float, fmt: Format, verbose: bool) -> None:
    """Prove it runs: a real ZeRO-3 offload run of a tiny model through the deepspeed launcher, with checks."""
    from .smoke.command import run_smoke

    if old_config is not None:
        usage_error(SMOKE_CONFIG_MOVED.format(path=old_config))
    _exit(run_smoke(python, nproc, ds_config, model, steps, timeout, fmt is Format.json, verbose))


@app.command(
    opt("--format", "-f", dest="fmt", default="text", help="text or json."),
    opt("--command", help="Only the names this command reports (e.g. explain)."),
)
def rules(fmt: str, command: Optional[str]) -> None:
    """List every finding name with its code, severity and one line."""
    from .ruledocs.cli import run_rules

    _exit(run_rules(fmt, command))


@app.command(
    opt("name", help="A finding name (cuda-version-mismatch) or code (DS101)."),
    opt("--format", "-f", dest="fmt", default="text", help="text or json."),
)
def rule(name: str, fmt: str) -> None:
    """Print a finding's What / Why / Example / Fix."""
    from .ruledocs.cli import run_rule

    _exit(run_rule(name, fmt))


@app.command(
    opt("--log", help="A failed training log (file, rank-log directory, gzip): its tail and explain's diagnosis."),
    opt("--ds-config", help=f"{DsConfigHelp}."),
    PythonOpt,
    opt("--redact-paths", action="store_true", help="Also replace user names in home paths with $USER "
        "(default: DSDOCTOR_REDACT_PATHS=1)."),
    opt("--output", "-o", help="Write the report to this file (atomically)."),
    opt("--no-lint", action="store_true", help="Do not lint the current directory."),
)
def report(log: Optional[str], ds_config: Optional[str], python: Optional[str], redact_paths: bool,
           output: Optional[str], no_lint: bool) -> None:
    """A Markdown bug report to paste into an issue: versions, environment, findings, log tail and diagnosis.
    Secrets are redacted."""
    from .report import run_report

    _exit(run_report(log, ds_config, python, redact_paths, output, not no_lint))


@app.command()
def version() -> None:
    """Print dsdoctor's version and the versions it knows facts for."""
    from . import __version__
    from .knowledge.coverage import version_text

    print(version_text(__version__))


def commands() -> List[str]:
    """The command names, in help order."""
    return list(app.commands)


def main(argv: Optional[List[str]] = None) -> int:
    """Console entry point; never lets a traceback escape (exit 2 instead). Everything it prints, on stdout
    and stderr, in every format, goes through the secret redactor (``dsdoctor.redact``)."""
    from .redact import install

    restore = install()
    try:
        return _main(argv)
    finally:
        restore()


def _main(argv: Optional[List[str]]) -> int:
    try:
        return app(sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:  # usage errors (2), --help (0) and the commands' exit codes
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    except KeyboardInterrupt:
        return 2
    except Exception as exc:  # noqa: BLE001 - the contract is exit 2 with a message, not a traceback
        print(f"dsdoctor: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
