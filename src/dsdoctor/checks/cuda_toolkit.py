"""The CUDA toolkit DeepSpeed builds with: its version against torch's (``cuda-version-mismatch``), a missing
toolkit (``cuda-toolkit-missing``), and ``DS_SKIP_CUDA_CHECK`` in the environment (check's form of the lint rule
``ds-skip-cuda-check-ineffective``, :data:`SKIP_FORM`)."""

from __future__ import annotations

import dataclasses
import os
from typing import Iterable, List, Optional, Tuple

from .. import names as N
from ..fixes import (
    cpu_adam_upgrade_fix,
    cuda_mismatch_fixes,
    env_fix,
    pip_fix,
    toolkit_fixes,
    unset_fix,
)
from ..knowledge import deepspeed as K
from ..knowledge.versions import v
from ..model import Evidence, Finding, Fix, Passed, Severity
from ..spec import Docs, FindingSpec, Form, case, log
from . import context
from .common import S_CUDA, E, Result, mm
from .context import Context
from .cpu_adam import OpPrediction, predict


def _others(ctx: Context) -> List[Tuple[str, Tuple[int, int]]]:
    return [(os.path.dirname(os.path.dirname(o.path)), o.release) for o in ctx.facts.other_toolkits if o.release]


def _toolkit_fixes(ctx: Context, want: Tuple[int, int]) -> List[Fix]:
    """(a) a matching toolkit already on disk; (d) installing one."""
    return toolkit_fixes(want, ctx.ds, ctx.python_exe, _others(ctx), ctx.site)


CUDA_VERSION_MISMATCH = FindingSpec(
    N.CUDA_VERSION_MISMATCH,
    E,
    "The CUDA toolkit under CUDA_HOME does not match torch's CUDA",
    Docs(
        what="The CUDA toolkit DeepSpeed will build with (`$CUDA_HOME/bin/nvcc -V`, CUDA_HOME resolved as torch "
         "resolves it) has another version than torch was built with (`torch.version.cuda`), and the installed "
         "DeepSpeed's own minor-mismatch table does not accept the pair. It is an error where it makes cpu_adam "
         "fail: DeepSpeed 0.12.4-0.19.7 (and 0.12.2, and <= 0.9.0) on the CUDA accelerator; a warning where "
         "DeepSpeed swallows it (<= 0.12.3: CPU-only ops) or only installs with DS_BUILD_OPS=1 / DS_BUILD_<OP>=1 "
         "are affected; cpu_adam is not checked at all from 0.19.8. `explain` finds DeepSpeed's "
         "CUDAMismatchException in a log.",
        why="DeepSpeed's TorchCPUOpBuilder runs `assert_no_cuda_mismatch` while computing cpu_adam's compile flags "
        "and raises CUDAMismatchException. The table accepts a differing minor only when both are listed under "
        "the toolkit's major, and no DeepSpeed version has an entry for CUDA 13, so 13.5 vs torch's 13.0 is "
        "fatal. The last line users see is `AttributeError: 'DeepSpeedCPUAdam' object has no attribute "
        "'ds_opt_adam'` (<= 0.19.7) or `DeepSpeedCPUAdam requires the cpu_adam op, which failed to build/load.` "
        "(0.19.8): consequences, not the cause.",
        fix="In the order dsdoctor ranks them: point CUDA_HOME at a toolkit with torch's CUDA version when one is "
        "already on disk (`export CUDA_HOME=<that toolkit>`); `export DS_SKIP_CUDA_CHECK=1` (exactly 1; offered "
        "only when the check is the sole blocker, and marked unsafe across CUDA major versions with a visible "
        "GPU); upgrade to `deepspeed>=0.19.8`, whose cpu_adam is a plain CPU build (when cpu_adam is the only op "
        "you need); or install a toolkit matching torch (`pip install 'nvidia-cuda-nvcc==13.0.*' "
        "'nvidia-cuda-crt==13.0.*' 'nvidia-nvvm==13.0.*'` then CUDA_HOME=<site-packages>/nvidia/cu13 for CUDA 13, "
        "`conda install -c nvidia 'cuda-nvcc=X.Y' 'cuda-libraries-dev=X.Y'` before). With `-v` every variable "
        "is shown as a one-off prefix, a shell rc line, an in-script line and a `.deepspeed_env` line.",
        examples=(
        case("cuda13-minor-13.5-vs-cu130-0.19.7-fatal",
             "DeepSpeed 0.19.7, torch 2.9.0+cu130, a real CUDA 13.5 toolkit as CUDA_HOME, DS_ACCELERATOR=cuda: "
             "`dsdoctor check` predicts that cpu_adam fails with this error."),
        log("cuda-mismatch-ds0.19.7",
            "The same failure in a training log (DeepSpeed 0.19.7); `dsdoctor explain` names it and marks the "
            "ds_opt_adam AttributeError as a consequence.",
            "    assert_no_cuda_mismatch(self.name)\n"
            "  File \"/opt/envs/ds/0.19.7/deepspeed/ops/op_builder/builder.py\", line 130, in assert_no_cuda_mismatch\n"
            "    raise CUDAMismatchException(\n"
            "deepspeed.ops.op_builder.builder.CUDAMismatchException: >- DeepSpeed Op Builder: Installed CUDA version "
            "13.5 does not match the version torch was compiled with 13.0, unable to compile cuda/cpp extensions "
            "without a matching cuda version.\n"
            "Exception ignored in: <function DeepSpeedCPUAdam.__del__ at 0x7fd7bd63dc60>\n"
            "Traceback (most recent call last):\n"
            "  File \"/opt/envs/ds/0.19.7/deepspeed/ops/adam/cpu_adam.py\", line 99, in __del__\n"
            "    self.ds_opt_adam.destroy_adam(self.opt_id)\n"
            "AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'\n"),
    ),
        reads="environment"),
    ("check", "verify", "explain"))


def cuda(ctx: Context, pred: OpPrediction) -> Iterable[Result]:
    if ctx.ds is None or ctx.torch_cuda is None:
        if ctx.facts.packages.torch and ctx.torch_cuda is None:
            yield Passed(S_CUDA, "torch is not a CUDA build: DeepSpeed uses no CUDA toolkit",
                         "CUDA_HOME is None for torch, so no CUDA version check can run")
        return
    ds = ctx.ds
    accel = ctx.accelerator.name
    home_src = ctx.facts.cuda_home.source
    if ctx.cuda_home is None or ctx.nvcc_release is None:
        yield from _toolkit_missing(ctx, pred)
        return
    verdict = K.cuda_pair_verdict(ds, ctx.nvcc_release, ctx.torch_cuda)
    nvcc_where = f"{ctx.cuda_home}/bin/nvcc -V (CUDA_HOME from {home_src})"
    seen = (Evidence(f"nvcc release {mm(ctx.nvcc_release)}", nvcc_where),
            Evidence(f"torch.version.cuda = {ctx.torch_cuda_str}", "torch/version.py"),
            Evidence(f"deepspeed {ds}", "package metadata"))
    if verdict == "equal":
        yield Passed(S_CUDA, f"CUDA toolkit {mm(ctx.nvcc_release)} matches torch's CUDA {ctx.torch_cuda_str}", nvcc_where)
        yield from _skip_var(ctx, pred, mismatch=False)
        return
    if verdict == "compatible":
        yield Passed(S_CUDA, f"CUDA toolkit {mm(ctx.nvcc_release)} vs torch CUDA {ctx.torch_cuda_str}: "
                     f"a minor difference DeepSpeed {ds} accepts", nvcc_where)
        yield from _skip_var(ctx, pred, mismatch=False)
        return
    mode = K.cpu_adam_cuda_check(ds)
    skip_on = K.skip_cuda_check_active(ds, ctx.env(K.SKIP_CUDA_CHECK_VAR))
    major_diff = ctx.nvcc_release[0] != ctx.torch_cuda[0]
    table = K.cuda_minor_mismatch_ok(ds)
    why_table = (f"DeepSpeed {ds} accepts a differing pair only when both are listed under the toolkit's major "
                 f"in its table ({', '.join(f'{k}: {len(v)} minors' for k, v in sorted(table.items()))}; "
                 "no entry for CUDA 13 in any version).")
    if N.CUDA_VERSION_MISMATCH in pred.blockers:
        sev, title = Severity.ERROR, (f"cpu_adam will fail: CUDA toolkit {mm(ctx.nvcc_release)} (nvcc) does not match "
                                      f"torch's CUDA {ctx.torch_cuda_str}")
        expl = (f"On the {accel} accelerator DeepSpeed {ds} builds cpu_adam with TorchCPUOpBuilder, whose compile flags run "
                f"assert_no_cuda_mismatch and raise CUDAMismatchException. {why_table} The last line you will see is "
                f"`{K.cpu_adam_failure_tail(ds)}` — a consequence, not the cause.")
    elif accel == "cuda" and mode == "fatal" and skip_on:
        sev, title = Severity.WARNING, (f"CUDA {mm(ctx.nvcc_release)} vs torch CUDA {ctx.torch_cuda_str}: allowed only "
                                        "because DS_SKIP_CUDA_CHECK=1")
        expl = f"{why_table} " + (
            "The op will be compiled against a toolkit torch was not built with." if ctx.gpu_visible else
            "No GPU is visible, so cpu_adam is built for the CPU (build_for_cpu): no CUDA code is compiled or linked "
            "here. On a machine with a GPU the same environment compiles and links the op against this toolkit.")
    elif accel == "cuda" and mode == "swallowed":
        sev, title = Severity.WARNING, (f"CUDA {mm(ctx.nvcc_release)} vs torch CUDA {ctx.torch_cuda_str}: DeepSpeed {ds} "
                                        "will silently build CPU-only ops")
        expl = f"DeepSpeed <= 0.12.3 swallows the mismatch and prints `{K.MSG_SWALLOWED.format(op='cpu_adam')}`."
    else:
        sev = Severity.WARNING if accel == "cuda" else Severity.INFO
        title = (f"CUDA toolkit {mm(ctx.nvcc_release)} does not match torch's CUDA {ctx.torch_cuda_str} "
                 f"(cpu_adam is not affected on DeepSpeed {ds} / {accel} accelerator)")
        cuda_ops = ("and compiles CUDA ops against the wrong toolkit" if ctx.gpu_visible else
                    "and, on a machine with a visible GPU, the JIT builds of CUDA ops (fused_adam, ...)")
        expl = (f"{why_table} It still fails installs with DS_BUILD_OPS=1 / DS_BUILD_<OP>=1"
                f"{' (from 0.12.4)' if K.install_build_mismatch_fatal(ds) else ''} {cuda_ops}.")
    if major_diff:
        expl += (" The major versions differ: torch's own install-time check (setup.py builds with .cu sources) "
                 "rejects that even with DS_SKIP_CUDA_CHECK=1.")
    fixes = _mismatch_fixes(ctx, pred, major_diff)
    yield CUDA_VERSION_MISMATCH.finding(sev, title, expl, seen, tuple(fixes), S_CUDA)
    yield from _skip_var(ctx, pred, mismatch=True)


def _skip_is_enough(ctx: Context, pred: OpPrediction) -> bool:
    """Is DeepSpeed's check the sole toolkit blocker? Predict again with ``DS_SKIP_CUDA_CHECK=1`` (pure: no
    probing): skipping must clear the mismatch and leave no other problem with this toolkit (e.g. no
    linkable libcurand) that would fail the build right after the check."""
    if N.CUDA_VERSION_MISMATCH not in pred.blockers:
        return False
    facts = dataclasses.replace(ctx.facts, env=dict(ctx.facts.env, **{K.SKIP_CUDA_CHECK_VAR: "1"}))
    after = predict(context.build(facts))
    return N.CUDA_VERSION_MISMATCH not in after.blockers and not set(after.blockers) & _TOOLKIT_BLOCKERS


_TOOLKIT_BLOCKERS = frozenset({N.CUDA_LIBS_MISSING, N.CUDA_TOOLKIT_MISSING})


def _mismatch_fixes(ctx: Context, pred: OpPrediction, major_diff: bool) -> List[Fix]:
    assert ctx.ds is not None and ctx.torch_cuda is not None and ctx.nvcc_release is not None
    return cuda_mismatch_fixes(ctx.ds, ctx.nvcc_release, ctx.torch_cuda, sole_blocker=_skip_is_enough(ctx, pred),
                               gpu_visible=ctx.gpu_visible, python=ctx.python_exe, other_toolkits=_others(ctx),
                               site=ctx.site)


CUDA_TOOLKIT_MISSING = FindingSpec(
    N.CUDA_TOOLKIT_MISSING,
    E,
    "No CUDA toolkit (CUDA_HOME / nvcc) where DeepSpeed needs one",
    Docs(
        what="No usable CUDA toolkit where DeepSpeed needs one: torch finds no CUDA_HOME (no CUDA_HOME/CUDA_PATH, "
         "no nvcc on PATH, no /usr/local/cuda), `$CUDA_HOME/bin/nvcc` does not exist, or `nvcc -V` prints no "
         "version. An error where it makes cpu_adam fail (the CUDA accelerator before 0.19.8, by version: a raw "
         "FileNotFoundError up to 0.19.4, MissingCUDAException with a visible GPU) or where `import deepspeed` "
         "itself fails (0.14.1-0.19.4 on a GPU machine without CUDA_HOME); otherwise a warning/info that CUDA "
         "ops cannot be built.",
        why="DeepSpeed reads the toolkit version by running `<CUDA_HOME>/bin/nvcc -V` (not the nvcc on PATH). "
        "DS_SKIP_CUDA_CHECK does not help with a missing toolkit: it is consulted only after a version was read.",
        fix="Install the CUDA toolkit matching torch's CUDA and export CUDA_HOME to it (`pip install "
        "'nvidia-cuda-nvcc==13.0.*' 'nvidia-cuda-crt==13.0.*' 'nvidia-nvvm==13.0.*'` then "
        "CUDA_HOME=<site-packages>/nvidia/cu13 for CUDA 13; `conda install -c "
        "nvidia 'cuda-nvcc=X.Y' 'cuda-libraries-dev=X.Y'` or `apt install cuda-toolkit-X-Y` before), or point "
        "CUDA_HOME at a matching toolkit dsdoctor found on disk; on the CUDA accelerator before 0.19.8, "
        "upgrading to `deepspeed>=0.19.8` also works (its cpu_adam needs no CUDA toolkit).",
        examples=(
        case("no-nvcc-0.19.4-fatal",
             "DeepSpeed 0.19.4 with DS_ACCELERATOR=cuda and a CUDA_HOME that has no bin/nvcc: cpu_adam's JIT "
             "build raises a raw FileNotFoundError."),
        log("cuda-toolkit-missing-ds0.16", "The same in a training log:",
            "  File \"/usr/lib/python3/dist-packages/deepspeed/ops/op_builder/builder.py\", line 52, in "
            "installed_cuda_version\n"
            "    output = subprocess.check_output([cuda_home + \"/bin/nvcc\", \"-V\"], universal_newlines=True)\n"
            "FileNotFoundError: [Errno 2] No such file or directory: '/usr/local/cuda-12.1/bin/nvcc'\n"),
    ),
        reads="environment"),
    ("check", "verify", "explain"))


def _toolkit_missing(ctx: Context, pred: OpPrediction) -> Iterable[Result]:
    assert ctx.torch_cuda is not None and ctx.ds is not None
    f = ctx.facts
    if ctx.cuda_home is None:
        what, where = "no CUDA_HOME: torch found no CUDA_HOME/CUDA_PATH, no nvcc on PATH, no /usr/local/cuda", "environment"
    elif f.nvcc is None or not f.nvcc.exists:
        what, where = f"{ctx.cuda_home}/bin/nvcc does not exist (CUDA_HOME from {f.cuda_home.source})", ctx.cuda_home
    else:
        what, where = f"{ctx.cuda_home}/bin/nvcc -V gave no version ({f.nvcc.result.describe_failure()})", f.nvcc.path
    if N.CUDA_TOOLKIT_MISSING in pred.blockers:
        sev = Severity.ERROR
        title = f"cpu_adam will fail: no usable CUDA toolkit ({pred.message})"
    elif ctx.gpu_visible and K.import_fails_without_toolkit(ctx.ds) and ctx.cuda_home is None:
        sev, title = Severity.ERROR, f"`import deepspeed` {ctx.ds} will fail on this GPU machine without a CUDA toolkit"
    else:
        sev = Severity.INFO if ctx.accelerator.name != "cuda" else Severity.WARNING
        title = "No usable CUDA toolkit: CUDA ops cannot be built (cpu_adam builds CPU-only here)"
    fixes = _toolkit_fixes(ctx, ctx.torch_cuda)
    if ctx.ds < v(K.CPU_ADAM_PLAIN_CPU_FROM) and ctx.accelerator.name == "cuda":
        fixes.insert(len(fixes) - 1, cpu_adam_upgrade_fix(ctx.python_exe))
    yield CUDA_TOOLKIT_MISSING.finding(sev, title,
                  None,
                  (Evidence(what, where),), tuple(fixes), S_CUDA)
    yield from _skip_var(ctx, pred, mismatch=False, no_toolkit=True)


def _without_skip(ctx: Context, value: Optional[str]) -> OpPrediction:
    """The cpu_adam prediction with ``DS_SKIP_CUDA_CHECK`` set to ``value`` (None: unset); pure, no probing."""
    env = {k: val for k, val in ctx.facts.env.items() if k != K.SKIP_CUDA_CHECK_VAR}
    if value is not None:
        env[K.SKIP_CUDA_CHECK_VAR] = value
    return predict(context.build(dataclasses.replace(ctx.facts, env=env)))


def _skip_needed(ctx: Context, mismatch: bool) -> bool:
    """Would DeepSpeed's CUDA check reject this toolkit for cpu_adam without the variable? (fatal: the
    build fails; swallowed, DeepSpeed <= 0.12.3: it silently builds CPU-only)."""
    if not mismatch or ctx.accelerator.name != "cuda":
        return False
    assert ctx.ds is not None
    if K.cpu_adam_cuda_check(ctx.ds) == "swallowed":
        return True
    return N.CUDA_VERSION_MISMATCH in _without_skip(ctx, None).blockers


def _skip_var(ctx: Context, pred: OpPrediction, mismatch: bool, no_toolkit: bool = False) -> Iterable[Result]:
    """``ds-skip-cuda-check-ineffective``: a value other than exactly 1 where the skip is needed, or the
    variable set where it cannot help or is not needed. The advice is the same whatever the value: "set it to
    exactly 1" only where a check would fail without it, "unset it" where none would."""
    assert ctx.ds is not None
    raw = ctx.env(K.SKIP_CUDA_CHECK_VAR)
    if raw is None:
        return
    ev = (Evidence(f"{K.SKIP_CUDA_CHECK_VAR}={raw!r}", "environment"),)
    exact = raw == K.SKIP_CUDA_CHECK_ON
    shown = f"{K.SKIP_CUDA_CHECK_VAR}={raw if exact else repr(raw)}"
    ignored = "" if exact else "; the value is ignored anyway (DeepSpeed reads only the exact string '1')"
    unset = unset_fix(K.SKIP_CUDA_CHECK_VAR, reason="and drop it from ~/.bashrc / .deepspeed_env / the launch script")
    if not K.skip_cuda_check_supported(ctx.ds):
        yield Finding(N.DS_SKIP_CUDA_CHECK_INEFFECTIVE, Severity.WARNING,
                      f"DS_SKIP_CUDA_CHECK does not exist in DeepSpeed {ctx.ds} (added in {K.SKIP_CUDA_CHECK_SINCE})",
                      evidence=ev, fixes=(pip_fix(f"deepspeed>={K.SKIP_CUDA_CHECK_SINCE}", "Upgrade DeepSpeed", ctx.python_exe),),
                      section=S_CUDA)
    elif no_toolkit:
        sev = Severity.WARNING if N.CUDA_TOOLKIT_MISSING in pred.blockers else Severity.INFO  # the error is the toolkit's
        yield Finding(N.DS_SKIP_CUDA_CHECK_INEFFECTIVE, sev,
                      f"{shown} cannot help: it is consulted only after a toolkit version was read",
                      "A missing CUDA_HOME or nvcc fails before the skip is looked at.", ev, (), S_CUDA)
    elif _skip_needed(ctx, mismatch):
        if not exact:
            # a warning even when cpu_adam fails: the failure is cuda-version-mismatch's error (one failure, one error)
            yield Finding(N.DS_SKIP_CUDA_CHECK_INEFFECTIVE, Severity.WARNING,
                          f"DS_SKIP_CUDA_CHECK={raw!r} is ignored: DeepSpeed compares the value with the exact string '1'",
                          "DeepSpeed runs os.getenv('DS_SKIP_CUDA_CHECK', '0') == '1'; 'true', 'yes', ' 1' all still raise.",
                          ev, (env_fix(K.SKIP_CUDA_CHECK_VAR, "1", "Set it to exactly 1"),), S_CUDA)
        elif ctx.nvcc_release and ctx.torch_cuda and ctx.nvcc_release[0] != ctx.torch_cuda[0]:
            yield Finding(N.DS_SKIP_CUDA_CHECK_INEFFECTIVE, Severity.INFO,
                          "DS_SKIP_CUDA_CHECK=1 does not cover torch's own install-time check of a major CUDA difference",
                          "torch's _check_cuda_version (setup.py builds with .cu sources, e.g. DS_BUILD_OPS=1) raises "
                          "for a differing major version whatever DeepSpeed's variable says; JIT builds are not affected.",
                          ev, (), S_CUDA)
    elif mismatch:
        yield Finding(N.DS_SKIP_CUDA_CHECK_INEFFECTIVE, Severity.INFO,
                      f"{shown} is unnecessary for cpu_adam on DeepSpeed {ctx.ds} ({ctx.accelerator.name} accelerator): "
                      f"no CUDA check fails for it{ignored}",
                      "It matters only for builds of CUDA ops against this toolkit (DS_BUILD_OPS=1 / DS_BUILD_<OP>=1 "
                      "installs, fused ops JIT-built with a visible GPU); there it must be exactly 1.",
                      ev, (unset, env_fix(K.SKIP_CUDA_CHECK_VAR, "1", "Or, to build CUDA ops against this toolkit, "
                                          "set it to exactly 1", "unsafe", "the ops are compiled against a toolkit "
                                          "torch was not built with")) if not exact else (unset,), S_CUDA)
    else:
        yield Finding(N.DS_SKIP_CUDA_CHECK_INEFFECTIVE, Severity.INFO,
                      f"{shown} is unnecessary: the CUDA toolkit passes DeepSpeed's check{ignored}",
                      f"nvcc {mm(ctx.nvcc_release)} and torch's CUDA {ctx.torch_cuda_str} are accepted by DeepSpeed "
                      f"{ctx.ds}: no CUDA check fails, whatever the variable says. Left set, it would hide a real mismatch "
                      "after a toolkit or torch upgrade.",
                      ev, (unset,), S_CUDA)


# check's environment form of a name a lint rule owns (its docs are the rule's)
SKIP_FORM = Form(N.DS_SKIP_CUDA_CHECK_INEFFECTIVE, "check", (
    case("skip-true-ignored-warning",
         "`dsdoctor check` with DS_SKIP_CUDA_CHECK=true in the environment (DeepSpeed 0.15.4, nvcc 13.0 vs torch "
         "cu121): the mismatch is the error, this finding a warning whose fix is exactly `1`."),
    case("skip-true-matching-13.0-unset",
         "`dsdoctor check` with DS_SKIP_CUDA_CHECK=true and a toolkit matching torch: no check fails, the fix "
         "is to unset it (the same as for `1`)."),
), note="`dsdoctor check` reports the environment variable form: a value other than exactly `1` where a CUDA "
        "check would fail without it (fix: `export DS_SKIP_CUDA_CHECK=1`), a DeepSpeed before 0.9.3 (no such "
        "variable), any value with no toolkit (it is read only after a version was read), any value where no "
        "check fails (a matching toolkit, or 0.19.8 whose cpu_adam is not checked: fix `unset DS_SKIP_CUDA_CHECK`), "
        "and `1` facing torch's own major-version check at install time.")
