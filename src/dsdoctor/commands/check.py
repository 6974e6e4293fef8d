"""``dsdoctor check``: the environment preflight, the project's lint, or every node of a hostfile."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..cliparse import option
from ..render.formats import Format
from . import Outcome, conclude, settings
from . import options as O

HELP = """Preflight the environment: versions, CUDA toolkit vs torch, JIT build toolchain, accelerator, limits;
    then lint the DeepSpeed configs and launch files in the current directory (see `dsdoctor lint`).
    With --hostfile: the same on every node, plus what differs between nodes."""


@dataclass
class Options:
    """``check``'s options (see ``dsdoctor check --help``)."""

    python: Optional[str] = O.python()
    fmt: Format = O.fmt()
    verbose: bool = O.verbose()
    nvme: bool = option("--nvme", default=False, action="store_true",
                        help="Also check what NVMe offload (async_io) needs.")
    ds_config: Optional[str] = O.ds_config(f"{O.DS_CONFIG_HELP} (NVMe / pinned offload decide the libaio and "
                                           "memlock checks).")
    no_lint: bool = O.no_lint("Do not lint the DeepSpeed configs / launch files found in the current directory.")
    hostfile: Optional[str] = option("--hostfile", "-H", help="Check every node of this DeepSpeed hostfile (through "
                                     "ssh/pdsh/srun) and diff them.")
    include: str = option("--include", "-i", default="", help="As deepspeed's --include (NAME[:SLOT,..][@...]).")
    exclude: str = option("--exclude", "-e", default="", help="As deepspeed's --exclude.")
    transport: str = option("--transport", default="auto", help="auto (srun in Slurm, else pdsh, else ssh), ssh, "
                            "pdsh, srun.")
    timeout: float = option("--timeout", default=120.0, type=float,
                            help="Seconds per node before it is reported unreachable.")
    fail_on: Optional[str] = O.fail_on()
    exit_zero: bool = O.exit_zero()
    config: Optional[str] = O.config()


def run(o: Options) -> Outcome:
    """Preflight this environment (or every node of ``--hostfile``), then lint the current directory."""
    from ..checks import resolve_inputs, run_check

    config = settings(o, ["."])
    if o.hostfile is not None:
        from ..multinode.command import check_hostfile

        report = check_hostfile(o.hostfile, o.include, o.exclude, o.transport, o.python, o.timeout, o.nvme)
        return conclude(report, o, config)
    interp, intent = resolve_inputs(o.python, o.ds_config)
    report = run_check(o.python, nvme=o.nvme, interp=interp, intent=intent)
    if not o.no_lint:
        from ..lint.project import lint_project, merge

        # --python: that environment's DeepSpeed; else lint reads the project's pins first (then this one's)
        ds = report.facts.get("deepspeed") if o.python else None
        merge(report, lint_project(".", ds, o.python, config))
    return conclude(report, o, config)
