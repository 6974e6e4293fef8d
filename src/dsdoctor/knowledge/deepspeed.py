"""Version-ranged facts about DeepSpeed. No I/O: probes read the world, checks decide with these.

Every fact names the DeepSpeed versions where it holds (see ``docs/knowledge.md`` and the oracle tests
in ``tests/oracle`` which compare these tables with the real released sources and behaviour).
"""

from __future__ import annotations

from typing import Dict, Literal, NamedTuple, Optional, Tuple

from packaging.version import Version

from .versions import Span, lookup, v

# The newest DeepSpeed release whose sources these facts were read from: what lint and estimate assume when no
# version is given or installed.
LATEST_KNOWN = "0.19.8"

# ---------------------------------------------------------------------------------------------------
# 1. The CUDA version check (op_builder/builder.py: installed_cuda_version / assert_no_cuda_mismatch)
# ---------------------------------------------------------------------------------------------------

_K10 = ("10.0", "10.1", "10.2")
_K11 = tuple(f"11.{m}" for m in range(9))
_K12_0_1 = ("12.0", "12.1")
_K12_0_3 = tuple(f"12.{m}" for m in range(4))
_K12_0_5 = tuple(f"12.{m}" for m in range(6))
_K12_0_6 = tuple(f"12.{m}" for m in range(7))

CUDA_MINOR_MISMATCH_OK: Tuple[Span[Dict[int, Tuple[str, ...]]], ...] = (
    Span("0.8.0", "0.9.2", {10: _K10, 11: _K11}),
    Span("0.9.3", "0.12.0", {10: _K10, 11: _K11, 12: _K12_0_1}),
    Span("0.12.1", "0.14.2", {10: _K10, 11: _K11, 12: _K12_0_3}),
    Span("0.14.3", "0.15.2", {10: _K10, 11: _K11, 12: _K12_0_5}),
    Span("0.15.3", "0.16.3", {10: _K10, 11: _K11, 12: _K12_0_6}),
    Span("0.16.4", "0.17.1", {10: _K10, 11: _K11, 12: _K12_0_6 + ("12.8",)}),
    Span("0.17.2", None, {10: _K10, 11: _K11, 12: _K12_0_6 + ("12.8", "12.9")}),
)


def cuda_minor_mismatch_ok(ds: Version) -> Dict[int, Tuple[str, ...]]:
    """DeepSpeed's ``cuda_minor_mismatch_ok`` dict for this version (no key 13 in any version)."""
    return lookup(CUDA_MINOR_MISMATCH_OK, ds, {})


PairVerdict = Literal["equal", "compatible", "mismatch"]


def cuda_pair_verdict(ds: Version, system: Tuple[int, int], torch_cuda: Tuple[int, int]) -> PairVerdict:
    """What ``assert_no_cuda_mismatch`` decides for nvcc ``system`` vs ``torch.version.cuda``,
    before ``DS_SKIP_CUDA_CHECK`` is consulted."""
    sys_s = f"{system[0]}.{system[1]}"
    torch_s = f"{torch_cuda[0]}.{torch_cuda[1]}"
    if sys_s == torch_s:
        return "equal"
    table = cuda_minor_mismatch_ok(ds)
    ok = table.get(system[0], ())
    if sys_s in ok and torch_s in ok:
        return "compatible"
    return "mismatch"


SKIP_CUDA_CHECK_VAR = "DS_SKIP_CUDA_CHECK"
SKIP_CUDA_CHECK_SINCE = "0.9.3"


def skip_cuda_check_supported(ds: Version) -> bool:
    """``DS_SKIP_CUDA_CHECK`` exists from 0.9.3 (PR #3436)."""
    return ds >= v(SKIP_CUDA_CHECK_SINCE)


def skip_cuda_check_active(ds: Version, value: Optional[str]) -> bool:
    """Only the exact string ``1`` counts (``os.getenv(..., "0") == "1"``)."""
    return skip_cuda_check_supported(ds) and value == "1"


# How a CUDA mismatch (or a failure to read the toolkit) affects cpu_adam's JIT build on the CUDA
# accelerator, via TorchCPUOpBuilder.cxx_args() -> is_cuda_enable()/get_cuda_compile_flag().
CheckMode = Literal["fatal", "swallowed", "not-checked"]
CPU_ADAM_CUDA_CHECK: Tuple[Span[CheckMode], ...] = (
    Span(None, "0.9.0", "fatal"),  # jit_load called the check without a try
    Span("0.9.1", "0.12.1", "swallowed"),  # except BaseException -> -D__DISABLE_CUDA__, CPU-only build
    Span("0.12.2", "0.12.2", "fatal"),  # jit_load calls the check with its try commented out
    Span("0.12.3", "0.12.3", "swallowed"),
    Span("0.12.4", "0.19.7", "fatal"),  # only MissingCUDAException is caught
    Span("0.19.8", None, "not-checked"),  # cpu_adam is a plain CPU build on every accelerator
)


# the first release whose cpu_adam needs no CUDA toolkit at all (the table's open-ended "not-checked" span)
CPU_ADAM_PLAIN_CPU_FROM: str = next(s.lo for s in CPU_ADAM_CUDA_CHECK if s.value == "not-checked" and s.hi is None and s.lo)


def cpu_adam_cuda_check(ds: Version) -> CheckMode:
    return lookup(CPU_ADAM_CUDA_CHECK, ds, "not-checked")


def install_build_mismatch_fatal(ds: Version) -> bool:
    """At install time (``DS_BUILD_OPS=1``/``DS_BUILD_<OP>=1``), a mismatch fails pip from 0.12.4
    (CUDAMismatchException propagates); earlier any exception fell back to a CPU build."""
    return ds >= v("0.12.4")


def jit_check_uncaught(ds: Version) -> bool:
    """0.12.2 only: ``jit_load`` calls ``assert_no_cuda_mismatch`` with its try/except commented out and
    then sets ``build_for_cpu = False`` whether or not a GPU is visible (0.12.3 restored
    ``build_for_cpu = not torch.cuda.is_available()`` and dropped the call)."""
    return ds == v("0.12.2")


def missing_cuda_home_caught(ds: Version) -> bool:
    """Does cpu_adam's JIT survive a missing CUDA_HOME (building CPU-only)? Yes from 0.9.1 (BaseException
    up to 0.12.3, MissingCUDAException after), except 0.12.2 (see jit_check_uncaught)."""
    return ds >= v("0.9.1") and not jit_check_uncaught(ds)


def missing_nvcc_caught(ds: Version) -> bool:
    """CUDA_HOME set but no ``bin/nvcc``: a raw FileNotFoundError up to 0.19.4 (fatal from 0.12.4,
    where only MissingCUDAException is caught); a MissingCUDAException from 0.19.5 (PR #8216)."""
    return (ds <= v("0.12.3") and not jit_check_uncaught(ds)) or ds >= v("0.19.5")


def cuda_check_needs_gpu(ds: Version) -> bool:
    """0.8.1-0.9.0: ``installed_cuda_version()`` returns (0, 0) when ``torch.cuda.is_available()`` is False,
    so without a GPU nothing about the toolkit is read or checked (jit_load then builds for CPU)."""
    return v("0.8.1") <= ds <= v("0.9.0")


def gpu_build_reads_toolkit_uncaught(ds: Version) -> bool:
    """From 0.12.3, with a GPU visible (``build_for_cpu`` False), cpu_adam's ``nvcc_args()`` reads the toolkit and
    nothing catches what that raises (MissingCUDAException)."""
    return ds >= v("0.12.3")


def failed_nvcc_caught(ds: Version) -> bool:
    """A nvcc that exists but cannot be run or exits non-zero (OSError / CalledProcessError): from 0.19.5
    (PR #8216) a MissingCUDAException that cpu_adam's compile-flag probe catches; before, it propagates
    (fatal from 0.12.4). An unparseable output (ValueError) or a hang is never caught."""
    return (ds <= v("0.12.3") and not jit_check_uncaught(ds)) or ds >= v("0.19.5")


def missing_nvcc_message(ds: Version, nvcc: str) -> str:
    if ds >= v("0.19.5"):
        return f"MissingCUDAException: Unable to run {nvcc}, unable to compile CUDA op(s)"
    return f"FileNotFoundError: [Errno 2] No such file or directory: '{nvcc}'"


# ---------------------------------------------------------------------------------------------------
# 2. cpu_adam: which builder, what a JIT build needs
# ---------------------------------------------------------------------------------------------------

Builder = Literal["cuda-torchcpu", "cpu", "not-implemented"]


def cpu_adam_builder(ds: Version, accelerator: str) -> Builder:
    """Which class builds cpu_adam. ``cuda-torchcpu`` is TorchCPUOpBuilder(CUDAOpBuilder): it needs
    CUDA_HOME/nvcc for its flags, runs the CUDA check and links libcurand when a GPU is visible."""
    if accelerator == "cpu":
        return "not-implemented" if ds < v("0.10.1") else "cpu"
    if accelerator == "cuda":
        return "cpu" if ds >= v("0.19.8") else "cuda-torchcpu"
    return "cpu"


def cpu_adam_compiles_cuda_sources(ds: Version) -> bool:
    """cpu_adam had ``csrc/common/custom_cuda_kernel.cu`` (needs nvcc + a supported host gcc) up to
    0.14.2 (removed by PR #5409)."""
    return ds <= v("0.14.2")


NinjaDetection = Literal["module", "executable"]


def ninja_detection(ds: Version) -> NinjaDetection:
    """<= 0.18.2: ``import ninja`` (the Python package); 0.18.3+: ``ninja --version`` (PR #7687)."""
    return "module" if ds <= v("0.18.2") else "executable"


def load_verbose_default(ds: Version) -> bool:
    """``load(verbose=...)`` defaults to True up to 0.17.5 (prints build progress), False from 0.17.6."""
    return ds <= v("0.17.5")


PIN_MEMORY_DEFAULT_TRUE_FROM = "0.19.5"  # PR #8207


def pin_memory_default(ds: Version) -> bool:
    """offload_* ``pin_memory`` defaults to True from 0.19.5 (PR #8207)."""
    return ds >= v(PIN_MEMORY_DEFAULT_TRUE_FROM)


def import_fails_without_toolkit(ds: Version) -> bool:
    """0.14.1-0.19.4 run CUDA op compatibility probes at ``import deepspeed``: on a GPU box with no
    CUDA_HOME the import itself raises MissingCUDAException."""
    return v("0.14.1") <= ds <= v("0.19.4")


# ---------------------------------------------------------------------------------------------------
# 3. Accelerator selection
# ---------------------------------------------------------------------------------------------------

_ACCEL_LISTS: Tuple[Span[Tuple[str, ...]], ...] = (
    # <= 0.9.2 does not read DS_ACCELERATOR at all (see accelerator_env_read)
    Span("0.9.3", "0.9.5", ("cuda", "cpu", "xpu")),  # an if/elif chain
    Span("0.10.0", "0.10.0", ("cuda", "cpu", "xpu", "mps")),  # the chain plus mps
    Span("0.10.1", "0.12.6", ("cuda", "cpu", "xpu", "npu", "mps")),
    # 0.13.0 not checked (its sdist does not build metadata); 0.13.1 has the list below
    Span("0.13.0", "0.15.1", ("cuda", "cpu", "xpu", "xpu.external", "npu", "mps", "hpu")),
    Span("0.15.2", "0.16.4", ("cuda", "cpu", "xpu", "xpu.external", "npu", "mps", "hpu", "mlu")),
    Span("0.16.5", "0.18.6", ("cuda", "cpu", "xpu", "xpu.external", "npu", "mps", "hpu", "mlu", "sdaa")),
    Span("0.18.7", "0.19.1", ("cuda", "cpu", "xpu", "npu", "mps", "hpu", "mlu", "sdaa")),
    Span("0.19.2", "0.19.7", ("cuda", "cpu", "xpu", "npu", "mps", "hpu", "mlu", "sdaa", "supa")),
    Span("0.19.8", None, ("cuda", "cpu", "xpu", "npu", "mps", "hpu", "mlu", "sdaa", "supa", "klxpu")),
)


def accelerator_env_read(ds: Version) -> bool:
    """``DS_ACCELERATOR`` is read from 0.9.3; 0.9.0-0.9.2 ignore it (intel_extension_for_deepspeed -> xpu,
    else cuda)."""
    return ds >= v("0.9.3")


def supported_accelerators(ds: Version) -> Tuple[str, ...]:
    """Values ``DS_ACCELERATOR`` may take (anything else raises at ``get_accelerator()``); empty where
    the variable is not read at all (<= 0.9.2)."""
    return lookup(_ACCEL_LISTS, ds, ())


def cpu_fallback(ds: Version) -> bool:
    """From 0.14.1 a machine with no visible CUDA GPU auto-selects the CPU accelerator (gloo)."""
    return ds >= v("0.14.1")


# fp16 on the CPU accelerator: up to 0.16.7 ``CPU_Accelerator.is_fp16_supported()`` returns False; from 0.16.8
# (PR #7207) it returns ``torch.ops.mkldnn._is_mkldnn_fp16_supported()`` (oneDNN's f16 support), and the engine
# raises MSG_FP16_UNSUPPORTED when it is False. The x86 /proc/cpuinfo flags that give oneDNN f16 (this
# project's oracle machine has avx512_fp16 and the call returns True there); AVX-NE-CONVERT cores
# (``avx_ne_convert``) may qualify too, so without the flags below the answer stays unknown on such a CPU.
CPU_FP16_FLAGS = ("avx512_fp16", "amx_fp16")
CPU_FP16_MAYBE_FLAGS = ("avx_ne_convert",)


def cpu_fp16_asks_cpu(ds: Version) -> bool:
    """Does the CPU accelerator's fp16 support depend on the CPU (>= 0.16.8), rather than always being off?"""
    return ds >= v("0.16.8")


def cpu_accelerator_needs_ipex(ds: Version) -> bool:
    """Up to 0.14.0 ``DS_ACCELERATOR=cpu`` requires intel_extension_for_pytorch."""
    return ds <= v("0.14.0")


def ipex_selects_cpu(ds: Version) -> bool:
    """0.9.3-0.16.1 auto-detection: an importable IPEX (without XPU support) selects the CPU accelerator,
    even on a CUDA box. From 0.16.2 IPEX only selects xpu; 0.9.0-0.9.2 never look at IPEX."""
    return v("0.9.3") <= ds <= v("0.16.1")


def ipex_deepspeed_selects_xpu(ds: Version) -> bool:
    """An importable intel_extension_for_deepspeed selects an XPU accelerator up to 0.18.6;
    0.18.7+ detects XPU through torch only."""
    return ds <= v("0.18.6")


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


ENV_FILE_SAFE_VALUE = r"^[\w@%+=:,./-]*$"

# Launcher flags (runner.py parse_args, 0.9.5-0.19.8): there is no --export.
LAUNCHER_FLAGS_WITH_VALUE = ("-H", "--hostfile", "-i", "--include", "-e", "--exclude", "--num_nodes", "--min_elastic_nodes",
                             "--max_elastic_nodes", "--num_gpus", "--num_accelerators", "--master_port",
                             "--master_addr", "--node_rank", "--launcher", "--launcher_args", "--module", "--comment",
                             "--elastic_training_args", "--ssh_port", "--venv_script", "--bind_core_list")
HOSTFILE_LINE = r"^(\S+)\s+slots=(\d+)"
MSG_HOSTFILE_DUPLICATE = "Hostfile contains multiple entries for {host}, unable to proceed with launching"
MSG_HOSTFILE_BAD = "Hostfile contains a bad entry: {line}, unable to proceed with launching"
MSG_HOSTFILE_EMPTY = "Hostfile is empty or not formatted correctly, unable to proceed with launching."
MSG_INCLUDE_NUM = "Cannot specify num_nodes/gpus with include/exclude"
MSG_INCLUDE_EXCLUDE = "include_str and exclude_str are mutually exclusive."
MSG_NO_EXPORT = "deepspeed: error: unrecognized arguments: --export"

# Variables a multi-node run commonly needs on every node that no runner prefix covers (see export_env_prefixes).
MULTINODE_ENV_VARS = ("DS_SKIP_CUDA_CHECK", "CUDA_HOME", "CUDA_PATH", "TORCH_EXTENSIONS_DIR", "LD_LIBRARY_PATH",
                      "DS_ACCELERATOR", "TORCH_CUDA_ARCH_LIST", "HF_HOME", "HF_TOKEN", "TRANSFORMERS_CACHE",
                      "DS_BUILD_OPS", "CXX", "CC", "MAX_JOBS",
                      "WANDB_API_KEY", "WANDB_PROJECT")
MULTINODE_ENV_PREFIXES = ("DS_", "TORCH_", "CUDA_", "HF_", "TRANSFORMERS_", "LD_")

# ---------------------------------------------------------------------------------------------------
# 5. Messages (log signatures; ``explain`` matches these, ``check`` quotes them)
# ---------------------------------------------------------------------------------------------------

MSG_MISMATCH_CORE = "Installed CUDA version {sys} does not match the version torch was compiled with {torch}"
MSG_MISMATCH = (
    ">- DeepSpeed Op Builder: " + MSG_MISMATCH_CORE + ", unable to compile cuda/cpp extensions without a "
    "matching cuda version."
)
MSG_SKIP_WARNING = (
    "DeepSpeed Op Builder: " + MSG_MISMATCH_CORE + ".Detected `DS_SKIP_CUDA_CHECK=1`: Allowing this "
    "combination of CUDA, but it may result in unexpected behavior."
)
MSG_COMPATIBLE = MSG_MISMATCH_CORE + " but since the APIs are compatible, accepting this combination"
MSG_SWALLOWED = "{op} cuda is missing or is incompatible with installed torch, only cpu ops can be compiled!"
MSG_MISSING_CUDA_HOME = "CUDA_HOME does not exist, unable to compile CUDA op(s)"
MSG_NINJA = "Unable to JIT load the {op} op due to ninja not being installed."
MSG_DS_OPT_ADAM = "AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'"
MSG_CPU_ADAM_WRAPPED = "DeepSpeedCPUAdam requires the cpu_adam op, which failed to build/load."
CPU_ADAM_WRAPPED_SINCE = "0.19.8"  # DeepSpeedCPUAdam.__init__ raises MSG_CPU_ADAM_WRAPPED (before: MSG_DS_OPT_ADAM at GC)
MSG_ACCEL_INVALID = 'DS_ACCELERATOR must be one of {allowed}. Value "{value}" is not supported'
MSG_PREBUILT_TORCH = "PyTorch version mismatch! DeepSpeed ops were compiled and installed with a different version"
MSG_PREBUILT_CUDA = "CUDA version mismatch! DeepSpeed ops were compiled and installed with a different version"
MSG_LIBAIO = "async_io requires the dev libaio .so object and headers but these were not found."
MSG_NVCC_UNRUNNABLE = "Unable to run {nvcc}, unable to compile CUDA op(s)"  # 0.19.5+ (PR #8216)
MSG_OP_WRAPPED = "requires the {op} op, which failed to build/load."  # 0.19.8: cpu_adam, cpu_adagrad, cpu_lion
MSG_NOT_COMPATIBLE = "Unable to JIT load the {op} op due to it not being compatible due to hardware/software issue."
MSG_NO_COMPUTE_CAPS = "Unable to load {op} op due to no compute capabilities remaining after filtering"
MSG_FORK_ARCH = "cannot probe CUDA device capabilities in a forked subprocess where CUDA has already been initialized"
# runtime/config.py (same text 0.9.5-0.19.8)
# (the batch assertion is MSG_BATCH and the client-optimizer refusal MSG_CLIENT_OPTIMIZER, in section 6)
MSG_AUTO_COMPARE = "'>' not supported between instances of 'str' and '{other}'"  # a top-level "auto" reached _batch_assertion
MSG_FORCE_DS_CPU_OPTIMIZER = '"zero_force_ds_cpu_optimizer": false'
MSG_INT_FROM_FLOAT = "Input should be a valid integer, got a number with a fractional part"  # pydantic v2 (0.15+)
MSG_NO_SYNC = "no_sync context manager is incompatible with gradient partitioning logic of ZeRO stage {stage}"
# launcher/ and comm/
MSG_LAUNCH_EXIT = "{cmd} exits with return code = {rc}"  # launcher/launch.py, logger.error
MSG_SSH_UNREACHABLE = "Using hostfile at {hostfile} but host={host} was not reachable via ssh."
MSG_HOSTFILE_BAD_TEXT = "Bad hostfile text: "  # logger.error before each ValueError below (0.15.4-0.19.8)
MSG_HOSTFILE_ERRORS = ("Hostfile contains multiple entries for {host}, unable to proceed with launching",
                       "Hostfile contains a bad entry: {line}, unable to proceed with launching",
                       "Hostfile is empty or not formatted correctly, unable to proceed with launching.")
MSG_MPI_DISCOVERY_MODULE = "mpi4py"  # init_distributed() without RANK/... imports mpi4py (mpi_discovery)
# comm/comm.py init_distributed (0.8.3-0.19.8)
MSG_MPI_DISCOVERY_INFO = "Not using the DeepSpeed or dist launchers, attempting to detect MPI environment"
MSG_NO_HOSTFILE = "Unable to find hostfile, will proceed with training with local resources only."  # runner.py fetch_hostfile (0.8.3-0.19.8)
MSG_NO_SLOT = "No slot '{slot}' specified on host '{host}'"  # runner.py parse_resource_filter (0.8.3-0.19.8)
# runner.py main turns CUDA_VISIBLE_DEVICES into --include (0.8.3-0.14: "Detected CUDA_VISIBLE_DEVICES=...";
# 0.15+: "Detected VISIBLE_DEVICES=..."), then parse_inclusion_exclusion maps the ids onto the local slots 0..n-1
SRC_PARSE_INCLUSION = "parse_inclusion_exclusion(resource_pool, args.include, args.exclude)"  # runner.py main's call line
# runner.py sigkill_handler uses kill_cmd, assigned only for a multi-node pdsh run (0.8-0.19.8): Python's NameError
# ("free variable 'kill_cmd' referenced before assignment" <= 3.10, "cannot access free variable 'kill_cmd'" 3.11+)
MSG_KILL_CMD = "free variable 'kill_cmd'"

# runtime/engine.py, runtime/zero/ and utils/ (same text 0.8.3-0.19.8 unless noted)
# engine.py _configure_zero_optimizer; accelerate's _prepare_deepspeed asserts the same text
MSG_ZERO_NEEDS_OPTIMIZER = "zero stage {stage} requires an optimizer"
# engine.py _configure_optimizer
MSG_UNTESTED_OPTIMIZER = "You are using an untested ZeRO Optimizer. Please add <\"zero_allow_untested_optimizer\": true>"
ALLOW_UNTESTED_OPTIMIZER = '"zero_allow_untested_optimizer": true'
# engine.py _load_zero_checkpoint
MSG_DP_WORLD_SIZE = "The checkpoint being loaded used a DP world size of {saved} but the current world size is {now}."
MSG_HPZ_GROUP = "ZeRO parameter intra parallel group is already initialized"  # utils/groups.py _create_zero_param_parallel_group (0.10-0.19.8)
MSG_UNIQUE_ITEM = "expected there to be only one unique element in"  # runtime/utils.py get_only_unique_item (ZeRO-3 all_gather_coalesced)
SRC_UNIQUE_DTYPE = "get_only_unique_item(p.dtype"  # partition_parameters.py all_gather_coalesced's source line
MSG_DTYPE_UNSUPPORTED = "Type {dtype} is not supported"  # engine.py _do_sanity_check (<= 0.14: "...supported.", 0.15+: "... on your device.")
MSG_MICRO_BATCH_ZERO = "Micro batch size per gpu: {mb} has to be greater than 0"  # config.py _batch_assertion
# (the f-string prints the enum: "... remote device is OffloadDeviceEnum.nvme" in 0.19.8 on Python 3.11)
MSG_NVME_PATH_NONE = '"nvme_path" in DeepSpeed Config cannot be None if remote device is'  # partition_parameters.py _validate_remote_device
SRC_VALIDATE_REMOTE = "_validate_remote_device(remote_device"  # zero.Init's call line: the traceback went into that assertion
MSG_CONFIG_NOT_FOUND = "Expected a string path to an existing deepspeed config"  # config.py (0.9-0.19.8) and accelerate's HfDeepSpeedConfig
# accelerate HfDeepSpeedConfig.__init__ (0.2x-1.15) tries these on a path that does not exist (a path that exists is json.load-ed)
SRC_CONFIG_NOT_A_FILE = ("base64.urlsafe_b64decode(config_file_or_dict)", "json.loads(config_file_or_dict)")
# ZeRO-3 + CPU offload: unscale_and_clip_grads multiplied the CPU fp32 grads by a GPU norm (0.14.1 PR #5256 /
# 0.14.3 PR #5493); 0.14.5 (PR #5504) moves the norm to the CPU
SRC_UNSCALE_GRADS = "grad.mul_(1. / combined_scale)"  # stage3.py unscale_and_clip_grads
# DeepSpeed's config models (runtime/config_utils.py DeepSpeedConfigModel, extra="forbid") validated by pydantic:
# v1 in DeepSpeed 0.7-0.14 ("extra fields not permitted"), v2 in 0.15-0.19.8 ("Extra inputs are not permitted")
MSG_PYDANTIC_EXTRA_V1 = "extra fields not permitted (type=value_error.extra)"
MSG_PYDANTIC_EXTRA_V2 = "Extra inputs are not permitted [type=extra_forbidden"
MSG_PYDANTIC_INT_STR = "Input should be a valid integer, unable to parse string as an integer"  # v2: a string such as '5e8'
MSG_PYDANTIC_TYPE_V1 = "value is not a valid {type} (type=type_error.{err})"  # v1: a value of the wrong type
UNSCALE_DEVICE_BUG = ("0.14.1", "0.14.4")


def cpu_adam_failure_tail(ds: Version) -> str:
    """The line a user sees last when cpu_adam fails: a pointer, never the cause."""
    return MSG_CPU_ADAM_WRAPPED if ds >= v(CPU_ADAM_WRAPPED_SINCE) else MSG_DS_OPT_ADAM


# ---------------------------------------------------------------------------------------------------
# 7. Memory estimators (runtime/zero/stage3.py estimate_zero3_model_states_mem_needs, stage_1_and_2.py
#    estimate_zero2_model_states_mem_needs). The ``*_all_live``/``*_all_cold`` wrappers print and return
#    None, so dsdoctor reimplements the arithmetic, expression for expression (float order matters for
#    the ``int()`` truncation). Bytes; GPU per device, CPU per node. Model states only: no activations,
#    no CUDA context, no fragmentation. ``tests/oracle/test_estimate_oracle.py`` calls the real functions.
# ---------------------------------------------------------------------------------------------------

ESTIMATOR_BUFFER_FACTOR = 1.5  # additional_buffer_factor default in every version

# ZeRO-2 without offload, GPU bytes: ``4P + int(16P/T)`` up to 0.14.2, ``2P + int(18P/T)`` from 0.14.3
# (PR #5099: 2 = fp16 params; 18 = fp16 grads 2 + fp32 grads 4 + fp32 params 4 + Adam moments 8).
ZERO2_GPU_NO_OFFLOAD: Tuple[Span[Tuple[int, int]], ...] = (
    Span(None, "0.14.2", (4, 16)),
    Span("0.14.3", None, (2, 18)),
)


def zero3_model_states_mem(total_params: int, largest_layer_params: int, num_gpus_per_node: int = 1,
                           num_nodes: int = 1, cpu_offload: bool = True, cpu_offload_params: bool = True,
                           zero_init: bool = True,
                           additional_buffer_factor: float = ESTIMATOR_BUFFER_FACTOR) -> Tuple[int, int, int]:
    """``estimate_zero3_model_states_mem_needs``: ``(cpu_bytes_per_node, gpu_bytes_per_gpu, 4*L)``.
    Same formula in every version with a stage3.py estimator (0.9.x-0.19.8 checked)."""
    total_gpus = num_nodes * num_gpus_per_node
    gpus_factor = 1 / num_nodes
    largest_layer_memory = 4 * largest_layer_params
    cpu_mem: float
    if cpu_offload:
        if cpu_offload_params:
            gpu_mem = largest_layer_memory
            if zero_init:
                cpu_mem = total_params * 18 * gpus_factor * additional_buffer_factor
            else:
                cpu_mem = total_params * max(4 * num_gpus_per_node, 18 * gpus_factor) * additional_buffer_factor
        else:
            gpu_mem = largest_layer_memory + int(2 * total_params / total_gpus)
            if zero_init:
                cpu_mem = total_params * 16 * gpus_factor * additional_buffer_factor
            else:
                cpu_mem = total_params * max(4 * num_gpus_per_node, 16 * gpus_factor) * additional_buffer_factor
    else:
        gpu_mem = largest_layer_memory + int(18 * total_params / total_gpus)
        if zero_init:
            cpu_mem = largest_layer_params * 4 * num_gpus_per_node * additional_buffer_factor
        else:
            cpu_mem = total_params * 4 * num_gpus_per_node * additional_buffer_factor
    return int(cpu_mem), int(gpu_mem), largest_layer_memory


def zero2_model_states_mem(ds: Version, total_params: int, num_gpus_per_node: int = 1, num_nodes: int = 1,
                           cpu_offload: bool = True,
                           additional_buffer_factor: float = ESTIMATOR_BUFFER_FACTOR) -> Tuple[int, int]:
    """``estimate_zero2_model_states_mem_needs`` of DeepSpeed ``ds``: ``(cpu_bytes_per_node, gpu_bytes_per_gpu)``."""
    total_gpus = num_nodes * num_gpus_per_node
    cpu_mem: float
    if cpu_offload:
        gpu_mem = 2 * total_params
        cpu_mem = total_params * max(4 * total_gpus, 16) * additional_buffer_factor
    else:
        fixed, sharded = lookup(ZERO2_GPU_NO_OFFLOAD, ds, (2, 18))
        gpu_mem = fixed * total_params + int(sharded * total_params / total_gpus)
        cpu_mem = total_params * 4 * num_gpus_per_node * additional_buffer_factor
    return int(cpu_mem), int(gpu_mem)


# Beyond model states (dsdoctor's own additions, not DeepSpeed's): a CUDA context with torch's kernels
# loaded takes ~0.5-1 GiB per process; the allocator fragments. Values are deliberately round.
CUDA_CONTEXT_BYTES = 1 << 30

# ZeRO-3 runtime buffers beyond model states, DeepSpeed defaults (runtime/zero/config.py and stage3.py of
# 0.19.8): ``reduce_bucket_size`` 5e8 elements -> stage3.py allocates one gradient bucket of that many
# elements in the gradient dtype on the device when ``contiguous_gradients`` (default true);
# ``stage3_max_live_parameters`` / ``stage3_max_reuse_distance`` 1e9 -> after the first step's trace,
# gathered parameters reused within 1e9 elements are not released, so up to min(P, 1e9) 16-bit
# parameters stay gathered per device. bench/estimate_accuracy.py measured both (docs/estimate.md).
STAGE3_REDUCE_BUCKET_SIZE = int(5e8)
STAGE3_MAX_LIVE_PARAMETERS = int(1e9)

# Per-process runtime (host RAM) of a DeepSpeed training rank beyond its imports and process group: what
# ``deepspeed.initialize`` and the first step add when the model is near-empty. Measured with
# bench/ds_runtime_rss.py (torch 2.14.1, DeepSpeed 0.19.8, Transformers 5.24.0, CPU accelerator + gloo,
# ZeRO-3 offload_optimizer/offload_param=cpu, 1 and 2 ranks identical to 1 MiB; /proc/self/smaps per
# mapping): a 2-layer hidden-64 Llama adds ~94 MiB per rank = torch kernel code pages faulted in
# (libtorch_cpu.so/libtorch_python.so, file-backed) ~30 MiB + anonymous memory ~32 MiB (one ~26 MiB
# region touched during ``initialize``) + Python heap ~32 MiB (DeepSpeed's engine/optimizer objects and
# modules ~16 MiB at ``initialize``, ~14 MiB in step 0); the cpu_adam library itself is 0.3 MiB resident.
# The shm_comm workspace (csrc/cpu/comm/shm.cpp, 2·1 MiB + 2·32 MiB per rank in /dev/shm) is created by
# ``init_distributed`` and is only touched by ``inference_all_reduce``, which ZeRO-3 training does not call
# (RssShmem +0). Minus that model's own ~5 MiB of states and activations, rounded: 90 MiB per rank.
CPU_RUNTIME_BYTES_PER_RANK = 90 << 20

# ---------------------------------------------------------------------------------------------------
# 6. Config schema (ds_config): keys per version, deprecated / removed keys, defaults
#    Pydantic-validated blocks reject unknown keys (extra="forbid"); the top level ignores them.
#    Field sets read from the real models (0.15.4 / 0.19.7 / 0.19.8: tests/oracle/test_lint_oracle.py) and
#    from the class bodies of every sdist in .cache/oracle/sdist; ``since`` is the first sampled release
#    that has the key (the previous sample lacks it), ``until`` the last one.
# ---------------------------------------------------------------------------------------------------


class ConfigKey(NamedTuple):
    name: str
    since: Optional[str] = None
    until: Optional[str] = None
    alias_of: Optional[str] = None  # the pydantic field this alias (``stage3_*``) fills
    deprecated_to: Optional[str] = None  # "Config parameter X is deprecated use Y instead"


def _keys(*names: str, since: Optional[str] = None, until: Optional[str] = None) -> Tuple[ConfigKey, ...]:
    return tuple(ConfigKey(n, since, until) for n in names)


def _s3(name: str, since: Optional[str] = None) -> Tuple[ConfigKey, ...]:
    return (ConfigKey(name, since), ConfigKey("stage3_" + name, since, alias_of=name))


ZERO_KEYS: Tuple[ConfigKey, ...] = (
    *_keys("stage", "contiguous_gradients", "reduce_scatter", "reduce_bucket_size", "allgather_partitions",
           "allgather_bucket_size", "overlap_comm", "load_from_fp32_weights", "elastic_checkpoint", "offload_param",
           "offload_optimizer", "sub_group_size", "ignore_unused_parameters", "legacy_stage1",
           "round_robin_gradients", "memory_efficient_linear"),
    ConfigKey("cpu_offload", deprecated_to="offload_optimizer"),
    ConfigKey("cpu_offload_param", deprecated_to="offload_param"),
    ConfigKey("cpu_offload_use_pin_memory", deprecated_to="offload_param or offload_optimizer"),
    ConfigKey("stage3_gather_fp16_weights_on_model_save", deprecated_to="gather_16bit_weights_on_model_save"),
    *_s3("prefetch_bucket_size"), *_s3("param_persistence_threshold"), *_s3("model_persistence_threshold"),
    *_s3("max_live_parameters"), *_s3("max_reuse_distance"), *_s3("gather_16bit_weights_on_model_save"),
    *_keys("mics_shard_size", "mics_hierarchical_params_gather", until="0.19.5"),
    *_keys("override_module_apply", "pipeline_loading_checkpoint", "zero_hpz_partition_size", "zero_quantized_gradients",
           "zero_quantized_nontrainable_weights", "zero_quantized_weights", since="0.12.0"),
    *_keys("use_multi_rank_bucket_allreduce", since="0.12.4"),
    *_s3("use_all_reduce_for_fetch_params", since="0.14.3"),
    *_s3("module_granularity_threshold", since="0.16.3"),
    *_keys("zeropp_loco_param", since="0.16.3", until="0.19.7"),
    *_keys("log_trace_cache_warnings", since="0.16.4"),
    *_keys("enable_sanity_checks", "leaf_module", "zenflow", since="0.18.2"),
    *_keys("save_muon_momentum_buffer_in_memory", since="0.19.4"), *_s3("allgather_sequential", since="0.19.4"),
    *_keys("compute_grad_norm", "parameter_alignment", since="0.19.7"),
)
OFFLOAD_PARAM_KEYS: Tuple[ConfigKey, ...] = _keys("device", "nvme_path", "buffer_count", "buffer_size", "max_in_cpu",
                                                   "pin_memory")
OFFLOAD_OPTIMIZER_KEYS: Tuple[ConfigKey, ...] = (
    *_keys("device", "nvme_path", "buffer_count", "pin_memory", "pipeline_read", "pipeline_write", "fast_init"),
    *_keys("ratio", since="0.12.3"), *_keys("super_offload", "cpuadam_cores_perc", since="0.18.2"),
)
# fp16 / bf16 became pydantic models (unknown keys rejected) in 0.17.1; before, unknown keys were ignored
PRECISION_MODELS_SINCE = "0.17.1"
FP16_KEYS: Tuple[ConfigKey, ...] = _keys("enabled", "auto_cast", "loss_scale", "initial_scale_power", "loss_scale_window",
                                         "hysteresis", "consecutive_hysteresis", "min_loss_scale",
                                         "fp16_master_weights_and_grads")
BF16_KEYS: Tuple[ConfigKey, ...] = (*_keys("enabled", "immediate_grad_update", "check_grad_overflow"),
                                    *_keys("bf16_master_weights_and_grads", "bf16_optimizer_states", since="0.18.3"))

# Blocks validated by a pydantic model (extra="forbid"): an unknown key there is a ValidationError.
VALIDATED_BLOCKS: Dict[Tuple[str, ...], Tuple[Tuple[ConfigKey, ...], Optional[str]]] = {
    ("zero_optimization",): (ZERO_KEYS, None),
    ("zero_optimization", "offload_param"): (OFFLOAD_PARAM_KEYS, None),
    ("zero_optimization", "offload_optimizer"): (OFFLOAD_OPTIMIZER_KEYS, None),
    ("fp16",): (FP16_KEYS, PRECISION_MODELS_SINCE),
    ("bf16",): (BF16_KEYS, PRECISION_MODELS_SINCE),
}

# Top-level keys DeepSpeedConfig reads (recorded with a key-tracking dict on 0.15.4 / 0.19.7 / 0.19.8, plus
# keys read only conditionally). Anything else at the top level is silently ignored.
TOP_LEVEL_KEYS: Tuple[str, ...] = (
    "activation_checkpointing", "aio", "amp", "autotuning", "bf16", "bfloat16", "checkpoint", "comet", "comms_logger",
    "communication_data_type", "compile", "compression_training", "csv_monitor", "curriculum_learning",
    "data_efficiency", "data_types", "dataloader_drop_last", "datastates_ckpt", "disable_allgather",
    "disable_python_gc", "dump_state", "eigenvalue", "elasticity", "expert_parallel", "flops_profiler", "fp16",
    "gradient_accumulation_steps", "gradient_allreduce_op", "gradient_clipping", "gradient_predivide_factor",
    "graph_harvesting", "hybrid_engine", "log_level", "managed_gradient_accumulation", "memory_breakdown", "nebula",
    "optimizer", "pipeline", "prescale_gradients", "progressive_layer_drop", "quantize_training", "scheduler",
    "seq_parallel_comm_data_type", "seq_parallel_communication_data_type", "sequence_parallel_size",
    "sparse_attention", "sparse_gradients", "steps_per_print", "tensor_parallel", "tensorboard", "timers",
    "torch_autocast", "train_batch_size", "train_micro_batch_size_per_gpu", "use_data_before_expert_parallelism",
    "vocabulary_size", "wall_clock_breakdown", "wandb", "weight_quantization", "zero_allow_untested_optimizer",
    "zero_force_ds_cpu_optimizer", "zero_optimization",
)

# DeepSpeedConfig raises DeepSpeedConfigError for these (``_reject_removed_config_keys``): 0.19.7 and 0.19.8
# lists (tests/oracle compares them with the real dicts).
REMOVED_TOP_LEVEL: Tuple[Span[Tuple[str, ...]], ...] = (
    Span("0.19.7", "0.19.7", ("compression_training", "nebula", "quantize_training", "sparse_attention")),
    Span("0.19.8", None, ("amp", "compression_training", "curriculum_learning", "eigenvalue", "elasticity",
                          "graph_harvesting", "nebula", "progressive_layer_drop", "quantize_training",
                          "sparse_attention", "sparse_gradients")),
)
REMOVED_ZERO: Tuple[Span[Tuple[str, ...]], ...] = (
    Span("0.19.7", "0.19.7", ("mics_hierarchical_params_gather", "mics_shard_size")),
    Span("0.19.8", None, ("mics_hierarchical_params_gather", "mics_shard_size", "zeropp_loco_param")),
)


def config_keys_for(keys: Tuple[ConfigKey, ...], ds: Version) -> Dict[str, ConfigKey]:
    """The keys of a validated block that ``ds`` accepts (names and aliases)."""
    return {k.name: k for k in keys if (k.since is None or ds >= v(k.since)) and (k.until is None or ds <= v(k.until))}


def block_validated(path: Tuple[str, ...], ds: Version) -> bool:
    spec = VALIDATED_BLOCKS.get(path)
    return spec is not None and (spec[1] is None or ds >= v(spec[1]))


def removed_top_level(ds: Version) -> Tuple[str, ...]:
    return lookup(REMOVED_TOP_LEVEL, ds, ())


def removed_zero(ds: Version) -> Tuple[str, ...]:
    return lookup(REMOVED_ZERO, ds, ())


OFFLOAD_DEVICES = ("none", "cpu", "nvme")
ZERO_STAGES = (0, 1, 2, 3)
# Integer fields (pydantic int): a fractional float is rejected from 0.15 (pydantic v2, int_from_float);
# pydantic v1 (<= 0.14) truncated it silently.
ZERO_INT_FIELDS = ("reduce_bucket_size", "allgather_bucket_size", "sub_group_size", "prefetch_bucket_size",
                   "param_persistence_threshold", "model_persistence_threshold", "max_live_parameters",
                   "max_reuse_distance", "module_granularity_threshold", "zero_hpz_partition_size")
PYDANTIC_V2_SINCE = "0.15.0"
# fp16 integer fields: DeepSpeedFP16Config (precision_config.py, pydantic, from PRECISION_MODELS_SINCE) types
# min_loss_scale as int, so a fractional value (1e-4) is rejected; before, DeepSpeed passed it on as given.
FP16_MIN_LOSS_SCALE = "min_loss_scale"
# communication_data_type (and seq_parallel_communication_data_type): get_communication_data_type lowercases the
# value and accepts these; the bfloat16 spelling changed from "bfp16" to "bf16" in 0.14.1.
COMM_DATA_TYPE_KEYS = ("communication_data_type", "seq_parallel_communication_data_type")
_COMM_DATA_TYPES: Tuple[Span[Tuple[str, ...]], ...] = (
    Span(None, "0.14.0", ("fp16", "bfp16", "fp32")),
    Span("0.14.1", None, ("fp16", "bf16", "fp32")),
)
MSG_COMM_DATA_TYPE = "Invalid communication_data_type. Supported data types: {types}. Got: {val}"
# gradient_clipping when the config does not set it (constants.py GRADIENT_CLIPPING_DEFAULT; #8068 in 0.19.3).
_GRADIENT_CLIPPING_DEFAULT: Tuple[Span[float], ...] = (Span(None, "0.19.2", 0.0), Span("0.19.3", None, 1.0))


def comm_data_types(ds: Version) -> Tuple[str, ...]:
    """The values get_communication_data_type accepts (lowercased) in ``ds``."""
    return lookup(_COMM_DATA_TYPES, ds, ())


def gradient_clipping_default(ds: Version) -> float:
    """DeepSpeed's gradient_clipping when the config leaves it out (0.0 = no clipping)."""
    return lookup(_GRADIENT_CLIPPING_DEFAULT, ds, 0.0)

MSG_DUPLICATE_KEYS = "Duplicate keys in DeepSpeed config: {keys}"
MSG_BATCH = ("Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step "
             "* world_size {tb} != {mb} * {ga} * {ws}")
MSG_BATCH_CUT = MSG_BATCH.split(" equal")[0]  # the assertion as a narrow terminal wraps it
MSG_BATCH_NONE = "Either train_batch_size or train_micro_batch_size_per_gpu needs to be provided"
MSG_FP16_BF16 = "bfloat16 and fp16 modes cannot be simultaneously enabled"
MSG_FP16_UNSUPPORTED = "Type fp16 is not supported on your device."
MSG_PARTIAL_OFFLOAD = "Partial offloading only supported for ZeRO Stage 3."
MSG_CLIENT_OPTIMIZER = ("You are using ZeRO-Offload with a client provided optimizer ({type}) which in most cases will "
                        "yield poor performance. Please either use deepspeed.ops.adam.DeepSpeedCPUAdam or set an optimizer "
                        "in your ds-config (https://www.deepspeed.ai/docs/config-json/#optimizer-parameters). If you "
                        "really want to use a custom optimizer w. ZeRO-Offload and understand the performance impacts you "
                        "can also set <\"zero_force_ds_cpu_optimizer\": false> in your configuration file.")
MSG_SAVE_16BIT = "Did not save the model {path} because stage3_gather_16bit_weights_on_model_save is False"


def batch_sizes(tb: Optional[int], mb: Optional[int], ga: Optional[int], ws: int) -> Tuple[int, int, int]:
    """``_set_batch_related_parameters``: fill the missing batch values like DeepSpeed (integer division).
    Raises ValueError(MSG_BATCH_NONE) when neither train_batch_size nor the micro batch is given."""
    if tb is not None and mb is not None and ga is not None:
        return tb, mb, ga
    if tb is not None and mb is not None:
        return tb, mb, (tb // mb) // ws
    if tb is not None and ga is not None:
        return tb, (tb // ws) // ga, ga
    if mb is not None and ga is not None:
        return mb * ga * ws, mb, ga
    if tb is not None:
        return tb, tb // ws, 1
    if mb is not None:
        return mb * ws, mb, 1
    raise ValueError(MSG_BATCH_NONE)


# ---------------------------------------------------------------------------------------------------
# 8. Install / op-build messages and builder bugs (``explain`` names them; explain/causes/build.py)
#    Read in the DeepSpeed git tags v0.3.1-v0.19.5 and the installed 0.15.4 / 0.19.7 / 0.19.8 (.cache/oracle).
# ---------------------------------------------------------------------------------------------------

# setup.py (0.4.1-0.19.8): `import torch` failed (pip's isolated build env has no torch), then with DS_BUILD_OPS=1
# (the default on Windows, BUILD_OP_PLATFORM) the assert aborts `Getting requirements to build wheel`.
MSG_SETUP_NO_TORCH = "Unable to import torch, pre-compiling ops will be disabled."
MSG_SETUP_PRECOMPILE_NO_TORCH = "Unable to pre-compile ops without torch installed."
MSG_SETUP_PRECOMPILE_OP_NO_TORCH = "Unable to pre-compile {op}, please first install torch"  # DS_BUILD_<OP>=1 alone
# accelerator/real_accelerator.py get_accelerator: no CUDA GPU visible -> the cpu accelerator (0.14.1-0.19.8)
MSG_CPU_FALLBACK = "Setting accelerator to CPU. If you have GPU or other accelerator, we were unable to detect it."
# The cpu accelerator's own ops (op_builder/cpu/, 0.9.3-0.19.8: deepspeed_ccl_comm, deepspeed_shm_comm, ...): a CUDA
# box builds none of them. ccl_comm needs Intel oneCCL (csrc/cpu/comm/ccl.cpp: #include <oneapi/ccl.hpp>).
CCL_HEADER = "oneapi/ccl.hpp"
# ... and the op names only the cpu accelerator has (op_builder/cpu NAME; not_implemented and ccl_comm 0.9.3-0.19.8,
# shm_comm 0.14.2-0.19.8): ds_report rows for them show that get_accelerator() picked cpu
CPU_ACCELERATOR_ONLY_OPS = ("deepspeed_not_implemented", "deepspeed_ccl_comm", "deepspeed_shm_comm")
# op_builder/<cpu|hpu|mlu|npu|xpu>/no_impl.py NotImplementedBuilder.load (0.9.3-0.19.8): the accelerator has no
# builder for the op (e.g. InferenceBuilder for kernel injection on the cpu accelerator)
MSG_OP_NOT_IMPLEMENTED = "This op had not been implemented on {backend} backend."
# op_builder/builder.py hipify_extension (0.6.0-0.19.8): `from torch.utils.hipify import hipify_python`, then
# hipify(..., hipify_extra_files_only=True): a torch without the module / that argument fails here (ROCm builds)
TORCH_HIPIFY_MODULE = "torch.utils.hipify"
MSG_HIPIFY_KWARG = "hipify() got an unexpected keyword argument"
# deepspeed/ops/op_builder is a symlink (git checkout) or a copy made by setup.py: importing deepspeed from a source
# tree where neither exists (a fork checkout, symlinks not materialised) fails in deepspeed/ops/adam/cpu_adam.py.
MSG_NO_OP_BUILDER_MODULE = "No module named 'deepspeed.ops.op_builder'"
# launcher/launch.py sets LOCAL_SIZE (0.10-0.19.8), not torchrun's LOCAL_WORLD_SIZE: a framework reading the latter
# sees 1 local process under the deepspeed launcher.
LAUNCHER_LOCAL_SIZE_VAR = "LOCAL_SIZE"


class BuilderBug(NamedTuple):
    """A DeepSpeed op-builder bug that breaks a build or load, and the release that fixed it."""

    what: str
    versions: str  # the affected releases, as far as read
    fixed: Optional[str]  # the first release with the fix (None: not released as of 0.19.8)
    pr: str  # the DeepSpeed pull request(s) that fixed it


# Keyed by what the log shows (matched in explain/causes/build.py).
BUILDER_BUGS: Dict[str, BuilderBug] = {
    "curand-unlinked": BuilderBug("a prebuilt/JIT op (cpu_adam_op, quantizer, transformer_inference) linked without "
                                  "-lcurand: `undefined symbol: curandCreateGenerator` at import",
                                  "transformer_inference JIT < 0.5.10, cpu_adam_op prebuilt < 0.6.2, quantizer < 0.10.0",
                                  "0.10.0", "#1688, #1879, #3846"),
    "rocm-compile-flag-none": BuilderBug("CPUAdamBuilder.get_cuda_compile_flag returns None on ROCm torch: "
                                         "strip_empty_entries raises `object of type 'NoneType' has no len()`",
                                         "0.17.5", "0.17.6", "#7521"),
    "cxx17-with-torch-cxx20": BuilderBug("cxx_args pass -std=c++17 after torch's -std=c++20; torch >= 2.12 headers "
                                         "need C++20", "<= 0.19.4", "0.19.5", "#8238"),
    "evoformer-same-object": BuilderBug("evoformer_attn lists attention.cpp and attention.cu, both compiled to "
                                        "attention.o: `multiple definition of attention_impl`", "<= 0.11.1", "0.11.2", "#4556"),
    "prebuild-objects-missing": BuilderBug("0.13.3's pre-build (DS_BUILD_*=1) links object files the compile step did "
                                           "not write: `ld: cannot find .../build/temp.../*.o`", "0.13.3", "0.13.4", "#5194"),
    "npu-aio-sources": BuilderBug("the NPU AsyncIOBuilder's sources omit deepspeed_py_io_handle.cpp: "
                                  "`async_io.so: undefined symbol: ...deepspeed_io_handle_t...`", "<= 0.18.7", None, "#7894"),
}
# cpu_adam's SIMD flag (builder.py simd_width) was '' on CPUs the 0.3.x builder did not know: gcc reads the empty
# argument as a file ("gcc: error: : No such file or directory"); 0.3.12 (PR #796) returns -D__SCALAR__.
SIMD_EMPTY_FLAG_FIXED = "0.3.12"
# simd_width() picks -D__AVX512__ from the CPU flags (py-cpuinfo / lscpu) while the compile target comes from
# cpu_arch() (-march=native) or the compiler's own default: a compiler (wrapper) targeting x86-64-v3 cannot compile
# the AVX-512 path of csrc/includes/simd.h (-D__AVX512__ / -D__AVX256__ / -D__SCALAR__).
# Non-reentrant gradient checkpointing of PEFT models under ZeRO-3 works from this release [reference D12]
# (before it: torch's CheckpointError; lint's and explain's peft-reentrant).
PEFT_NONREENTRANT_SINCE = "0.19.3"
