"""Version-ranged facts about DeepSpeed. No I/O: probes read the world, checks decide with these.

Every fact names the DeepSpeed versions where it holds (see ``docs/knowledge.md`` and the oracle tests
in ``tests/oracle`` which compare these tables with the real released sources and behaviour).
"""

from __future__ import annotations

from typing import Dict, Literal, Optional, Tuple

from packaging.version import Version

from .versions import Span, lookup, v

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


def pin_memory_default(ds: Version) -> bool:
    """offload_* ``pin_memory`` defaults to True from 0.19.5 (PR #8207)."""
    return ds >= v("0.19.5")


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
MSG_ACCEL_INVALID = 'DS_ACCELERATOR must be one of {allowed}. Value "{value}" is not supported'
MSG_PREBUILT_TORCH = "PyTorch version mismatch! DeepSpeed ops were compiled and installed with a different version"
MSG_PREBUILT_CUDA = "CUDA version mismatch! DeepSpeed ops were compiled and installed with a different version"
MSG_LIBAIO = "async_io requires the dev libaio .so object and headers but these were not found."
MSG_NVCC_UNRUNNABLE = "Unable to run {nvcc}, unable to compile CUDA op(s)"  # 0.19.5+ (PR #8216)
MSG_OP_WRAPPED = "requires the {op} op, which failed to build/load."  # 0.19.8: cpu_adam, cpu_adagrad, cpu_lion
MSG_DEL_IGNORED = "Exception ignored in: <function DeepSpeedCPU{opt}.__del__"  # <= 0.19.7, noise after the cause
MSG_NOT_COMPATIBLE = "Unable to JIT load the {op} op due to it not being compatible due to hardware/software issue."
MSG_NO_COMPUTE_CAPS = "Unable to load {op} op due to no compute capabilities remaining after filtering"
MSG_FORK_ARCH = "cannot probe CUDA device capabilities in a forked subprocess where CUDA has already been initialized"
# runtime/config.py (same text 0.9.5-0.19.8)
MSG_BATCH_MISMATCH = ("Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * "
                      "gradient_acc_step * world_size {tb} != {mb} * {ga} * {ws}")
MSG_AUTO_COMPARE = "'>' not supported between instances of 'str' and '{other}'"  # a top-level "auto" reached _batch_assertion
MSG_CLIENT_OPTIMIZER = ("You are using ZeRO-Offload with a client provided optimizer ({cls}) which in most cases will "
                        "yield poor performance.")
MSG_FORCE_DS_CPU_OPTIMIZER = '"zero_force_ds_cpu_optimizer": false'
MSG_INT_FROM_FLOAT = "Input should be a valid integer, got a number with a fractional part"  # pydantic v2 (0.15+)
MSG_NO_SYNC = "no_sync context manager is incompatible with gradient partitioning logic of ZeRO stage {stage}"
# launcher/ and comm/
MSG_LAUNCH_EXIT = "{cmd} exits with return code = {rc}"  # launcher/launch.py, logger.error
MSG_SSH_UNREACHABLE = "Using hostfile at {hostfile} but host={host} was not reachable via ssh."
MSG_HOSTFILE_BAD = "Bad hostfile text: "  # logger.error before each ValueError below (0.15.4-0.19.8)
MSG_HOSTFILE_ERRORS = ("Hostfile contains multiple entries for {host}, unable to proceed with launching",
                       "Hostfile contains a bad entry: {line}, unable to proceed with launching",
                       "Hostfile is empty or not formatted correctly, unable to proceed with launching.")
MSG_NO_GPU_RESOURCES = "Unable to proceed, no GPU resources available"
MSG_MPI_DISCOVERY_MODULE = "mpi4py"  # init_distributed() without RANK/... imports mpi4py (mpi_discovery)


def cpu_adam_failure_tail(ds: Version) -> str:
    """The line a user sees last when cpu_adam fails: a pointer, never the cause."""
    return MSG_CPU_ADAM_WRAPPED if ds >= v("0.19.8") else MSG_DS_OPT_ADAM


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
