"""DeepSpeed's ops: which builder cpu_adam uses and what a JIT build needs (ninja, pin_memory, the toolkit at
import), then install / op-build messages and the builder bugs ``explain`` names (explain/causes/build.py,
op_build.py), read in the DeepSpeed git tags v0.3.1-v0.19.5 and the installed 0.15.4 / 0.19.7 / 0.19.8 (.cache/oracle)."""

from __future__ import annotations

from typing import Dict, Literal, NamedTuple, Optional, Tuple

from packaging.version import Version

from .versions import v

__all__ = ["Builder", "cpu_adam_builder", "cpu_adam_compiles_cuda_sources", "NinjaDetection", "ninja_detection",
    "load_verbose_default", "PIN_MEMORY_DEFAULT_TRUE_FROM", "pin_memory_default", "ZERO12_PIN_CONFIG_SINCE",
    "SRC_ACCELERATOR_PIN", "import_fails_without_toolkit",
    "MSG_SETUP_NO_TORCH", "MSG_SETUP_PRECOMPILE_NO_TORCH", "MSG_SETUP_PRECOMPILE_OP_NO_TORCH", "MSG_CPU_FALLBACK",
    "MSG_SETUP_PRECOMPILE_INCOMPATIBLE",
    "CCL_HEADER", "CPU_ACCELERATOR_ONLY_OPS", "MSG_OP_NOT_IMPLEMENTED", "TORCH_HIPIFY_MODULE", "MSG_HIPIFY_KWARG",
    "MSG_NO_OP_BUILDER_MODULE", "LAUNCHER_LOCAL_SIZE_VAR", "BuilderBug", "BUILDER_BUGS", "SIMD_EMPTY_FLAG_FIXED",
    "DSKERNELS_MODULE", "DSKERNELS_DIST", "DSKERNELS_OPS", "DSKERNELS_SINCE", "JIT_ARCH_LIST_INT_SINCE",
    "ARCH_LIST_INT_ERROR", "arch_list_unparsed"]

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


# ZeRO-1/2's CPU offload pins its buffers only when offload_optimizer.pin_memory is true from 0.10.1 (PR #4131,
# stage_1_and_2.py cpu_offload_pin_memory; v0.8.3-v0.10.0 pin them whatever the config says). ZeRO-3 reads
# offload_optimizer.pin_memory for its gradient buffers (0.8.3-0.19.8) and pins its fp16 CPU copies of offloaded
# parameters whatever the config says (stage3.py _create_param_groups_fp16_flat_cpu_memory, 0.8.3-0.19.8).
ZERO12_PIN_CONFIG_SINCE = "0.10.1"
# the accelerator's pinning call, the innermost Python frame when torch's pin fails: cuda_accelerator.py pin_memory
# (0.8.0-0.19.4), abstract_accelerator.py _pin_memory (0.19.5) and _torch_pin_memory / _torch_empty_pinned (0.19.7-0.19.8)
SRC_ACCELERATOR_PIN = ("return tensor.pin_memory()", "return tensor.new_empty(shape, pin_memory=True)")


def import_fails_without_toolkit(ds: Version) -> bool:
    """0.14.1-0.19.4 run CUDA op compatibility probes at ``import deepspeed``: on a GPU box with no
    CUDA_HOME the import itself raises MissingCUDAException."""
    return v("0.14.1") <= ds <= v("0.19.4")


# ---------------------------------------------------------------------------------------------------
# 8. Install / op-build messages and builder bugs (``explain`` names them; explain/causes/build.py,
#    op_build.py)
#    Read in the DeepSpeed git tags v0.3.1-v0.19.5 and the installed 0.15.4 / 0.19.7 / 0.19.8 (.cache/oracle).
# ---------------------------------------------------------------------------------------------------

# setup.py (0.4.1-0.19.8): `import torch` failed (pip's isolated build env has no torch), then with DS_BUILD_OPS=1
# (the default on Windows, BUILD_OP_PLATFORM) the assert aborts `Getting requirements to build wheel`.
MSG_SETUP_NO_TORCH = "Unable to import torch, pre-compiling ops will be disabled."
MSG_SETUP_PRECOMPILE_NO_TORCH = "Unable to pre-compile ops without torch installed."
MSG_SETUP_PRECOMPILE_INCOMPATIBLE = "Unable to pre-compile {op}"  # setup.py abort: DS_BUILD_<OP>=1, op incompatible (0.3-0.16.x)
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


# Keyed by what the log shows (matched in explain/causes/op_build.py).
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
# op_builder/builder.py compute_capability_args in JIT mode (0.19.0-0.19.8, read in the sdists of 0.9.2-0.19.8): the
# arch list jit_load captured from TORCH_CUDA_ARCH_LIST is sorted with the key tuple(int(part.split('+')[0]) for part
# in cc.split('.')). Before 0.19.0 a JIT build ignored the variable (it probed the visible GPUs). From 0.19.1 the
# pre-build path (DS_BUILD_*=1) parses the minor part with int() too; 0.19.0's pasted "90a" into -gencode.
JIT_ARCH_LIST_INT_SINCE = "0.19.0"
ARCH_LIST_INT_ERROR = "ValueError: invalid literal for int() with base 10: '{part}'"  # Python's int() on the part


def arch_list_unparsed(ds: Version, arch_list: Optional[str]) -> Optional[Tuple[str, str]]:
    """(entry, part) of ``TORCH_CUDA_ARCH_LIST`` that this DeepSpeed's JIT build cannot parse, as its sort key does
    (the part is what ``ValueError: invalid literal for int() with base 10: '<part>'`` quotes); None when it builds."""
    if ds < v(JIT_ARCH_LIST_INT_SINCE) or not arch_list or not arch_list.strip():
        return None
    for cc in (c.strip() for c in arch_list.strip().replace(" ", ";").split(";")):
        for part in cc.split(".") if cc else ():
            head = part.split("+")[0]
            try:
                int(head)  # DeepSpeed's own parse, so signs, spaces and underscores count as it counts them
            except ValueError:
                return cc, head
    return None


# cpu_adam's SIMD flag (builder.py simd_width) was '' on CPUs the 0.3.x builder did not know: gcc reads the empty
# argument as a file ("gcc: error: : No such file or directory"); 0.3.12 (PR #796) returns -D__SCALAR__.
SIMD_EMPTY_FLAG_FIXED = "0.3.12"
# simd_width() picks -D__AVX512__ from the CPU flags (py-cpuinfo / lscpu) while the compile target comes from
# cpu_arch() (-march=native) or the compiler's own default: a compiler (wrapper) targeting x86-64-v3 cannot compile
# the AVX-512 path of csrc/includes/simd.h (-D__AVX512__ / -D__AVX256__ / -D__SCALAR__).

# FastGen's inference ops link the prebuilt CUTLASS / blocked-flash libraries of the separate deepspeed-kernels
# distribution: op_builder/inference_cutlass_builder.py and ragged_ops.py extra_ldflags() `import dskernels`
# (0.12.0-0.19.8, read in the sdists; requirements-dev.txt names the PyPI distribution `deepspeed-kernels`). A
# DS_BUILD_OPS=1 install pre-builds every compatible op, these two included: (op name, its DS_BUILD_* variable).
DSKERNELS_MODULE = "dskernels"
DSKERNELS_DIST = "deepspeed-kernels"
DSKERNELS_OPS = (("cutlass_ops", "DS_BUILD_CUTLASS_OPS"), ("ragged_device_ops", "DS_BUILD_RAGGED_DEVICE_OPS"))
DSKERNELS_SINCE = "0.12.0"
