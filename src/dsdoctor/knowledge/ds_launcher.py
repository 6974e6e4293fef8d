"""DeepSpeed's launcher: what reaches other nodes (runner prefixes, ``.deepspeed_env``), its flags and
hostfile format and their messages."""

from __future__ import annotations

from typing import Optional, Tuple

from packaging.version import Version

from .versions import v

__all__ = ["export_env_prefixes", "DEEPSPEED_ENV_FILE", "DEEPSPEED_ENV_FILE_VAR", "env_file_parse_error",
    "env_file_quotes_values", "ENV_FILE_SAFE_VALUE", "LAUNCHER_FLAGS_WITH_VALUE", "HOSTFILE_LINE",
    "OTHER_HOSTFILE_LAUNCHERS",
    "MSG_HOSTFILE_DUPLICATE", "MSG_HOSTFILE_BAD", "MSG_HOSTFILE_EMPTY", "MSG_INCLUDE_NUM", "MSG_INCLUDE_EXCLUDE",
    "MSG_NO_EXPORT", "BIND_CORES_FLAG", "NUMACTL", "MSG_NUMACTL_PKG", "MULTINODE_ENV_VARS", "MULTINODE_ENV_PREFIXES",
    "MULTINODE_ENV_ORDER_ONLY", "PICKS_GPUS", "MULTINODE_CACHE_VARS"]

# ---------------------------------------------------------------------------------------------------
# 4. Launcher: what reaches other nodes
# ---------------------------------------------------------------------------------------------------


def export_env_prefixes(ds: Version, accelerator: str) -> Tuple[str, ...]:
    """Variable-name prefixes the multi-node runners forward (plus the lines of ``.deepspeed_env``)."""
    if ds <= v("0.12.5"):
        return ("MLFLOW", "NCCL", "PYTHON", "MV2", "UCX")
    return ("MLFLOW", "PYTHON", "MV2", "UCX") + (("NCCL",) if accelerator == "cuda" else ())


DEEPSPEED_ENV_FILE = ".deepspeed_env"
DEEPSPEED_ENV_FILE_VAR = "DS_ENV_FILE"  # 0.10.1+: the file name; looked for in ~ and in the cwd (later wins)


def env_file_parse_error(line: str) -> Optional[str]:
    """What the runner does with one ``.deepspeed_env`` line (``key, val = var.split('=', maxsplit=1)``, no
    comment or blank-line support, every version 0.9-0.19.8): the exception, or None when it is accepted."""
    if "=" not in line:
        return "ValueError: not enough values to unpack (expected 2, got 1)"
    return None


def env_file_quotes_values(ds: Version) -> bool:
    """From 0.16.5 (PR #7071) a value with characters outside ``[\\w@%+=:,./-]`` is double-quoted when exported;
    before, it is pasted unquoted into the remote ``export K=V;`` (spaces/`;`/`$` break or run on the node)."""
    return ds >= v("0.16.5")


# a value the remote shell reads as written when pasted unquoted: plain characters, or a whole value the writer quoted
# itself (`NCCL_DEBUG=""`, `X='a b'`, `Y="a b"` without `$`, backquote or backslash inside); a leading `~`
# (`SAT_HOME=~/.cache/x`) is expanded by the remote shell to its user's home, which is what such a value means
ENV_FILE_SAFE_VALUE = r"^(?:~?[\w@%+=:,./-]*|'[^']*'|\"[^\"$`\\]*\")$"

# Launcher flags (runner.py parse_args, 0.9.5-0.19.8): there is no --export.
LAUNCHER_FLAGS_WITH_VALUE = ("-H", "--hostfile", "-i", "--include", "-e", "--exclude", "--num_nodes", "--min_elastic_nodes",
                             "--max_elastic_nodes", "--num_gpus", "--num_accelerators", "--master_port",
                             "--master_addr", "--node_rank", "--launcher", "--launcher_args", "--module", "--comment",
                             "--elastic_training_args", "--ssh_port", "--venv_script", "--bind_core_list")
HOSTFILE_LINE = r"^(\S+)\s+slots=(\d+)"
# launchers whose --hostfile / -hostfile has a format of its own (bare host names allowed): ColossalAI's
# `colossalai run`, Open MPI / MPICH, Horovod
OTHER_HOSTFILE_LAUNCHERS = ("colossalai", "mpirun", "mpiexec", "horovodrun")
MSG_HOSTFILE_DUPLICATE = "Hostfile contains multiple entries for {host}, unable to proceed with launching"
MSG_HOSTFILE_BAD = "Hostfile contains a bad entry: {line}, unable to proceed with launching"
MSG_HOSTFILE_EMPTY = "Hostfile is empty or not formatted correctly, unable to proceed with launching."
MSG_INCLUDE_NUM = "Cannot specify num_nodes/gpus with include/exclude"
MSG_INCLUDE_EXCLUDE = "include_str and exclude_str are mutually exclusive."
MSG_NO_EXPORT = "deepspeed: error: unrecognized arguments: --export"

# --bind_cores_to_rank (launcher/launch.py main, 0.9.0-0.19.5): each rank's command starts with `numactl` (from
# utils/numa.py get_numactl_cmd; launch.py itself in 0.9.0-0.9.2), run by subprocess.Popen, which raises
# FileNotFoundError: [Errno 2] No such file or directory: 'numactl' when it is not installed; check_for_numactl_pkg
# prints MSG_NUMACTL_PKG first when the package manager (dpkg / pacman / rpm) does not list it
BIND_CORES_FLAG = "--bind_cores_to_rank"
NUMACTL = "numactl"
MSG_NUMACTL_PKG = "please install the {lib} package with {tool}"

# Variables a multi-node run commonly needs on every node that no runner prefix covers (see export_env_prefixes).
MULTINODE_ENV_VARS = ("DS_SKIP_CUDA_CHECK", "CUDA_HOME", "CUDA_PATH", "TORCH_EXTENSIONS_DIR", "LD_LIBRARY_PATH",
                      "DS_ACCELERATOR", "TORCH_CUDA_ARCH_LIST", "HF_HOME", "HF_TOKEN", "TRANSFORMERS_CACHE",
                      "DS_BUILD_OPS", "CXX", "CC", "MAX_JOBS",
                      "WANDB_API_KEY", "WANDB_PROJECT")
MULTINODE_ENV_PREFIXES = ("DS_", "TORCH_", "CUDA_", "HF_", "TRANSFORMERS_", "LD_")
# ... except those that change nothing another node needs: CUDA_DEVICE_ORDER only renumbers the GPUs, which matters
# only where the script also picks GPUs by number (CUDA_VISIBLE_DEVICES, the launcher's --include / --exclude)
MULTINODE_ENV_ORDER_ONLY = ("CUDA_DEVICE_ORDER",)
PICKS_GPUS = ("CUDA_VISIBLE_DEVICES", "--include", "--exclude", "-i", "-e")
# the Hub cache location: moot where the launch gives the script its own --cache_dir (the HF scripts' model_args)
MULTINODE_CACHE_VARS = ("HF_HOME", "TRANSFORMERS_CACHE", "HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE")
