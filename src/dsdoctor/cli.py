"""Command line: declare each command's options, parse, call the command's ``run`` (:mod:`dsdoctor.commands`),
render its Outcome (:mod:`dsdoctor.render`) and return its exit code (:mod:`dsdoctor.exitcodes`).

A :class:`~dsdoctor.errors.UsageError` from anywhere is caught once, in :func:`main` (exit 2).
The parser is :mod:`dsdoctor.cliparse` (argparse: fast to start; see docs/performance.md).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, List, Optional

from .cliparse import App, choice, enum_metavar, opt
from .output import FailOn, Format

if TYPE_CHECKING:
    from .commands import Outcome

app = App("dsdoctor", "Preflight, lint, explain, fix and verify DeepSpeed ZeRO-3 / ZeRO-Offload setups.")

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


def _done(outcome: "Outcome", command: str, fmt: Format, verbose: bool) -> int:
    """Render what the command produced (unless it printed its own output), then its stderr messages; the exit
    code is the command's (:mod:`dsdoctor.exitcodes`)."""
    if not outcome.rendered and outcome.report is not None:
        from .render import emit

        emit(outcome.report, command, fmt, verbose, outcome.edits)
    for line in outcome.messages:
        print(line, file=sys.stderr)
    return outcome.exit_code


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
def check(fmt: Format, verbose: bool, **opts: Any) -> int:
    """Preflight the environment: versions, CUDA toolkit vs torch, JIT build toolchain, accelerator, limits;
    then lint the DeepSpeed configs and launch files in the current directory (see `dsdoctor lint`).
    With --hostfile: the same on every node, plus what differs between nodes."""
    from .commands.check import Options, run

    return _done(run(Options(**opts)), "check", fmt, verbose)


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
def launch(**opts: Any) -> int:
    """Preflight, then run `deepspeed|torchrun|accelerate launch ...` (after `--`) unchanged; explain a failure.
    Exit code: the launcher's (1 when the preflight stops it, 2 for usage errors)."""
    from .commands.launch import Options, run

    return run(Options(**opts)).exit_code


@app.command(
    PythonOpt,
    opt("--op", action="append", help="Op to build and load: cpu_adam (default), async_io, ... (repeatable)."),
    opt("--timeout", type=float, default=900.0, help="Seconds before the build is declared hung."),
    opt("--extensions-dir", help="TORCH_EXTENSIONS_DIR to build in (default: a fresh temporary one)."),
    FormatOpt, VerboseOpt, FailOnOpt, ExitZeroOpt, ConfigOpt,
)
def verify(**opts: Any) -> int:
    """Really build and load DeepSpeed ops (as `CPUAdamBuilder().load()` would) and report the root cause."""
    from .commands.verify import Options, run

    return _done(run(Options(**opts)), "verify", opts["fmt"], opts["verbose"])


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
    opt("--ds-version", "--deepspeed-version", dest="ds_version",
        help="Whose estimator formulas to use (the DeepSpeed version, as lint's --ds-version). "
        "[default: the newest release dsdoctor knows]"),
    opt("--transformers4", action="store_true", help="Count MoE experts as Transformers 4.x lays them out."),
    opt("--write-config", help="Write a ds_config for the recommended option."),
    FormatOpt,
)
def estimate(fmt: Format, **opts: Any) -> int:
    """Will it fit? Every ZeRO-2/3 x offload option with per-GPU and per-node memory, and the fastest that fits."""
    from .commands.estimate import Options, run

    return _done(run(Options(**opts)), "estimate", fmt, False)


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
def lint(fmt: Format, verbose: bool, **opts: Any) -> int:
    """Lint DeepSpeed configs, hostfiles, .deepspeed_env, launch scripts and Python training scripts."""
    from .commands.lint import Options, run

    return _done(run(Options(**opts)), "lint", fmt, verbose)


@app.command(
    opt("paths", nargs="*", metavar="PATH", help="Files or directories to fix (default: the current directory)."),
    opt("--unsafe-fixes", action="store_true", help="Also apply unsafe fixes."),
    opt("--diff", action="store_true", help="Print the fixes as a unified diff; change nothing."),
    TargetOpt, ZeroStageOpt, PythonOpt, FormatOpt, VerboseOpt, SniffOpt, FailOnOpt, ExitZeroOpt, ConfigOpt,
    name="fix",
)
def fix_cmd(fmt: Format, verbose: bool, **opts: Any) -> int:
    """Apply lint's fixes (same as `dsdoctor lint --fix`): minimal edits, formatting kept, atomic writes."""
    from .commands.lint import Options, run

    return _done(run(Options(fix=True, **opts)), "lint", fmt, verbose)


@app.command(
    opt("paths", nargs="*", metavar="PATH", help="Log files, a directory of rank logs, or - for stdin (gzip accepted)."),
    opt("--follow", action="store_true", help="Watch live logs; report as soon as a cause appears."),
    opt("--follow-seconds", type=float, help="Stop following after this many seconds."),
    opt("--env", action="store_true", help="Also run the environment checks and merge what they confirm."),
    PythonOpt, FormatOpt, VerboseOpt, FailOnOpt, ExitZeroOpt, ConfigOpt,
)
def explain(fmt: Format, verbose: bool, **opts: Any) -> int:
    """Find the root cause in a failed DeepSpeed / Hugging Face training log."""
    from .commands.explain import Options, run

    return _done(run(Options(**opts)), "explain", fmt, verbose)


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
def smoke(**opts: Any) -> int:
    """Prove it runs: a real ZeRO-3 offload run of a tiny model through the deepspeed launcher, with checks."""
    from .commands.smoke import Options, run

    return run(Options(**opts)).exit_code


@app.command(
    opt("--format", "-f", dest="fmt", default="text", choices=("text", "json"), metavar="[text|json]", help="Output format."),
    opt("--command", help="Only the names this command reports (e.g. explain)."),
)
def rules(**opts: Any) -> int:
    """List every finding name with its code, severity and one line."""
    from .commands.rules import Options, run

    return run(Options(**opts)).exit_code


@app.command(
    opt("name", help="A finding name (cuda-version-mismatch) or code (DS101)."),
    opt("--format", "-f", dest="fmt", default="text", choices=("text", "json"), metavar="[text|json]", help="Output format."),
)
def rule(**opts: Any) -> int:
    """Print a finding's What / Why / Example / Fix."""
    from .commands.rules import RuleOptions, run_one

    return run_one(RuleOptions(**opts)).exit_code


@app.command(
    opt("--log", help="A failed training log (file, rank-log directory, gzip): its tail and explain's diagnosis."),
    opt("--ds-config", help=f"{DsConfigHelp}."),
    PythonOpt,
    opt("--redact-paths", action="store_true", help="Also replace user names in home paths with $USER "
        "(default: DSDOCTOR_REDACT_PATHS=1)."),
    opt("--output", "-o", help="Write the report to this file (atomically)."),
    opt("--no-lint", action="store_true", help="Do not lint the current directory."),
)
def report(**opts: Any) -> int:
    """A Markdown bug report to paste into an issue: versions, environment, findings, log tail and diagnosis.
    Secrets are redacted."""
    from .commands.report import Options, run

    return run(Options(**opts)).exit_code


@app.command(opt("shell", choices=("bash", "zsh", "fish"), help="bash, zsh or fish."))
def completion(shell: str) -> int:
    """Print a shell completion script for dsdoctor: `eval "$(dsdoctor completion bash)"` in ~/.bashrc (zsh: the
    same with zsh, in ~/.zshrc); fish: `dsdoctor completion fish > ~/.config/fish/completions/dsdoctor.fish`."""
    from .completion import script

    sys.stdout.write(script(app.parser(), shell))
    return 0


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
    from .redact_streams import install

    restore = install()
    try:
        return _main(argv)
    finally:
        restore()


def _main(argv: Optional[List[str]]) -> int:
    from .errors import UsageError
    from .exitcodes import FAILED

    try:
        return app(sys.argv[1:] if argv is None else argv)
    except UsageError as exc:  # the one place a usage / input error becomes exit 2
        sys.stderr.write(exc.lines())
        return FAILED
    except SystemExit as exc:  # --help (0) and argparse's own usage errors (2)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else FAILED)
    except KeyboardInterrupt:
        return FAILED
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
