"""Command line. Commands are thin: parse options, call one function, render, return an exit code.

Exit codes: 0 no errors, 1 errors found, 2 dsdoctor could not run (usage or internal error).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Dict, List, Optional, Tuple

import typer

from .output import FailOn, Format

if TYPE_CHECKING:
    from .dsconfig import OffloadIntent
    from .lint.rule import Edit
    from .model import Finding, Report
    from .probes.interpreter import Interpreter
    from .settings import Settings

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Preflight, lint, explain, fix and verify DeepSpeed ZeRO-3 / ZeRO-Offload setups.")


def _version_callback(value: bool) -> None:
    if value:
        from . import __version__
        from .knowledge.coverage import version_text

        typer.echo(version_text(__version__))
        raise typer.Exit(0)


@app.callback()
def _root(_version: bool = typer.Option(False, "--version", "-V", callback=_version_callback, is_eager=True,
                                        help="Print dsdoctor's version and the versions it knows facts for.")) -> None:
    """Preflight, lint, explain, fix and verify DeepSpeed ZeRO-3 / ZeRO-Offload setups."""


PythonOpt = typer.Option(None, "--python", help="Interpreter whose environment is checked (default: this one).")
FormatOpt = typer.Option(Format.text, "--format", "-f", help="Output format.")
VerboseOpt = typer.Option(False, "--verbose", "-v", help="Show evidence, explanations and every fix form.")
FailOnOpt = typer.Option(None, "--fail-on", help="Exit 1 when a finding has at least this severity "
                         "(default: fail-on in the configuration, else error).", show_default=False)
ConfigOpt = typer.Option(None, "--config", help="Configuration file (pyproject.toml with \\[tool.dsdoctor], or "
                         "dsdoctor.toml); default: the nearest one above the paths / the current directory.")
ExitZeroOpt = typer.Option(False, "--exit-zero", help="Exit 0 even when findings are reported (2 still means "
                           "dsdoctor failed).")


def _settings(config: Optional[str], paths: List[str]) -> "Settings":
    """The command's configuration, or exit 2 with the file's problem."""
    from .settings import SettingsError, for_command

    try:
        return for_command(config, paths)
    except SettingsError as exc:
        typer.echo(f"dsdoctor: {exc}", err=True)
        raise typer.Exit(2) from exc


def _finish(report: "Report", command: str, fmt: Format, verbose: bool, fail_on: Optional[FailOn], exit_zero: bool,
            settings: "Optional[Settings]" = None, edits: "Optional[Dict[Finding, List[Edit]]]" = None,
            show: bool = True) -> None:
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
    raise typer.Exit(exit_code(report, fail_on or FailOn.error, exit_zero))


def _interpreter(python: Optional[str]) -> "Optional[Interpreter]":
    """The --python interpreter, or exit 2 with a clear message when it cannot be queried."""
    return _check_inputs(python, None)[0]


def _check_inputs(python: Optional[str], ds_config: Optional[str]) -> "Tuple[Optional[Interpreter], Optional[OffloadIntent]]":
    """``--python`` and ``--ds-config`` as the checks read them, or exit 2 with the reason."""
    from .checks import InputError, resolve_inputs

    try:
        return resolve_inputs(python, ds_config)
    except InputError as exc:
        typer.echo(f"dsdoctor: {exc}", err=True)
        raise typer.Exit(2) from exc


@app.command()
def check(
    python: Optional[str] = PythonOpt,
    fmt: Format = FormatOpt,
    verbose: bool = VerboseOpt,
    nvme: bool = typer.Option(False, "--nvme", help="Also check what NVMe offload (async_io) needs."),
    ds_config: Optional[str] = typer.Option(None, "--ds-config", help="The DeepSpeed config you will train with "
                                            "(NVMe / pinned offload decide the libaio and memlock checks)."),
    no_lint: bool = typer.Option(False, "--no-lint", help="Do not lint the DeepSpeed configs / launch files found "
                                 "in the current directory."),
    hostfile: Optional[str] = typer.Option(None, "--hostfile", "-H", help="Check every node of this DeepSpeed "
                                           "hostfile (through ssh/pdsh/srun) and diff them."),
    include: str = typer.Option("", "--include", "-i", help="As deepspeed's --include (NAME[:SLOT,..][@...])."),
    exclude: str = typer.Option("", "--exclude", "-e", help="As deepspeed's --exclude."),
    transport: str = typer.Option("auto", "--transport", help="auto (srun in Slurm, else pdsh, else ssh), ssh, pdsh, "
                                  "srun."),
    timeout: float = typer.Option(120.0, "--timeout", help="Seconds per node before it is reported unreachable."),
    fail_on: Optional[FailOn] = FailOnOpt,
    exit_zero: bool = ExitZeroOpt,
    config: Optional[str] = ConfigOpt,
) -> None:
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


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def launch(
    ctx: typer.Context,
    hostfile: Optional[str] = typer.Option(None, "--hostfile", "-H", help="Preflight every node of this hostfile "
                                           "(default: the launcher's own -H/--hostfile)."),
    include: str = typer.Option("", "--include", "-i", help="As deepspeed's --include."),
    exclude: str = typer.Option("", "--exclude", "-e", help="As deepspeed's --exclude."),
    python: Optional[str] = typer.Option(None, "--python", help="Interpreter the ranks run (default: the launcher's)."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Write the needed .deepspeed_env lines without asking."),
    prebuild: bool = typer.Option(False, "--prebuild", help="Build cpu_adam once per node before ranks start."),
    preflight: bool = typer.Option(True, "--preflight/--no-preflight", help="Run the checks first (default)."),
    transport: str = typer.Option("auto", "--transport", help="auto, ssh, pdsh or srun (multi-node preflight)."),
    timeout: float = typer.Option(120.0, "--timeout", help="Seconds per node for the preflight."),
    fmt: Format = FormatOpt,
    verbose: bool = VerboseOpt,
) -> None:
    """Preflight, then run `deepspeed|torchrun|accelerate launch ...` (after `--`) unchanged; explain a failure.
    Exit code: the launcher's (1 when the preflight stops it, 2 for usage errors)."""
    from .launch import main as launch_main
    from .multinode import HostfileError

    if not ctx.args:
        typer.echo("dsdoctor: usage: dsdoctor launch [options] -- deepspeed ... train.py ...", err=True)
        raise typer.Exit(2)
    try:
        rc = launch_main(list(ctx.args), hostfile, include, exclude, python, yes, prebuild, preflight, transport,
                         timeout, fmt is Format.json, verbose)  # launch prints text or JSON
    except (HostfileError, OSError) as exc:
        typer.echo(f"dsdoctor: {exc}", err=True)
        raise typer.Exit(2) from exc
    raise typer.Exit(rc)


@app.command()
def verify(
    python: Optional[str] = PythonOpt,
    op: List[str] = typer.Option(["cpu_adam"], "--op", help="Op to build and load: cpu_adam (default), async_io, ..."),
    timeout: float = typer.Option(900.0, "--timeout", help="Seconds before the build is declared hung."),
    extensions_dir: Optional[str] = typer.Option(None, "--extensions-dir",
                                                 help="TORCH_EXTENSIONS_DIR to build in (default: a fresh temporary one)."),
    fmt: Format = FormatOpt,
    verbose: bool = VerboseOpt,
    fail_on: Optional[FailOn] = FailOnOpt,
    exit_zero: bool = ExitZeroOpt,
    config: Optional[str] = ConfigOpt,
) -> None:
    """Really build and load DeepSpeed ops (as `CPUAdamBuilder().load()` would) and report the root cause."""
    from .model import Report
    from .probes.child import BUILDERS
    from .verify import build_op, default_python, diagnose

    bad = [o for o in op if o not in BUILDERS]
    if bad:
        typer.echo(f"unknown op {bad[0]!r}; choose from {', '.join(BUILDERS)}", err=True)
        raise typer.Exit(2)
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


@app.command()
def estimate(
    model_arg: Optional[str] = typer.Argument(None, metavar="[MODEL]", show_default=False,
                                              help="Model dir, config.json, or org/name in the local HF cache."),
    model: Optional[str] = typer.Option(None, "--model", help="The same as MODEL."),
    params: Optional[float] = typer.Option(None, "--params", help="Total parameters (e.g. 7e9) instead of --model."),
    largest_layer: Optional[float] = typer.Option(None, "--largest-layer", help="Largest layer's parameters."),
    layers: Optional[int] = typer.Option(None, "--layers"),
    hidden: Optional[int] = typer.Option(None, "--hidden"),
    vocab: Optional[int] = typer.Option(None, "--vocab"),
    lora_r: Optional[int] = typer.Option(None, "--lora-r", help="LoRA rank: only adapters are trained."),
    lora_targets: str = typer.Option("q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj", "--lora-targets"),
    qlora: bool = typer.Option(False, "--qlora", help="4-bit base weights (with --lora-r)."),
    seq_len: int = typer.Option(2048, "--seq-len"),
    micro_batch: int = typer.Option(1, "--micro-batch"),
    no_grad_ckpt: bool = typer.Option(False, "--no-gradient-checkpointing"),
    gpus_per_node: Optional[int] = typer.Option(None, "--gpus-per-node", help="Default: detected (NVML/nvidia-smi)."),
    nodes: int = typer.Option(1, "--nodes"),
    gpu_mem: Optional[str] = typer.Option(None, "--gpu-mem", help="Per GPU, e.g. 80GB (default: detected)."),
    cpu_mem: Optional[str] = typer.Option(None, "--cpu-mem", help="Per node, e.g. 512GB (default: this host's RAM)."),
    margin: float = typer.Option(0.1, "--margin", help="Headroom an option must leave to count as fitting."),
    ds_version: str = typer.Option("0.19.8", "--deepspeed-version", help="Whose estimator formulas to use."),
    transformers4: bool = typer.Option(False, "--transformers4", help="Count MoE experts as Transformers 4.x lays them out."),
    write_config: Optional[str] = typer.Option(None, "--write-config", help="Write a ds_config for the recommended option."),
    fmt: Format = FormatOpt,
) -> None:
    """Will it fit? Every ZeRO-2/3 x offload option with per-GPU and per-node memory, and the fastest that fits."""
    import os

    from .estimate import run_estimate

    raise typer.Exit(run_estimate(dict(locals()), os.environ, json_out=fmt is Format.json))


TargetOpt = typer.Option([], "--target", help="Versions to lint scripts for, e.g. transformers==4.46 (repeatable).")
SniffOpt = typer.Option(False, "--sniff", help="Skip named JSON/YAML files that are not DeepSpeed / accelerate configs "
                        "(for pre-commit, which passes every changed file).")
ZeroStageOpt = typer.Option(None, "--zero-stage", help="The ZeRO stage the scripts run with (else from the project).")


@app.command()
def lint(
    paths: List[str] = typer.Argument(None, help="Files or directories (default: the current directory)."),
    world_size: Optional[int] = typer.Option(None, "--world-size", help="Ranks in the run (else from launcher args / hostfile)."),
    ds_version: Optional[str] = typer.Option(None, "--ds-version", help="DeepSpeed version to lint for (default: installed)."),
    fix: bool = typer.Option(False, "--fix", help="Apply safe fixes (formatting and comments kept; atomic writes)."),
    unsafe_fixes: bool = typer.Option(False, "--unsafe-fixes", help="With --fix/--diff: also unsafe fixes."),
    diff: bool = typer.Option(False, "--diff", help="Print the fixes as a unified diff; change nothing."),
    target: List[str] = TargetOpt,
    zero_stage: Optional[int] = ZeroStageOpt,
    python: Optional[str] = PythonOpt,
    fmt: Format = FormatOpt,
    verbose: bool = VerboseOpt,
    sniff: bool = SniffOpt,
    fail_on: Optional[FailOn] = FailOnOpt,
    exit_zero: bool = ExitZeroOpt,
    config: Optional[str] = ConfigOpt,
) -> None:
    """Lint DeepSpeed configs, hostfiles, .deepspeed_env, launch scripts and Python training scripts."""
    from .lint.cli import run_lint

    settings = _settings(config, paths or ["."])
    res, rc = run_lint(paths or ["."], world_size, ds_version, fix, unsafe_fixes, diff, target, python, zero_stage,
                       sniff, settings)
    if res is None:
        raise typer.Exit(rc)
    _finish(res.report, "lint", fmt, verbose, fail_on, exit_zero, settings, res.fix_edits, show=not res.diff_printed)


@app.command("fix")
def fix_cmd(
    paths: List[str] = typer.Argument(None, help="Files or directories to fix (default: the current directory)."),
    unsafe_fixes: bool = typer.Option(False, "--unsafe-fixes", help="Also apply unsafe fixes."),
    diff: bool = typer.Option(False, "--diff", help="Print the fixes as a unified diff; change nothing."),
    target: List[str] = TargetOpt,
    zero_stage: Optional[int] = ZeroStageOpt,
    python: Optional[str] = PythonOpt,
    fmt: Format = FormatOpt,
    verbose: bool = VerboseOpt,
    sniff: bool = SniffOpt,
    fail_on: Optional[FailOn] = FailOnOpt,
    exit_zero: bool = ExitZeroOpt,
    config: Optional[str] = ConfigOpt,
) -> None:
    """Apply lint's fixes (same as `dsdoctor lint --fix`): minimal edits, formatting kept, atomic writes."""
    lint(paths, None, None, True, unsafe_fixes, diff, target, zero_stage, python, fmt, verbose, sniff, fail_on,
         exit_zero, config)


@app.command()
def explain(
    paths: List[str] = typer.Argument(None, help="Log files, a directory of rank logs, or - for stdin (gzip accepted)."),
    follow: bool = typer.Option(False, "--follow", help="Watch live logs; report as soon as a cause appears."),
    follow_seconds: Optional[float] = typer.Option(None, "--follow-seconds", help="Stop following after this many seconds."),
    env: bool = typer.Option(False, "--env", help="Also run the environment checks and merge what they confirm."),
    python: Optional[str] = PythonOpt,
    fmt: Format = FormatOpt,
    verbose: bool = VerboseOpt,
    fail_on: Optional[FailOn] = FailOnOpt,
    exit_zero: bool = ExitZeroOpt,
    config: Optional[str] = ConfigOpt,
) -> None:
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
        typer.echo(f"dsdoctor: {exc}", err=True)
        raise typer.Exit(2) from exc
    _finish(report, "explain", fmt, verbose, fail_on, exit_zero, _settings(config, paths or []))


@app.command()
def smoke(
    python: Optional[str] = PythonOpt,
    nproc: int = typer.Option(1, "--nproc", help="Processes (ranks) to launch."),
    config: Optional[str] = typer.Option(None, "--config", help="Your ds_config (default: ZeRO-3, both offloads to CPU)."),
    model: Optional[str] = typer.Option(None, "--model", help="Model dir / config.json: its architecture, scaled down."),
    steps: int = typer.Option(12, "--steps"),
    timeout: float = typer.Option(900.0, "--timeout", help="Overall seconds before everything is stopped."),
    fmt: Format = FormatOpt,
    verbose: bool = VerboseOpt,
) -> None:
    """Prove it runs: a real ZeRO-3 offload run of a tiny model through the deepspeed launcher, with checks."""
    from .smoke.command import run_smoke

    raise typer.Exit(run_smoke(python, nproc, config, model, steps, timeout, fmt is Format.json, verbose))


@app.command()
def rules(
    fmt: str = typer.Option("text", "--format", "-f", help="text or json."),
    command: Optional[str] = typer.Option(None, "--command", help="Only the names this command reports (e.g. explain)."),
) -> None:
    """List every finding name with its code, severity and one line."""
    from .ruledocs.cli import run_rules

    raise typer.Exit(run_rules(fmt, command))


@app.command()
def rule(
    name: str = typer.Argument(..., help="A finding name (cuda-version-mismatch) or code (DS101)."),
    fmt: str = typer.Option("text", "--format", "-f", help="text or json."),
) -> None:
    """Print a finding's What / Why / Example / Fix."""
    from .ruledocs.cli import run_rule

    raise typer.Exit(run_rule(name, fmt))


@app.command()
def report(
    log: Optional[str] = typer.Option(None, "--log", help="A failed training log (file, rank-log directory, gzip): "
                                      "its tail and explain's diagnosis."),
    ds_config: Optional[str] = typer.Option(None, "--ds-config", help="The DeepSpeed config you train with."),
    python: Optional[str] = PythonOpt,
    redact_paths: bool = typer.Option(False, "--redact-paths", help="Also replace user names in home paths with $USER "
                                      "(default: DSDOCTOR_REDACT_PATHS=1)."),
    output: Optional[str] = typer.Option(None, "--output", "-o", help="Write the report to this file (atomically)."),
    no_lint: bool = typer.Option(False, "--no-lint", help="Do not lint the current directory."),
) -> None:
    """A Markdown bug report to paste into an issue: versions, environment, findings, log tail and diagnosis.
    Secrets are redacted."""
    from .report import run_report

    raise typer.Exit(run_report(log, ds_config, python, redact_paths, output, not no_lint))


@app.command()
def version() -> None:
    """Print dsdoctor's version and the versions it knows facts for."""
    _version_callback(True)


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
        rv = app(args=argv, standalone_mode=False)
        if isinstance(rv, int):
            return rv
    except typer.Exit as exc:
        return int(exc.exit_code)
    except SystemExit as exc:  # click usage errors in standalone_mode=False come as exceptions below
        return int(exc.code or 0) if isinstance(exc.code, int) else 2
    except Exception as exc:  # noqa: BLE001 - the contract is exit 2 with a message, not a traceback
        # click's exceptions (typer may vendor click, so match by shape, not by import)
        if type(exc).__name__ == "Abort":
            return 2
        show = getattr(exc, "show", None)
        if callable(show) and hasattr(exc, "exit_code"):
            show()
            return 2
        print(f"dsdoctor: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
