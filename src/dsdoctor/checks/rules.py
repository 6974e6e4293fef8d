"""Environment rules: facts + knowledge -> findings. One function per finding family; each returns
findings and healthy (✓) results. Severity follows the cpu_adam prediction: the cause that will make
``CPUAdamBuilder().load()`` fail is an error, the rest are warnings or info. Each name check emits is one
:class:`~dsdoctor.spec.FindingSpec` beside its function (``SPECS``: code, summary, What / Why / Fix, examples);
``FORMS`` are check's forms of two names lint rules own."""

from __future__ import annotations

import dataclasses
import os
from typing import Callable, Iterable, List, Optional, Tuple, Union

from .. import names as N
from ..dsconfig import OffloadIntent
from ..fixes import (
    compiler_fix,
    cpu_adam_upgrade_fix,
    cuda_mismatch_fixes,
    curand_fix,
    env_fix,
    gcc_limit_fixes,
    libaio_fix,
    memlock_fix,
    ninja_fixes,
    openmp_fix,
    pip_fix,
    prebuilt_reinstall_fix,
    python_headers_fix,
    shm_fix,
    stale_lock_fix,
    toolkit_fixes,
    unset_accelerator_fix,
    unset_fix,
)
from ..knowledge import cuda as CK
from ..knowledge import deepspeed as K
from ..knowledge.versions import v
from ..lint.config import memlock_too_low as MEMLOCK
from ..lint.script import ds_skip_cuda_check_ineffective as SKIP
from ..model import Evidence, Finding, Fix, Passed, Severity
from ..spec import Docs, FindingSpec, Form, RuleExample, case, log
from . import context
from .context import Context
from .cpu_adam import OpPrediction, prebuilt_mismatch, predict, stale_lock

Result = Union[Finding, Passed]
Rule = Callable[[Context, OpPrediction], Iterable[Result]]

S_PKG, S_ACCEL, S_CUDA, S_BUILD, S_SYS = "Packages", "Accelerator", "CUDA toolkit", "JIT op build", "System"
E, W = Severity.ERROR, Severity.WARNING


def _sev(pred: OpPrediction, name: str, otherwise: Severity = Severity.WARNING) -> Severity:
    return Severity.ERROR if name in pred.blockers else otherwise


def _mm(t: Optional[Tuple[int, int]]) -> str:
    return "%d.%d" % t if t else "?"


# --------------------------------------------------------------------------------------------- packages


PACKAGE_MISSING = FindingSpec(
    N.PACKAGE_MISSING,
    E,
    "torch or deepspeed is not installed in the checked environment",
    Docs(
        what="torch or deepspeed is not installed in the checked environment (the interpreter running dsdoctor, or "
         "`--python`).",
        why="Nothing can be predicted or built without them; often the wrong interpreter was checked.",
        fix="Install it into that environment (`python -m pip install deepspeed`), or point `--python` at the "
        "training environment's interpreter.",
        examples=(
        case("package-missing-deepspeed", "An environment with torch but no deepspeed."),
    ),
        reads="environment"),
    ("check",))


def packages(ctx: Context, pred: OpPrediction) -> Iterable[Result]:
    pk = ctx.facts.packages
    where = ctx.python_exe or "?"
    for name in ("torch", "deepspeed"):
        if pk.version(name) is None and not (name == "torch" and pk.torch):
            yield PACKAGE_MISSING.finding(
                Severity.ERROR, f"{name} is not installed for {where}",
                explanation=f"dsdoctor checks the environment of {where}; pass --python to check another one.",
                evidence=(Evidence(f"no {name} distribution on sys.path", where),),
                fixes=(pip_fix(name, f"Install {name}", ctx.python_exe),), section=S_PKG)
    if pk.torch:
        kind = f"CUDA {pk.torch.cuda}" if pk.torch.cuda else (f"ROCm {pk.torch.hip}" if pk.torch.hip else "CPU build")
        parts = [f"torch {pk.torch.version} ({kind})"]
        parts += [f"{n} {pk.version(n)}" for n in ("deepspeed", "transformers", "accelerate", "peft") if pk.version(n)]
        yield Passed(S_PKG, ", ".join(parts), f"python {ctx.facts.interpreter.short if ctx.facts.interpreter else '?'}: {where}")


PROBE_FAILED = FindingSpec(
    N.PROBE_FAILED,
    W,
    "A probe of the environment failed (hung, crashed or printed garbage)",
    Docs(
        what="A probe of the environment hung (killed at its timeout), crashed, or printed something dsdoctor "
         "cannot parse: e.g. `nvcc -V` that hangs or prints garbage, a damaged torch/version.py, unreadable "
         "package metadata. Named, never a traceback.",
        why="dsdoctor could not read this fact, so checks that depend on it are less certain. DeepSpeed runs the "
        "same tool and will likely fail the same way.",
        fix="Run the named probe yourself (the finding shows the command and its output) and repair what it reads: "
        "the toolkit under CUDA_HOME, the package installation.",
        examples=(
        case("fault-nvcc-hangs", "`$CUDA_HOME/bin/nvcc` hangs: the probe is killed at its timeout and reported as "
                                 "`probe 'nvcc -V' failed`."),
    ),
        reads="environment"),
    ("check",))


def probe_failures(ctx: Context, pred: OpPrediction) -> Iterable[Result]:
    for fail in ctx.facts.failures:
        yield PROBE_FAILED.finding(
            Severity.WARNING, f"probe '{fail.probe}' failed: {fail.reason}",
            evidence=(Evidence(fail.reason, fail.where),), section=S_SYS)


# ------------------------------------------------------------------------------------------ accelerator


DS_ACCELERATOR_INVALID = FindingSpec(
    N.DS_ACCELERATOR_INVALID,
    E,
    "DS_ACCELERATOR is not a value this DeepSpeed accepts",
    Docs(
        what="`DS_ACCELERATOR` is not in the installed DeepSpeed's list (exact, lower-case: e.g. 0.19.8 accepts "
         "cuda, cpu, xpu, npu, mps, hpu, mlu, sdaa, supa, klxpu), or the selected accelerator has no cpu_adam "
         "(the CPU accelerator before 0.10.1; `cpu` <= 0.14.0 needs intel_extension_for_pytorch). A warning when "
         "DeepSpeed < 0.14.1 will auto-select cuda on a machine where torch sees no GPU (no CPU fallback yet).",
        why="`get_accelerator()` raises `DS_ACCELERATOR must be one of ...` for any other value, before training "
        "starts.",
        fix="Unset it to let DeepSpeed auto-detect (`unset DS_ACCELERATOR`), or use the exact lower-case value; for "
        "the CPU accelerator's missing cpu_adam, `pip install 'deepspeed>=0.10.1'`.",
        examples=(
        case("accel-tpu-invalid", "DS_ACCELERATOR=tpu with DeepSpeed 0.19.8."),
    ),
        reads="environment"),
    ("check", "verify", "explain"))


def accelerator(ctx: Context, pred: OpPrediction) -> Iterable[Result]:
    if ctx.ds is None:
        return
    acc, gpus = ctx.accelerator, ctx.facts.gpus
    if acc.name is None:
        value = ctx.env("DS_ACCELERATOR")
        allowed = K.supported_accelerators(ctx.ds)
        fixes: List[Fix] = [unset_accelerator_fix()]
        if value and value.strip().lower() in allowed:
            fixes.insert(0, env_fix("DS_ACCELERATOR", value.strip().lower(), "Use the exact lower-case value"))
        yield DS_ACCELERATOR_INVALID.finding(
            Severity.ERROR, f"DS_ACCELERATOR={value!r} will make get_accelerator() fail",
            explanation=f"DeepSpeed {ctx.ds} accepts {', '.join(allowed)}. {acc.error}",
            evidence=(Evidence(f"DS_ACCELERATOR={value!r}", "environment"),), fixes=tuple(fixes), section=S_ACCEL)
        return
    gpu_txt = f"{gpus.visible} of {gpus.count} GPU(s) visible via {gpus.source}" if gpus.count else gpus.source
    if N.DS_ACCELERATOR_INVALID in pred.blockers:  # the accelerator is valid but has no cpu_adam builder
        yield DS_ACCELERATOR_INVALID.finding(
            Severity.ERROR,
            f"DeepSpeed {ctx.ds}'s {acc.name} accelerator has no cpu_adam op ({acc.how})",
            explanation=f"`{pred.message}` The CPU accelerator gained CPUAdamBuilder in 0.10.1.",
            evidence=(Evidence(f"accelerator {acc.name}, deepspeed {ctx.ds}", "environment / package metadata"),),
            fixes=(pip_fix("deepspeed>=0.10.1", "Upgrade DeepSpeed", ctx.python_exe),), section=S_ACCEL)
        return
    yield Passed(S_ACCEL, f"DeepSpeed will use the {acc.name} accelerator ({acc.how})", gpu_txt)
    if acc.name == "cuda" and not ctx.gpu_visible and acc.how.startswith("auto-detect"):
        yield DS_ACCELERATOR_INVALID.finding(
            Severity.WARNING,
            f"DeepSpeed {ctx.ds} will select the cuda accelerator, but torch will see no GPU",
            explanation="Before 0.14.1 DeepSpeed has no CPU fallback; training will fail at the first CUDA call.",
            evidence=(Evidence(gpu_txt, gpus.source),), section=S_ACCEL)


# ---------------------------------------------------------------------------------------------- CUDA


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
    seen = (Evidence(f"nvcc release {_mm(ctx.nvcc_release)}", nvcc_where),
            Evidence(f"torch.version.cuda = {ctx.torch_cuda_str}", "torch/version.py"),
            Evidence(f"deepspeed {ds}", "package metadata"))
    if verdict == "equal":
        yield Passed(S_CUDA, f"CUDA toolkit {_mm(ctx.nvcc_release)} matches torch's CUDA {ctx.torch_cuda_str}", nvcc_where)
        yield from _skip_var(ctx, pred, mismatch=False)
        return
    if verdict == "compatible":
        yield Passed(S_CUDA, f"CUDA toolkit {_mm(ctx.nvcc_release)} vs torch CUDA {ctx.torch_cuda_str}: "
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
        sev, title = Severity.ERROR, (f"cpu_adam will fail: CUDA toolkit {_mm(ctx.nvcc_release)} (nvcc) does not match "
                                      f"torch's CUDA {ctx.torch_cuda_str}")
        expl = (f"On the {accel} accelerator DeepSpeed {ds} builds cpu_adam with TorchCPUOpBuilder, whose compile flags run "
                f"assert_no_cuda_mismatch and raise CUDAMismatchException. {why_table} The last line you will see is "
                f"`{K.cpu_adam_failure_tail(ds)}` — a consequence, not the cause.")
    elif accel == "cuda" and mode == "fatal" and skip_on:
        sev, title = Severity.WARNING, (f"CUDA {_mm(ctx.nvcc_release)} vs torch CUDA {ctx.torch_cuda_str}: allowed only "
                                        "because DS_SKIP_CUDA_CHECK=1")
        expl = f"{why_table} " + (
            "The op will be compiled against a toolkit torch was not built with." if ctx.gpu_visible else
            "No GPU is visible, so cpu_adam is built for the CPU (build_for_cpu): no CUDA code is compiled or linked "
            "here. On a machine with a GPU the same environment compiles and links the op against this toolkit.")
    elif accel == "cuda" and mode == "swallowed":
        sev, title = Severity.WARNING, (f"CUDA {_mm(ctx.nvcc_release)} vs torch CUDA {ctx.torch_cuda_str}: DeepSpeed {ds} "
                                        "will silently build CPU-only ops")
        expl = f"DeepSpeed <= 0.12.3 swallows the mismatch and prints `{K.MSG_SWALLOWED.format(op='cpu_adam')}`."
    else:
        sev = Severity.WARNING if accel == "cuda" else Severity.INFO
        title = (f"CUDA toolkit {_mm(ctx.nvcc_release)} does not match torch's CUDA {ctx.torch_cuda_str} "
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
    exact = raw == "1"
    shown = f"{K.SKIP_CUDA_CHECK_VAR}={raw if exact else repr(raw)}"
    ignored = "" if exact else "; the value is ignored anyway (DeepSpeed reads only the exact string '1')"
    unset = unset_fix(K.SKIP_CUDA_CHECK_VAR, reason="and drop it from ~/.bashrc / .deepspeed_env / the launch script")
    if not K.skip_cuda_check_supported(ctx.ds):
        yield Finding(SKIP.RULE.name, Severity.WARNING,
                      f"DS_SKIP_CUDA_CHECK does not exist in DeepSpeed {ctx.ds} (added in {K.SKIP_CUDA_CHECK_SINCE})",
                      evidence=ev, fixes=(pip_fix(f"deepspeed>={K.SKIP_CUDA_CHECK_SINCE}", "Upgrade DeepSpeed", ctx.python_exe),),
                      section=S_CUDA)
    elif no_toolkit:
        sev = Severity.WARNING if N.CUDA_TOOLKIT_MISSING in pred.blockers else Severity.INFO  # the error is the toolkit's
        yield Finding(SKIP.RULE.name, sev,
                      f"{shown} cannot help: it is consulted only after a toolkit version was read",
                      "A missing CUDA_HOME or nvcc fails before the skip is looked at.", ev, (), S_CUDA)
    elif _skip_needed(ctx, mismatch):
        if not exact:
            # a warning even when cpu_adam fails: the failure is cuda-version-mismatch's error (one failure, one error)
            yield Finding(SKIP.RULE.name, Severity.WARNING,
                          f"DS_SKIP_CUDA_CHECK={raw!r} is ignored: DeepSpeed compares the value with the exact string '1'",
                          "DeepSpeed runs os.getenv('DS_SKIP_CUDA_CHECK', '0') == '1'; 'true', 'yes', ' 1' all still raise.",
                          ev, (env_fix(K.SKIP_CUDA_CHECK_VAR, "1", "Set it to exactly 1"),), S_CUDA)
        elif ctx.nvcc_release and ctx.torch_cuda and ctx.nvcc_release[0] != ctx.torch_cuda[0]:
            yield Finding(SKIP.RULE.name, Severity.INFO,
                          "DS_SKIP_CUDA_CHECK=1 does not cover torch's own install-time check of a major CUDA difference",
                          "torch's _check_cuda_version (setup.py builds with .cu sources, e.g. DS_BUILD_OPS=1) raises "
                          "for a differing major version whatever DeepSpeed's variable says; JIT builds are not affected.",
                          ev, (), S_CUDA)
    elif mismatch:
        yield Finding(SKIP.RULE.name, Severity.INFO,
                      f"{shown} is unnecessary for cpu_adam on DeepSpeed {ctx.ds} ({ctx.accelerator.name} accelerator): "
                      f"no CUDA check fails for it{ignored}",
                      "It matters only for builds of CUDA ops against this toolkit (DS_BUILD_OPS=1 / DS_BUILD_<OP>=1 "
                      "installs, fused ops JIT-built with a visible GPU); there it must be exactly 1.",
                      ev, (unset, env_fix(K.SKIP_CUDA_CHECK_VAR, "1", "Or, to build CUDA ops against this toolkit, "
                                          "set it to exactly 1", "unsafe", "the ops are compiled against a toolkit "
                                          "torch was not built with")) if not exact else (unset,), S_CUDA)
    else:
        yield Finding(SKIP.RULE.name, Severity.INFO,
                      f"{shown} is unnecessary: the CUDA toolkit passes DeepSpeed's check{ignored}",
                      f"nvcc {_mm(ctx.nvcc_release)} and torch's CUDA {ctx.torch_cuda_str} are accepted by DeepSpeed "
                      f"{ctx.ds}: no CUDA check fails, whatever the variable says. Left set, it would hide a real mismatch "
                      "after a toolkit or torch upgrade.",
                      ev, (unset,), S_CUDA)


# -------------------------------------------------------------------------------------------- build


NINJA_MISSING = FindingSpec(
    N.NINJA_MISSING,
    E,
    "ninja, needed for JIT op builds, is not found the way DeepSpeed looks",
    Docs(
        what="ninja is not found the way the installed DeepSpeed looks for it: DeepSpeed <= 0.18.2 needs the Python "
         "`ninja` module (`import ninja`; apt's ninja-build does not count) and an executable; >= 0.18.3 runs "
         "`ninja --version` on PATH. Also reported when the environment's bin directory (with its ninja) is not "
         "on PATH because the environment was not activated.",
        why="Every JIT op build needs ninja; without it every op fails with `Unable to JIT load the <op> op due to "
        "ninja not being installed.`",
        fix="Install ninja into the training environment (`python -m pip install ninja`); from DeepSpeed 0.18.3 the "
        "system package also works (`apt-get install ninja-build`); when the environment's bin dir has ninja "
        "but is not on PATH, activate the environment (`export PATH=<env>/bin:$PATH`).",
        examples=(
        case("ninja-0.18.3-no-executable-fatal",
             "DeepSpeed 0.18.3 with the ninja module installed but no ninja executable on PATH."),
        log("ninja-missing-ds0.19.8", "The same in a log (DeepSpeed 0.19.8):",
            "    raise RuntimeError(f\"Unable to JIT load the {self.name} op due to ninja not being installed.\") "
            "from e\n"
            "RuntimeError: Unable to JIT load the cpu_adam op due to ninja not being installed.\n"
            "RuntimeError: DeepSpeedCPUAdam requires the cpu_adam op, which failed to build/load.\n"),
    ),
        reads="environment"),
    ("check", "verify", "explain"))


HOST_COMPILER_UNSUPPORTED = FindingSpec(
    N.HOST_COMPILER_UNSUPPORTED,
    E,
    "No usable C++ compiler / OpenMP for JIT op builds",
    Docs(
        what="No usable host C++ compiler for JIT op builds: no `$CXX` / `c++` on PATH, a compiler without an OpenMP "
         "runtime (cpu_adam is built with -fopenmp), or a gcc newer than the CUDA toolkit's nvcc accepts where "
         "cpu_adam still compiles a .cu kernel (DeepSpeed <= 0.14.2 with a visible GPU).",
        why="torch builds JIT ops with `$CXX` or `c++`; nvcc refuses host compilers newer than the one its release "
        "supports.",
        fix="Install a compiler (`apt-get install g++`) or point CXX at one (`unset CXX` / `export CXX=g++`); for "
        "OpenMP `apt-get install libgomp1 libomp-dev`; for a gcc nvcc rejects, `export CXX=g++-<newest "
        "supported>` (or, unsafe, `export NVCC_APPEND_FLAGS=-allow-unsupported-compiler`).",
        examples=(
        case("compiler-missing-fatal", "No c++ on PATH at all (DeepSpeed 0.15.4): every JIT build fails."),
        log("compiler-missing-ds0.19.8", "In a log, with CXX pointing at a compiler that does not exist:",
            "FAILED: [code=127] cpu_adam.o \n"
            "/bin/sh: 1: /nonexistent/c++: not found\n"
            "ninja: build stopped: subcommand failed.\n"),
    ),
        reads="environment"),
    ("check", "verify", "explain"))


PYTHON_HEADERS_MISSING = FindingSpec(
    N.PYTHON_HEADERS_MISSING,
    E,
    "Python.h is missing, so no op can be compiled",
    Docs(
        what="`Python.h` is missing from the checked interpreter's include directory (a Python installed without its "
         "-dev package).",
        why="Every op's C++ sources include torch/extension.h, which includes Python.h: no op can be compiled.",
        fix="Install the headers for that Python version (`apt-get install python3.X-dev`); conda environments ship "
        "them; with pyenv, reinstall the version.",
        examples=(
        case("python-headers-missing-fatal", "An interpreter whose include directory has no Python.h."),
        log(N.PYTHON_HEADERS_MISSING, "In a log:",
            "/opt/envs/venv/lib/python3.11/site-packages/torch/include/torch/extension.h:9:10: fatal error: "
            "Python.h: No such file or directory\n"
            "compilation terminated.\n"
            "ninja: build stopped: subcommand failed.\n"),
    ),
        reads="environment"),
    ("check", "verify", "explain"))


TORCH_EXTENSIONS_LOCK_STALE = FindingSpec(
    N.TORCH_EXTENSIONS_LOCK_STALE,
    E,
    "A leftover torch-extensions lock file: the next build hangs",
    Docs(
        what="A `lock` file left in a torch-extensions build directory (`$TORCH_EXTENSIONS_DIR/<op>/lock`) by a "
         "killed build, with no process building there, under torch <= 2.13. An error when it is the op "
         "dsdoctor predicts (cpu_adam), a warning for other ops. With torch 2.14+ (an OS file lock) the "
         "leftover file is harmless and not reported. `explain` reports it (warning) when a log ends while a "
         "build was started or waited for.",
        why="torch <= 2.13 guards JIT builds with a FileBaton: the file's existence makes every later build of that "
        "op wait forever, printing nothing.",
        fix="Delete the stale lock (`rm -f <TORCH_EXTENSIONS_DIR>/<op>/lock`) when no build is running.",
        examples=(
        case("lock-stale-cpu-adam-fatal",
             "A leftover cpu_adam/lock under TORCH_EXTENSIONS_DIR with no build running (torch 2.4)."),
        log(N.LIBSTDCXX_MISMATCH,
            "A log that ends right after torch announced the build (the first line of a real build log; a "
            "run that hangs on a stale lock prints nothing after it):",
            "Using /root/.cache/torch_extensions/py310_cu121 as PyTorch extensions root...\n"),
    ),
        reads="environment"),
    ("check", "verify", "explain"))


PREBUILT_OP_MISMATCH = FindingSpec(
    N.PREBUILT_OP_MISMATCH,
    E,
    "Prebuilt DeepSpeed ops were built for another torch/CUDA",
    Docs(
        what="DeepSpeed was installed with prebuilt ops (DS_BUILD_OPS=1 / DS_BUILD_<OP>=1) recorded for another "
         "torch or CUDA version than the installed one (`git_version_info_installed.py`'s torch_info). A "
         "warning when the prebuilt op is not used (built for another accelerator: JIT runs instead).",
        why="`load()` of a prebuilt op compares the recorded versions and raises `PyTorch version mismatch! "
        "DeepSpeed ops were compiled and installed with a different version` (or the CUDA one).",
        fix="Reinstall DeepSpeed against this torch, using JIT ops (`pip install --force-reinstall --no-cache-dir "
        "deepspeed`).",
        examples=(
        case("prebuilt-torch-version-mismatch-fatal",
             "cpu_adam prebuilt against torch 2.3; torch is now 2.4.0+cu121 (DeepSpeed 0.15.4)."),
    ),
        reads="environment"),
    ("check", "verify", "explain"))


def build(ctx: Context, pred: OpPrediction) -> Iterable[Result]:
    if ctx.ds is None:
        return
    f, ds = ctx.facts, ctx.ds
    # prebuilt ops
    inst = f.packages.deepspeed
    if inst and any(inst.installed_ops.values()):
        bad = prebuilt_mismatch(ctx)
        built = ", ".join(sorted(k for k, v in inst.installed_ops.items() if v))
        if bad:
            yield PREBUILT_OP_MISMATCH.finding(_sev(pred, N.PREBUILT_OP_MISMATCH),
                          "DeepSpeed's prebuilt ops were built for another torch/CUDA and will refuse to load",
                          f"Prebuilt ops: {built} (accelerator {inst.accelerator_name!r}). {bad}",
                          (Evidence(f"torch_info={inst.torch_info}", os.path.join(inst.package_dir, "git_version_info_installed.py")),),
                          (prebuilt_reinstall_fix(ctx.python_exe),),
                          S_BUILD)
        else:
            yield Passed(S_BUILD, f"prebuilt ops match this torch: {built}")
    if pred.path == "prebuilt":
        return
    # ninja
    mode = K.ninja_detection(ds)
    nj = f.ninja
    need = "the Python ninja module (import ninja) and a ninja executable on PATH" if mode == "module" else "a ninja executable on PATH"
    if (mode == "module" and not nj.module_dir) or not nj.executable:
        hint, off = "", f.scripts_off_path
        if not nj.executable and off and os.path.exists(os.path.join(off, "ninja")):
            hint = (f" {off}/ninja exists, but {off} is not on PATH: activate the environment "
                    f"(or export PATH={off}:$PATH) before launching training.")
        elif nj.module_dir and not nj.executable:
            hint = " The ninja module is installed but its executable is not on PATH."
        yield NINJA_MISSING.finding(_sev(pred, N.NINJA_MISSING),
                      f"ninja not found the way DeepSpeed {ds} looks for it ({need})",
                      f"DeepSpeed {'<= 0.18.2 checks `import ninja`' if mode == 'module' else '>= 0.18.3 runs `ninja --version`'}; "
                      f"a missing ninja fails every JIT op with `{K.MSG_NINJA.format(op='cpu_adam')}`.{hint}",
                      (Evidence(f"module: {nj.module_dir or 'not found'}; executable: {nj.executable or 'not on PATH'}", "PATH / sys.path"),),
                      _ninja_fixes(ctx, mode, hint), S_BUILD)
    else:
        yield Passed(S_BUILD, f"ninja {nj.version or ''}".strip(), nj.executable or "")
    # compiler + OpenMP
    c = f.compiler
    if c.path is None:
        yield HOST_COMPILER_UNSUPPORTED.finding(_sev(pred, N.HOST_COMPILER_UNSUPPORTED),
                      f"No C++ compiler: {c.name!r} is not on PATH", None,
                      (Evidence(f"{c.name}: not found", "PATH"),),
                      (compiler_fix(),), S_BUILD)
    elif c.kind is not None and c.openmp is None:
        yield HOST_COMPILER_UNSUPPORTED.finding(_sev(pred, N.HOST_COMPILER_UNSUPPORTED),
                      f"{c.name} has no OpenMP runtime: cpu_adam is built with -fopenmp",
                      evidence=(Evidence(f"{c.path} -print-file-name=lib{'omp' if c.kind == 'clang' else 'gomp'}.so found nothing", c.path),),
                      fixes=(openmp_fix(),), section=S_BUILD)
    else:
        ver = ".".join(map(str, c.version)) if c.version else "?"
        limit = CK.nvcc_max_gcc(ctx.nvcc_release) if ctx.nvcc_release else None
        if N.HOST_COMPILER_UNSUPPORTED in pred.blockers and limit is not None:
            yield HOST_COMPILER_UNSUPPORTED.finding(Severity.ERROR,
                          f"nvcc {_mm(ctx.nvcc_release)} rejects host gcc {ver} (newest supported: {limit})", pred.message,
                          (Evidence(f"{c.path} {ver}", c.path or ""),),
                          gcc_limit_fixes(limit), S_BUILD)
        else:
            yield Passed(S_BUILD, f"C++ compiler {c.kind or ''} {ver} with OpenMP", c.path or "")
    # Python.h
    if f.python_h is None and f.interpreter is not None:
        v = f.interpreter.version
        yield PYTHON_HEADERS_MISSING.finding(_sev(pred, N.PYTHON_HEADERS_MISSING),
                      f"Python.h is missing for Python {v[0]}.{v[1]}: no op can be compiled",
                      evidence=(Evidence(f"{f.interpreter.include}/Python.h not found", f.interpreter.include),),
                      fixes=(python_headers_fix((v[0], v[1])),), section=S_BUILD)
    elif f.python_h:
        yield Passed(S_BUILD, "Python.h present", f.python_h)
    # CUDA libraries (CUDA builder with a visible GPU links -lcurand -L$CUDA_HOME/lib64)
    if K.cpu_adam_builder(ds, ctx.accelerator.name or "") == "cuda-torchcpu" and ctx.cuda_home:
        yield from _curand(ctx, pred)
    # stale locks: only torch <= 2.13 waits on a leftover lock file (FileBaton); 2.14's OS file lock is released
    # by the kernel when its holder dies, so a leftover file there is nothing to report
    if not CK.extension_lock_blocks(ctx.torch_version):
        return
    for lock in ctx.own_locks:
        op = os.path.basename(os.path.dirname(lock.path))
        if lock.busy:
            yield Passed(S_BUILD, f"{op}: a build is running now", lock.path)
            continue
        is_cause = N.TORCH_EXTENSIONS_LOCK_STALE in pred.blockers and stale_lock(ctx, pred.op) == lock.path
        yield TORCH_EXTENSIONS_LOCK_STALE.finding(Severity.ERROR if is_cause else Severity.WARNING,
                      f"Stale build lock for {op}: the next build of {op} will hang silently",
                      f"torch waits on {lock.path} forever (no message) and no running process is building there. "
                      f"Left by a killed build {lock.age_s / 60:.0f} min ago.",
                      (Evidence(f"lock file, {lock.age_s:.0f}s old, no process building", lock.path),),
                      (stale_lock_fix(lock.path),), S_BUILD)


CUDA_LIBS_MISSING = FindingSpec(
    N.CUDA_LIBS_MISSING,
    E,
    "libcurand / libcudart missing where the CUDA cpu_adam build links",
    Docs(
        what="No linkable `libcurand.so` where cpu_adam's CUDA build links it: DeepSpeed <= 0.19.7 on the CUDA "
         "accelerator links cpu_adam with `-lcurand -L$CUDA_HOME/lib64` (or `lib`) when a GPU is visible (a "
         "warning when none is: the same environment fails wherever one is). Only a versioned runtime "
         "(`libcurand.so.10`) is not linkable. `explain` also recognises a missing -lcudart/-lcublas/-lcusparse/"
         "-lcusolver.",
        why="The link step fails (`cannot find -lcurand`) after compiling, and cpu_adam never loads.",
        fix="Give the linker a `libcurand.so`: beside a runtime-only `libcurand.so.N` (PyPI's `nvidia-curand`, "
        "which torch cu13 pulls, ships only that in `<site-packages>/nvidia/cu13/lib`) `ln -s libcurand.so.N "
        "libcurand.so` and put that directory on LIBRARY_PATH; for CUDA >= 13 without one, first `pip install "
        "'cuda-toolkit[curand]==X.Y.*'`; for a `/usr/local/cuda-X.Y` toolkit, NVIDIA's CUDA apt repository "
        "package `libcurand-dev-X-Y` (not in Debian's sources).",
        examples=(
        case("cuda-libs-missing-0.15.4-gpu-fatal",
             "DeepSpeed 0.15.4 with a visible GPU and a toolkit without libcurand.so."),
        log(N.CUDA_LIBS_MISSING, "In a log:",
            "FAILED: [code=127] cpu_adam.o \n"
            "/usr/bin/ld: cannot find -lcurand: No such file or directory\n"
            "collect2: error: ld returned 1 exit status\n"
            "ninja: build stopped: subcommand failed.\n"),
    ),
        reads="environment"),
    ("check", "verify", "explain"))


def _curand(ctx: Context, pred: OpPrediction) -> Iterable[Result]:
    """``cuda-libs-missing``: TorchCPUOpBuilder links ``-lcurand -L$CUDA_HOME/lib64`` (or ``lib``) whenever torch
    sees a GPU. Without one here the build is CPU-only, but the same environment fails on a GPU machine."""
    assert ctx.cuda_home is not None
    linkable, versioned = ctx.facts.cuda_libs.get("curand", (None, None))
    if linkable is not None:
        return
    dirs = list(CK.cuda_lib_dirs(ctx.cuda_home))
    searched = dirs + [d for d in (ctx.env("LIBRARY_PATH") or "").split(os.pathsep) if d] + list(CK.SYSTEM_LIB_DIRS)
    if N.CUDA_LIBS_MISSING in pred.blockers:
        sev, title = Severity.ERROR, "cpu_adam will fail to link: no libcurand.so (`cannot find -lcurand`)"
    elif ctx.gpu_visible:
        sev, title = Severity.WARNING, "libcurand.so not found where cpu_adam's CUDA build links"
    else:
        sev, title = Severity.WARNING, ("no libcurand.so: cpu_adam builds CPU-only here (no visible GPU), but fails to "
                                        "link (`cannot find -lcurand`) wherever a GPU is visible")
    extra = f" Only {versioned} exists (a runtime library: ld needs the linker name libcurand.so)." if versioned else ""
    yield CUDA_LIBS_MISSING.finding(sev, title,
                  f"DeepSpeed {ctx.ds} links cpu_adam with -lcurand -L<CUDA_HOME>/lib64 (or lib) when a GPU is visible."
                  f"{extra}",
                  (Evidence("no libcurand.so in " + ", ".join(dirs) + ", LIBRARY_PATH or the system lib dirs", ctx.cuda_home),),
                  (curand_fix(ctx.torch_cuda, cuda_home=ctx.cuda_home, versioned=versioned, searched=searched, site=ctx.site,
                              python=ctx.python_exe),), S_BUILD)


def _ninja_fixes(ctx: Context, mode: str, hint: str) -> Tuple[Fix, ...]:
    off = ctx.facts.scripts_off_path
    return ninja_fixes(ctx.python_exe, mode == "module", off if off and "is not on PATH: activate" in hint else None)


# ------------------------------------------------------------------------------------------- system

MIN_SHM = 512 * 1024 * 1024  # DeepSpeed's ds_report warns below 512 MB


LIBAIO_MISSING = FindingSpec(
    N.LIBAIO_MISSING,
    E,
    "libaio (async_io, NVMe offload) is missing",
    Docs(
        what="NVMe offload is configured (a ds_config offloading to nvme via `--ds-config`, or `--nvme`) and no "
         "linkable `libaio.so` + `libaio.h` is found.",
        why="async_io (ZeRO-Infinity's NVMe swapping) test-links `io_submit` against -laio: `async_io requires the "
        "dev libaio .so object and headers but these were not found.`",
        fix="Install libaio (`apt-get install libaio-dev`; yum: libaio-devel; pacman: libaio).",
        examples=(
        case("libaio-missing-nvme", "`dsdoctor check --nvme` on a machine without libaio."),
        log(N.LIBAIO_MISSING, "In a log:",
            " [WARNING]  async_io requires the dev libaio .so object and headers but these were not found.\n"
            " [WARNING]  async_io: please install the libaio-dev package with apt\n"
            "RuntimeError: Unable to JIT load the async_io op due to it not being compatible due to "
            "hardware/software issue. None\n"),
    ),
        reads="environment"),
    ("check", "verify", "explain"))


SHM_TOO_SMALL = FindingSpec(
    N.SHM_TOO_SMALL,
    W,
    "/dev/shm is small for multi-process data loading / NCCL",
    Docs(
        what=f"`/dev/shm` is smaller than {MIN_SHM >> 20} MiB (the Docker default is 64 MiB). `explain` reports it when a "
         "DataLoader worker or a rank died of SIGBUS (bus error, exit -7).",
        why="NCCL and DataLoader workers pass data through /dev/shm; DeepSpeed's ds_report warns below 512 MB. "
        "Running out kills the process with SIGBUS.",
        fix="Docker: give the container more shared memory (`docker run --shm-size=16g ...` or `--ipc=host`); or "
        "load data in the main process (`DataLoader(..., num_workers=0)`).",
        examples=(
        RuleExample("facts", "A container whose /dev/shm is 64 MiB (a limit a test cannot change for real: the "
                             "real facts of this machine are collected and /dev/shm's size replaced).",
                    data='{"limits": {"shm_bytes": 67108864}}'),
        log("dataloader-sigbus", "In a log:",
            "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared "
            "memory (shm).\n"
            "RuntimeError: DataLoader worker (pid(s) 13733) exited unexpectedly\n"),
    ),
        reads="environment"),
    ("check", "explain"))


def system(ctx: Context, pred: OpPrediction, intent: Optional[OffloadIntent] = None) -> Iterable[Result]:
    """shm, memlock (pinned offload buffers), libaio (NVMe offload, when configured or asked for)."""
    intent = intent or OffloadIntent()
    lim = ctx.facts.limits
    if lim.shm_bytes is not None and lim.shm_bytes < MIN_SHM:
        yield SHM_TOO_SMALL.finding(Severity.WARNING, f"/dev/shm is {lim.shm_bytes / 2**20:.0f} MiB",
                      None,
                      (Evidence(f"{lim.shm_bytes} bytes", "/dev/shm (statvfs)"),),
                      (shm_fix(),), S_SYS)
    elif lim.shm_bytes is not None:
        yield Passed(S_SYS, f"/dev/shm {lim.shm_bytes / 2**30:.1f} GiB")
    if ctx.ds is not None and intent.offload:  # pinned offload buffers exist only with an offload config
        if lim.memlock_soft is not None and MEMLOCK.too_low(lim.memlock_soft):
            on, why = MEMLOCK.pinned(intent.pin_memory, intent.source, ctx.ds)
            title, explanation, evidence = MEMLOCK.parts(lim.memlock_soft, why)
            # unpinned buffers: an info line here (lint, which points at a config key, says nothing)
            yield Finding(MEMLOCK.RULE.name, Severity.WARNING if on else Severity.INFO, title, explanation, evidence,
                          (memlock_fix(),), S_SYS)
        else:
            yield Passed(S_SYS, "ulimit -l " + ("unlimited" if lim.memlock_soft is None else f"{lim.memlock_soft // 1024} KiB"))
    nvme = intent.nvme
    aio = ctx.facts.libaio
    if nvme and (aio.library is None or aio.header is None):
        yield LIBAIO_MISSING.finding(Severity.ERROR,
                      "libaio is missing: NVMe offload (async_io) cannot build" + (f" ({intent.source} offloads to nvme)" if intent.source else ""),
                      f"`{K.MSG_LIBAIO}` async_io test-links io_submit against -laio.",
                      (Evidence(f"libaio.so: {aio.library or 'not found'}; runtime: {aio.runtime or 'not found'}; "
                                f"libaio.h: {aio.header or 'not found'}", "system library dirs"),),
                      (libaio_fix(),), S_SYS)
    elif nvme:
        yield Passed(S_SYS, "libaio present (NVMe offload)", aio.library or "")


RULES: Tuple[Rule, ...] = (packages, probe_failures, accelerator, cuda, build)

SPECS: Tuple[FindingSpec, ...] = (
    CUDA_VERSION_MISMATCH, CUDA_TOOLKIT_MISSING, NINJA_MISSING, HOST_COMPILER_UNSUPPORTED, PYTHON_HEADERS_MISSING,
    CUDA_LIBS_MISSING, TORCH_EXTENSIONS_LOCK_STALE, PREBUILT_OP_MISMATCH, DS_ACCELERATOR_INVALID, LIBAIO_MISSING,
    SHM_TOO_SMALL, PROBE_FAILED, PACKAGE_MISSING,
)

# check's environment forms of two names lint's rules own (their docs are the rules')
FORMS: Tuple[Form, ...] = (
    Form(N.DS_SKIP_CUDA_CHECK_INEFFECTIVE, "check", (
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
            "and `1` facing torch's own major-version check at install time."),
    Form(N.MEMLOCK_TOO_LOW, "check", (
        case("memlock-low-0.19.5-warning",
             "`dsdoctor check` with `ulimit -l` lowered to 1 MiB on DeepSpeed 0.19.5 (pin_memory defaults to true "
             "from 0.19.5: a warning; info before)."),
    ), note=f"`dsdoctor check` reports the machine's limit (RLIMIT_MEMLOCK below {MEMLOCK.MIN_MEMLOCK >> 20} MiB): only "
            "with a `--ds-config` that offloads (no offload, no pinned offload buffers): a warning when pinned buffers "
            "will be used (the config sets pin_memory, or the default is true from DeepSpeed "
            f"{K.PIN_MEMORY_DEFAULT_TRUE_FROM}), else info."),
)
