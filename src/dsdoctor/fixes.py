"""Fix builders shared by every command, so one problem always gets the same advice."""

from __future__ import annotations

import re
import shlex
from dataclasses import replace
from typing import List, Optional, Sequence, Tuple

from packaging.version import Version

from .knowledge.deepspeed import DEEPSPEED_ENV_FILE, MSG_FORCE_DS_CPU_OPTIMIZER, PEFT_NONREENTRANT_SINCE
from .model import Applicability, Fix


def env_fix(
    name: str,
    value: str,
    title: str,
    applicability: Applicability = "safe",
    reason: str = "",
    launcher: str = "deepspeed train.py ...",
) -> Fix:
    """An environment variable fix in every form a user needs.

    The ``deepspeed`` launcher has no ``--export`` flag and forwards only some prefixes to other nodes,
    so multi-node runs need the ``.deepspeed_env`` line.
    """
    q = shlex.quote(value)
    forms = (
        ("one-off", f"{name}={q} {launcher}"),
        ("shell-rc", f"echo 'export {name}={q}' >> ~/.bashrc"),
        ("in-script", f'import os; os.environ["{name}"] = {value!r}  # first lines of train.py, before DeepSpeed loads the op'),
        ("deepspeed_env", f"echo '{name}={value}' >> ./{DEEPSPEED_ENV_FILE}  # multi-node: read on every node"),
    )
    return Fix(
        title=title,
        applicability=applicability,
        commands=(f"export {name}={q}",),
        reason=reason,
        forms=forms,
    )


def pip_fix(requirement: str, title: str, python: Optional[str] = None, reason: str = "") -> Fix:
    py = shlex.quote(python) if python else "python"
    return Fix(
        title=title,
        applicability="safe",
        commands=(f"{py} -m pip install {shlex.quote(requirement)}",),
        reason=reason,
    )



def cpu_adam_upgrade_fix(python: Optional[str] = None) -> Fix:
    """Upgrade to the first DeepSpeed whose cpu_adam needs no CUDA toolkit (check and explain give this one)."""
    from .knowledge import deepspeed as K

    return pip_fix(f"deepspeed>={K.CPU_ADAM_PLAIN_CPU_FROM}", f"Upgrade DeepSpeed to {K.CPU_ADAM_PLAIN_CPU_FROM}: its "
                   "cpu_adam needs no CUDA toolkit", python)

def command_fix(title: str, *commands: str, applicability: Applicability = "safe", reason: str = "") -> Fix:
    return Fix(title=title, applicability=applicability, commands=tuple(commands), reason=reason)


# ---------------------------------------------------------------------------------------------------
# Fixes for one cause, shared by `check` (which knows the environment) and `explain` (which may only
# know what the log printed): the same builder, so the advice for one cause is identical everywhere.
# ---------------------------------------------------------------------------------------------------


def _mm(t: Tuple[int, int]) -> str:
    return "%d.%d" % t


# PyPI's CUDA >= 13 toolkit wheels that make a usable nvcc in ``<site-packages>/nvidia/cu<major>``:
# nvidia-cuda-nvcc requires nvidia-cuda-crt and nvidia-nvvm unpinned, so pip would pull the newest minor of
# those (a mixed toolkit) unless they are pinned too. [read in nvidia-cuda-nvcc 13.0.88 / 13.5.37 METADATA;
# nvidia-cuda-crt 13.0.88 ships nvidia/cu13/include/crt, nvidia-nvvm 13.0.88 nvidia/cu13/nvvm/bin/cicc]
PIP_TOOLKIT_WHEELS: Tuple[str, ...] = ("nvidia-cuda-nvcc", "nvidia-cuda-crt", "nvidia-nvvm")
PIP_TOOLKIT_SINCE = 13  # CUDA 12's nvidia-cuda-nvcc-cu12 holds no usable nvcc toolchain


def pip_toolkit_home(site: Optional[str], major: int) -> str:
    """Where PyPI's CUDA ``major`` toolkit wheels land: ``<site-packages>/nvidia/cu<major>``."""
    return f"{site or '<site-packages>'}/nvidia/cu{major}"


def toolkit_fixes(want: Tuple[int, int], ds: Optional[Version], python: Optional[str] = None,
                  other_toolkits: Sequence[Tuple[str, Tuple[int, int]]] = (), site: Optional[str] = None) -> List[Fix]:
    """(a) a matching toolkit already on disk (``other_toolkits``: (CUDA_HOME, release)); (d) installing one.
    ``site``: the checked environment's site-packages (where pip puts the toolkit wheels)."""
    from .knowledge import deepspeed as K

    out: List[Fix] = []
    for home, release in other_toolkits:
        if ds is not None and K.cuda_pair_verdict(ds, release, want) != "mismatch":
            out.append(env_fix("CUDA_HOME", home, f"Point CUDA_HOME at the CUDA {_mm(release)} toolkit found at {home}"))
            break
    ver = _mm(want)
    if want[0] >= PIP_TOOLKIT_SINCE:
        pins = " ".join(shlex.quote(f"{w}=={ver}.*") for w in PIP_TOOLKIT_WHEELS)
        home = pip_toolkit_home(site, want[0])
        out.append(command_fix(
            f"Install a CUDA {ver} toolkit (matching torch) from PyPI and point CUDA_HOME at it",
            f"{shlex.quote(python or 'python')} -m pip install {pins}", f"export CUDA_HOME={shlex.quote(home)}",
            reason=f"DeepSpeed runs $CUDA_HOME/bin/nvcc, not the nvcc on PATH: without CUDA_HOME the wheels change "
                   f"nothing. nvcc's crt/nvvm dependencies are pinned to {ver} too (unpinned, pip takes the newest: "
                   "a mixed toolkit)."))
        return out
    cmd = f"conda install -c nvidia 'cuda-nvcc={ver}' 'cuda-libraries-dev={ver}'"
    note = f"or apt install cuda-toolkit-{want[0]}-{want[1]}; then export CUDA_HOME to it"
    out.append(command_fix(f"Install a CUDA {ver} toolkit (matching torch)", cmd, reason=note))
    return out


def cuda_mismatch_fixes(ds: Optional[Version], system: Tuple[int, int], torch_cuda: Tuple[int, int], *,
                        sole_blocker: bool, gpu_visible: bool, python: Optional[str] = None,
                        other_toolkits: Sequence[Tuple[str, Tuple[int, int]]] = (), site: Optional[str] = None) -> List[Fix]:
    """Fixes for a CUDA toolkit / torch CUDA mismatch. ``ds`` None = unknown but the mismatch was fatal
    (a log showed DeepSpeed raising it: 0.12.4-0.19.7 for cpu_adam's JIT, or an install-time build)."""
    from .knowledge import deepspeed as K
    from .knowledge.versions import v

    fixes = toolkit_fixes(torch_cuda, ds, python, other_toolkits, site)
    out: List[Fix] = list(fixes[:-1])
    major_diff = system[0] != torch_cuda[0]
    if sole_blocker and (ds is None or K.skip_cuda_check_supported(ds)):
        cu_sources = ds is not None and K.cpu_adam_compiles_cuda_sources(ds) and gpu_visible
        app: Applicability
        if major_diff and cu_sources:
            app, reason = "unsafe", ("cpu_adam compiles a .cu kernel here (DeepSpeed <= 0.14.2 with a GPU) across CUDA "
                                     "major versions: the kernel and torch's runtime may not load together.")
        elif major_diff and gpu_visible:
            app, reason = "unsafe", ("the toolkit's major version differs from torch's: the op links the other major's "
                                     "libraries (libcurand) when a GPU is visible; fine for CPU-only offload.")
        else:
            app, reason = "safe", ("no CUDA code is compiled or linked for cpu_adam here" if not gpu_visible
                                   else "a minor CUDA difference: the APIs are compatible.")
        out.append(env_fix(K.SKIP_CUDA_CHECK_VAR, "1", "Skip DeepSpeed's CUDA check (exactly the value 1)", app, reason))
    if sole_blocker and (ds is None or (K.cpu_adam_cuda_check(ds) == "fatal" and ds < v(K.CPU_ADAM_PLAIN_CPU_FROM))):
        out.append(pip_fix(f"deepspeed>={K.CPU_ADAM_PLAIN_CPU_FROM}", f"Upgrade DeepSpeed to {K.CPU_ADAM_PLAIN_CPU_FROM}, "
                           "whose cpu_adam is a plain CPU build (when CPU offload's cpu_adam is the only op you need)", python))
    out.extend(fixes[-1:])
    return out


def ninja_fixes(python: Optional[str], module_check: bool, activate_dir: Optional[str] = None) -> Tuple[Fix, ...]:
    """``module_check``: DeepSpeed <= 0.18.2 imports the ninja module (apt's ninja cannot satisfy it)."""
    fixes: List[Fix] = []
    if activate_dir:
        fixes.append(command_fix(f"Activate the environment so {activate_dir} is on PATH",
                                 f"export PATH={shlex.quote(activate_dir)}:$PATH",
                                 reason="or `source <env>/bin/activate` / `conda activate <env>` before launching"))
    fixes.append(pip_fix("ninja", "Install ninja into the training environment", python))
    if not module_check:
        fixes.append(command_fix("Or install the system package", "apt-get install ninja-build"))
    return tuple(fixes)


def stale_lock_fix(lock_path: str) -> Fix:
    return command_fix("Delete the stale lock", f"rm -f {shlex.quote(lock_path)}")


def python_headers_fix(py_version: Optional[Tuple[int, int]]) -> Fix:
    ver = "%d.%d" % py_version if py_version else "3.X"
    return command_fix("Install the Python headers", f"apt-get install python{ver}-dev",
                       reason="conda envs ship them; with pyenv reinstall the version")


def compiler_fix() -> Fix:
    return command_fix("Install a compiler", "apt-get install g++")


def openmp_fix() -> Fix:
    return command_fix("Install OpenMP", "apt-get install libgomp1 libomp-dev")


def gcc_limit_fixes(limit: int) -> Tuple[Fix, ...]:
    return (env_fix("CXX", f"g++-{limit}", f"Build with g++-{limit}"),
            env_fix("NVCC_APPEND_FLAGS", "-allow-unsupported-compiler", "Let nvcc accept this gcc", "unsafe",
                    "an unsupported host compiler may miscompile CUDA code"))


def curand_fix(torch_cuda: Optional[Tuple[int, int]], *, cuda_home: Optional[str] = None,
               versioned: Optional[str] = None, searched: Sequence[str] = (), site: Optional[str] = None,
               python: Optional[str] = None) -> Fix:
    """A linkable ``libcurand.so`` where ``-lcurand`` is searched (DeepSpeed's ``-L$CUDA_HOME/lib64``, or ``lib``;
    ``searched``: every directory the linker looks in).

    A runtime-only copy (``versioned``, e.g. PyPI's ``nvidia-curand`` puts only ``libcurand.so.10`` in
    ``<site>/nvidia/cu13/lib``) gets its linker name beside it, plus LIBRARY_PATH when that directory is not
    searched. Without one: CUDA >= 13 takes ``nvidia-curand`` through ``cuda-toolkit[curand]`` pinned to
    torch's CUDA; older toolkits, NVIDIA's own apt package (NVIDIA's CUDA repository, not Debian's), which
    installs into ``/usr/local/cuda-X.Y``."""
    import os

    ver = "%d.%d" % torch_cuda if torch_cuda else "X.Y"
    cmds: List[str] = []
    if versioned is None and torch_cuda is not None and torch_cuda[0] >= PIP_TOOLKIT_SINCE:
        cmds.append(f"{shlex.quote(python or 'python')} -m pip install {shlex.quote(f'cuda-toolkit[curand]=={ver}.*')}")
        versioned = f"{pip_toolkit_home(site, torch_cuda[0])}/lib/libcurand.so.10"  # nvidia-curand 10.x (CUDA 13)
    if versioned is not None:
        lib_dir = os.path.dirname(versioned)
        cmds.append(f"ln -s {shlex.quote(os.path.basename(versioned))} {shlex.quote(lib_dir + '/libcurand.so')}")
        if lib_dir not in searched:
            cmds.append(f"export LIBRARY_PATH={shlex.quote(lib_dir)}${{LIBRARY_PATH:+:$LIBRARY_PATH}}")
        return command_fix("Give the linker a libcurand.so (the CUDA runtime wheels ship only the versioned library)",
                           *cmds, reason="ld resolves -lcurand only through the unversioned name libcurand.so; "
                           "the built op then loads the same libcurand.so.N torch already uses")
    dash = ver.replace(".", "-")
    return command_fix(f"Install the CUDA {ver} curand development library into the toolkit",
                       f"apt-get install libcurand-dev-{dash}",
                       reason=f"from NVIDIA's CUDA apt repository (not Debian's); it installs into /usr/local/cuda-{ver}"
                       + (f", so CUDA_HOME must be that toolkit (it is {cuda_home} today)" if cuda_home else ""))


def libaio_fix() -> Fix:
    return command_fix("Install libaio", "apt-get install libaio-dev", reason="yum: libaio-devel; pacman: libaio")


def shm_fix() -> Fix:
    return command_fix("Docker: give the container more shared memory", "docker run --shm-size=16g ...  # or --ipc=host")


def memlock_fix() -> Fix:
    """Raise RLIMIT_MEMLOCK for pinned offload buffers (check's and lint's memlock-too-low)."""
    return command_fix("Raise the limit", "ulimit -l unlimited  # or memlock in /etc/security/limits.conf; "
                       "docker: --ulimit memlock=-1")


def prebuilt_reinstall_fix(python: Optional[str]) -> Fix:
    return pip_fix("deepspeed", "Reinstall DeepSpeed against this torch (JIT ops, no prebuilt)", python,
                   reason="pip install --force-reinstall --no-cache-dir deepspeed")


def unset_fix(name: str, title: str = "", reason: str = "") -> Fix:
    """Unset an environment variable (``title`` defaults to "Unset NAME")."""
    return command_fix(title or f"Unset {name}", f"unset {name}", reason=reason)


def arch_list_fix(value: Optional[str]) -> Fix:
    """TORCH_CUDA_ARCH_LIST without the arch suffixes DeepSpeed >= 0.19.0's JIT builder cannot parse (9.0a -> 9.0;
    entries that are names are dropped). ``value`` unknown (a log): the shell edit of the variable itself."""
    reason = ("the suffix (arch-specific 'a', family 'f') only enables instructions DeepSpeed's ops do not use; "
              "nvidia-smi --query-gpu=compute_cap --format=csv gives your GPUs' capabilities")
    title = "List the architectures without a letter suffix for DeepSpeed's op builds"
    if value is None:
        return command_fix(title, "export TORCH_CUDA_ARCH_LIST=\"$(echo \"$TORCH_CUDA_ARCH_LIST\" | sed -E "
                           "'s/([0-9])[a-z]+/\\1/g')\"   # 9.0a -> 9.0", reason=reason)
    kept = [re.sub(r"(?<=\d)[a-z]+", "", e) for e in value.replace(";", " ").split() if re.match(r"\d+\.\d+[a-z]*(\+PTX)?$", e)]
    if not kept:  # only names (Hopper, Ampere): the visible GPUs' own capabilities
        return command_fix(title, "export TORCH_CUDA_ARCH_LIST=\"$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader "
                           "| sort -u | paste -sd';')\"", reason=reason)
    return env_fix("TORCH_CUDA_ARCH_LIST", ";".join(dict.fromkeys(kept)), title, reason=reason)


def unset_accelerator_fix() -> Fix:
    return unset_fix("DS_ACCELERATOR", "Unset DS_ACCELERATOR to let DeepSpeed auto-detect")


# ------------------------------------------------------------------------------------------------
# ds_config / script fixes one lint rule gives before a run and explain gives for the same cause in a log


AUTO_WITHOUT_TRAINER_FIX = Fix("write a number, or train through the HF Trainer which fills it", "safe")
NVME_PATH_FIX = Fix('add "nvme_path": "/local_nvme" (a directory on a local NVMe drive)', "safe")
OFFLOAD_CLIENT_OPTIMIZER_FIXES = (
    Fix('add an "optimizer" block (DeepSpeed then uses DeepSpeedCPUAdam)', "safe",
        ('"optimizer": {"type": "AdamW", "params": {"lr": "auto", "weight_decay": "auto"}}',)),
    Fix('or set "zero_force_ds_cpu_optimizer": false (slow: the client optimizer steps on CPU)', "unsafe",
        (MSG_FORCE_DS_CPU_OPTIMIZER,)))
PEFT_REENTRANT_FIX = Fix('gradient_checkpointing_kwargs={"use_reentrant": True}, or DeepSpeed >= ' + PEFT_NONREENTRANT_SINCE,
                         "safe")


def batch_auto_fix() -> Fix:
    """batch-size-mismatch under the HF Trainer: let it fill the batch keys."""
    return Fix('set the batch keys to "auto" so the Trainer fills them', "safe",
               ('"train_batch_size": "auto", "train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto"',))


def bucket_int_fix(key: str, new: str) -> Fix:
    """bucket-size-float: write the size as an integer."""
    return Fix(f"write {new}", "safe", (f'"{key}": {new}',))


# ---------------------------------------------------------------------------------------------------
# Where a fix can apply: the one veto of fixes a platform cannot run (explain reads the platform from the log)
# ---------------------------------------------------------------------------------------------------

# commands that exist only on Linux (a package manager, a shell builtin of POSIX shells, the kernel log)
_POSIX_ONLY = re.compile(r"^\s*(?:sudo\s+)?(?:export|ulimit|source)\s|\bapt(?:-get)?\s+install\b|\b(?:yum|dnf|pacman)\s|\bdmesg\b|~/\.bashrc")
_LINUX_ONLY = re.compile(r"\bapt(?:-get)?\s+install\b|\b(?:yum|dnf|pacman)\s|\bdmesg\b")
_VETO = {"windows": _POSIX_ONLY, "macos": _LINUX_ONLY}


def for_platform(fix: Fix, platform: str) -> Optional[Fix]:
    """``fix`` less the commands ``platform`` cannot run (native Windows has no apt-get, export or ulimit; macOS no
    apt-get or dmesg), or None when none is left. ``platform`` unknown (""): ``fix`` as it is."""
    veto = _VETO.get(platform)
    if veto is None or not fix.commands:
        return fix
    kept = tuple(c for c in fix.commands if not veto.search(c))
    if not kept:
        return None
    return fix if len(kept) == len(fix.commands) else replace(fix, commands=kept)
