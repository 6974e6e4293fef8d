"""Causes of a failed DeepSpeed install or import, or of the wrong accelerator / process layout: pip's build
isolation, the accelerator auto-detection, ops an accelerator cannot build, a source tree shadowing the
install, torch's hipify for ROCm builds, the deepspeed-kernels package FastGen's ops link, ms-swift's model-parallel
check. Messages live in
``knowledge/deepspeed.py`` and ``knowledge/swift.py``."""

from __future__ import annotations

import re
from typing import Tuple

from ... import fixes as F
from ... import names as N
from ...knowledge import cuda as CK
from ...knowledge import deepspeed as K
from ...knowledge import python as PK
from ...knowledge import swift as SK
from ...knowledge import transformers as TK
from ...model import Severity
from .cause import Advice, Cause, Docs, LogFacts, Seen, cause, code_fix, frame, log, msg, rx

BUILDER = "deepspeed/ops/op_builder/builder.py"
# pip's failure lines (generic.py's symptoms): with one of them, setup.py's torch warning is the cause
_PIP_FAILED = "|".join(re.escape(m.split("{")[0]) for m in (CK.MSG_PIP_STEP_FAILED, CK.MSG_PIP_WHEEL_FAILED))


def _torch_not_importable(s: Seen, f: LogFacts) -> Advice:
    return Advice("Installing DeepSpeed with DS_BUILD_OPS=1 failed: its setup.py could not import torch",
                  "",
                  [code_fix("Build against this environment's torch", "pip install --no-build-isolation deepspeed",
                            reason="torch, setuptools and wheel must already be installed in it"),
                   code_fix("Or install without pre-compiled ops (JIT-built when first used, on Linux)",
                            "DS_BUILD_OPS=0 pip install deepspeed"),
                   code_fix("On native Windows: train under WSL2 (or install a prebuilt Windows wheel)", "wsl --install")])


def _local_module_shadows(s: Seen, f: LogFacts) -> Advice:
    pkg = s.groups.get("pkg", "<package>").strip("'\"")
    return Advice(f"Python imported `{pkg}` as a single module, not the package: a module file named {pkg}.py (most "
                  "often a local one) shadows the installed package", "",
                  [code_fix("See which file Python imports, from the directory the script runs in",
                            f"python -c 'import {pkg}; print({pkg}.__file__)'   # the script's folder and PYTHONPATH come first"),
                   code_fix("Rename that local file (and delete its __pycache__), or run from another directory",
                            f"mv {pkg}.py my_{pkg}.py && rm -rf __pycache__",
                            reason="the script's folder, the working directory and PYTHONPATH are searched before "
                                   "site-packages")])


def _notebook_restart(s: Seen, f: LogFacts) -> Advice:
    return Advice("In a notebook, the Trainer found no usable accelerate: transformers looked for it once, when the "
                  "kernel imported transformers, and keeps that answer", "",
                  [code_fix("Install or upgrade accelerate in a cell, then restart the kernel / runtime and run again",
                            "%pip install -U accelerate   # then Colab: Runtime > Restart session; Jupyter: Kernel > Restart",
                            reason="a pip install in a running kernel does not reach the transformers it already "
                                   "imported: installing again without a restart gives the same error"),
                   code_fix("Check what the restarted kernel sees", "import accelerate, transformers; "
                            "print(accelerate.__version__, transformers.__version__)")])


def _accelerator_autodetect_cpu(s: Seen, f: LogFacts) -> Advice:
    return Advice("DeepSpeed selected its CPU accelerator because it saw no GPU, and built or listed CPU ops",
                  "",
                  [F.env_fix("DS_ACCELERATOR", "cuda", "Tell DeepSpeed which accelerator to use",
                             reason="in the environment of the process that builds (pip) and of the one that runs",
                             launcher="pip install deepspeed"),
                   code_fix("Check that torch sees the GPU where it builds and runs",
                            "python -c 'import torch; print(torch.cuda.is_available(), torch.version.cuda)'",
                            "nvidia-smi   # containers: --gpus all; VMs: pass the GPU through (/dev/kfd for ROCm)")])


def _op_not_implemented(s: Seen, f: LogFacts) -> Advice:
    backend = s.groups.get("backend", "selected")
    return Advice(f"The {backend} accelerator has no build of this DeepSpeed op", "",
                  [code_fix("Inference: use automatic tensor parallelism instead of kernel injection",
                            "deepspeed.init_inference(model, replace_with_kernel_inject=False, ...)"),
                   code_fix("If this machine has a GPU, DeepSpeed did not see it",
                            "python -c 'import torch; print(torch.cuda.is_available())'   # then DS_ACCELERATOR=cuda")])


def _source_tree_shadows_install(s: Seen, f: LogFacts) -> Advice:
    return Advice("`import deepspeed` found a DeepSpeed source tree, not the installed package",
                  "",
                  [code_fix("Run from another directory (and keep the checkout off PYTHONPATH)",
                            "cd ~ && python -c 'import deepspeed; print(deepspeed.__file__)'"),
                   code_fix("Or install the checkout itself", "pip install -e .   # inside the checkout")])


def _torch_hipify_too_old(s: Seen, f: LogFacts) -> Advice:
    return Advice("The installed torch's hipify is older than what DeepSpeed's ROCm build calls",
                  "",
                  [code_fix("Install a current ROCm build of torch",
                            "pip install torch --index-url https://download.pytorch.org/whl/rocm6.2   # your ROCm version"),
                   code_fix("Or use a DeepSpeed release as old as that torch", "pip install 'deepspeed<0.6'")])


def _device_map_mp(s: Seen, f: LogFacts) -> Advice:
    n, lws = s.groups.get("n_gpu") or "N", s.groups.get("lws") or "1"
    return Advice(f"ms-swift saw {n} GPUs for {lws} local process(es), chose device_map model parallelism, and refuses "
                  "DeepSpeed with it",
                  "",
                  [code_fix("Start one process per GPU through swift's launcher",
                            f"{SK.NPROC_VAR}={n} swift sft --deepspeed default-zero2 ...",
                            reason="the variables on the command's own line (no blank line after a trailing `\\`)"),
                   code_fix("Multi-node: start swift on every node with torchrun's variables, not through the deepspeed "
                            "--hostfile launcher", f"NNODES=2 NODE_RANK=0 MASTER_ADDR=<node0> {SK.NPROC_VAR}={n} swift sft ..."),
                   code_fix("Or upgrade ms-swift", "pip install -U ms-swift")])


def _dskernels_missing(s: Seen, f: LogFacts) -> Advice:
    skip = " ".join(f"{var}=0" for _, var in K.DSKERNELS_OPS)
    return Advice(f"Building DeepSpeed's FastGen inference ops needs the {K.DSKERNELS_DIST} package (module "
                  f"{K.DSKERNELS_MODULE}), which is not installed", "",
                  [code_fix("Install it, then build again", f"pip install {K.DSKERNELS_DIST}",
                            reason=f"the PyPI distribution is {K.DSKERNELS_DIST}, not {K.DSKERNELS_MODULE}; Linux only "
                                   f"(DeepSpeed {K.DSKERNELS_SINCE}+ links its libraries)"),
                   code_fix("Or do not pre-build the inference ops a training run never uses",
                            f"DS_BUILD_OPS=1 {skip} pip install deepspeed   # or plain `pip install deepspeed`: "
                            "ops are JIT-built when first used")])


_SWIFT_SRC = "ms-swift swift/llm/utils/argument.py (1.5.4-2.x), swift/llm/argument/train_args.py (3.0-4.5.2)"

SPECS: Tuple[Cause, ...] = (
    cause(
    N.TORCH_NOT_IMPORTABLE_AT_BUILD,
    Severity.ERROR,
    "DeepSpeed's setup.py cannot import torch while DS_BUILD_OPS=1",
    _torch_not_importable,
    Docs(
        what="`pip install deepspeed` failed in `Getting requirements to build wheel`: setup.py printed `Unable to "
              "import torch, pre-compiling ops will be disabled`, then (with `DS_BUILD_OPS=1`) asserted `Unable to "
              "pre-compile ops without torch installed`.",
        why="pip builds an sdist in an isolated environment that does not see the torch installed in yours; "
              "pre-compiling ops (`DS_BUILD_OPS=1`, the default on native Windows) needs torch at build time.",
        fix="`pip install --no-build-isolation deepspeed` (torch, setuptools and wheel installed first), or "
              "`DS_BUILD_OPS=0` to let ops JIT-build at run time (Linux); on Windows, WSL2 or a prebuilt wheel.",
        examples=(log("torch-not-importable-at-build-ds0.19.8", "DS_BUILD_OPS=1 pip wheel of the 0.19.8 sdist:",
                   "  × Getting requirements to build wheel did not run successfully.\n"
                   "      [WARNING] Unable to import torch, pre-compiling ops will be disabled. Please visit "
                   "https://pytorch.org/ to see how to properly install torch on your system.\n"
                   "      DS_BUILD_OPS=1\n"),),
        reads="log"),
    signatures=(
              msg(K.MSG_SETUP_PRECOMPILE_NO_TORCH, "DeepSpeed setup.py assert when DS_BUILD_OPS=1 (0.4.1-0.19.8)",
                  "AssertionError: Unable to pre-compile ops without torch installed. Please install torch before "
                  "attempting to pre-compile ops."),
              msg(K.MSG_SETUP_PRECOMPILE_OP_NO_TORCH, "DeepSpeed setup.py assert when one DS_BUILD_<OP>=1 (0.4.1-0.19.8)",
                  "AssertionError: Unable to pre-compile cpu_adam, please first install torch"),
              msg(K.MSG_SETUP_NO_TORCH, "DeepSpeed setup.py warning when `import torch` fails (0.4.1-0.19.8)",
                  "[WARNING] Unable to import torch, pre-compiling ops will be disabled. Please visit "
                  "https://pytorch.org/ to see how to properly install torch on your system.",
                  note=True, cause_with=_PIP_FAILED))),
    cause(
    N.ACCELERATOR_AUTODETECT_CPU,
    Severity.ERROR,
    "DeepSpeed auto-selected its CPU accelerator (no GPU visible)",
    _accelerator_autodetect_cpu,
    Docs(
        what="DeepSpeed picked its CPU accelerator (`Setting accelerator to CPU. If you have GPU or other accelerator, "
              "we were unable to detect it.`) and then built or listed the cpu accelerator's ops: a build fails on "
              "`oneapi/ccl.hpp` (deepspeed_ccl_comm), or ds_report lists deepspeed_not_implemented / ccl_comm instead "
              "of the CUDA ops.",
        why="get_accelerator() selects cuda only when torch sees a CUDA device (0.14.1+); a build host, container or VM "
              "without a visible GPU gets cpu, whose ops (deepspeed_ccl_comm needs Intel oneCCL, deepspeed_shm_comm, "
              "...) are not the CUDA ones.",
        fix="Set `DS_ACCELERATOR=cuda` for the process that builds and the one that runs, and make the GPU visible "
              "there (`python -c 'import torch; print(torch.cuda.is_available())'`).",
        examples=(log("accelerator-autodetect-cpu-ccl", "DS_BUILD_CCL_COMM=1 pip wheel on a machine without a visible GPU:",
                   "      csrc/cpu/comm/ccl.cpp:8:10: fatal error: oneapi/ccl.hpp: No such file or directory\n"),
               log("accelerator-autodetect-cpu-ds-report", "ds_report on a machine without a visible GPU (no DS_ACCELERATOR):",
                   "[2026-12-01 23:41:15,251] [WARNING] [real_accelerator.py:213:get_accelerator] Setting accelerator to "
                   "CPU. If you have GPU or other accelerator, we were unable to detect it.\n"
                   "op name ................ installed .. compatible\n"
                   "--------------------------------------------------\n"
                   "deepspeed_not_implemented  [NO] ....... [OKAY]\n"),),
        reads="log"),
    signatures=(
              msg(K.CCL_HEADER + ": No such file or directory", "gcc compiling csrc/cpu/comm/ccl.cpp, the cpu "
                  "accelerator's deepspeed_ccl_comm op (0.9.3-0.19.8)",
                  "csrc/cpu/comm/ccl.cpp:8:10: fatal error: oneapi/ccl.hpp: No such file or directory"),
              rx(r"building 'deepspeed\.ops\.comm\.deepspeed_(?:ccl|shm)_comm_op' extension", "building 'deepspeed.ops.comm.",
                 "setuptools build_ext of a cpu-accelerator op (DS_BUILD_OPS=1, 0.9.3-0.19.8)",
                 "building 'deepspeed.ops.comm.deepspeed_ccl_comm_op' extension"),
              msg(K.MSG_CPU_FALLBACK, "deepspeed/accelerator/real_accelerator.py get_accelerator (0.14.1-0.19.8)",
                  "[WARNING] [real_accelerator.py:213:get_accelerator] Setting accelerator to CPU. If you have GPU or "
                  "other accelerator, we were unable to detect it.", note=True,
                  # the cause when the log goes on to ds_report's rows for the cpu accelerator's own ops
                  cause_with=r"^(?:%s) ?\.* \[(?:NO|YES)\]" % "|".join(K.CPU_ACCELERATOR_ONLY_OPS), rows=True))),
    cause(
    N.OP_NOT_IMPLEMENTED_ON_ACCELERATOR,
    Severity.ERROR,
    "The selected accelerator has no build of this DeepSpeed op",
    _op_not_implemented,
    Docs(
        what="An op load raised `This op had not been implemented on <CPU|HPU|NPU|...> backend.`",
        why="The selected accelerator's op builders have no implementation of that op (NotImplementedBuilder: ops written "
              "only for CUDA, e.g. the transformer_inference kernels used by `init_inference(replace_with_kernel_inject="
              "True)` on the cpu accelerator); no install flag can build them there.",
        fix="Use a path the accelerator supports (`replace_with_kernel_inject=False`: automatic tensor parallelism), "
              "or run on a GPU accelerator (if the machine has one, DeepSpeed did not see it).",
        examples=(log("op-not-implemented-cpu-inject", "init_inference with kernel injection on the cpu accelerator:",
                   "ValueError: This op had not been implemented on CPU backend.\n"),),
        reads="log"),
    signatures=(
              msg(K.MSG_OP_NOT_IMPLEMENTED, "deepspeed/ops/op_builder/<cpu|hpu|mlu|npu|xpu>/no_impl.py "
                  "NotImplementedBuilder.load (0.9.3-0.19.8)", "ValueError: This op had not been implemented on CPU backend."),)),
    cause(
    N.SOURCE_TREE_SHADOWS_INSTALL,
    Severity.ERROR,
    "A DeepSpeed source tree shadows the installed package",
    _source_tree_shadows_install,
    Docs(
        what="`import deepspeed` failed with `No module named 'deepspeed.ops.op_builder'`, its frames in a source tree.",
        why="In a DeepSpeed checkout deepspeed/ops/op_builder is a symlink (or setup.py's copy at install); a tree "
              "without it (a fork, symlinks not materialised) shadows the installed package when Python runs inside it "
              "or it is on PYTHONPATH.",
        fix="Run from another directory (`python -c 'import deepspeed; print(deepspeed.__file__)'` shows which one "
              "loads), or `pip install -e .` the checkout.",
        examples=(log(N.SOURCE_TREE_SHADOWS_INSTALL, "`import deepspeed` inside a checkout without the op_builder link:",
                   "ModuleNotFoundError: No module named 'deepspeed.ops.op_builder'\n"),),
        reads="log"),
    signatures=(
              msg(K.MSG_NO_OP_BUILDER_MODULE, "deepspeed/comm/ccl.py, ops/adam/cpu_adam.py importing deepspeed.ops.op_builder "
                  "(0.9-0.19.8)", "ModuleNotFoundError: No module named 'deepspeed.ops.op_builder'"),)),
    cause(
    N.LOCAL_MODULE_SHADOWS_PACKAGE,
    Severity.ERROR,
    "A local module shadows an installed package",
    _local_module_shadows,
    Docs(
        what="An import failed with `No module named 'X.Y'; 'X' is not a package`: Python found `X` as a plain "
              "module, not the package the code imports from.",
        why="Python searches the script's folder, the working directory and PYTHONPATH before site-packages: a file "
              "named like an installed package (`triton.py`, `deepspeed.py`, `datasets.py`) is imported in its place, "
              "and the package's submodules are then missing.",
        fix="`python -c 'import X; print(X.__file__)'` from the same directory shows the file; rename it (and delete "
              "its `__pycache__`) or run from another directory.",
        examples=(log(N.LOCAL_MODULE_SHADOWS_PACKAGE, "A script run from a folder that holds its own triton.py:",
                   "ModuleNotFoundError: No module named 'triton.language'; 'triton' is not a package\n"),),
        reads="log"),
    signatures=(
              msg(PK.MSG_NOT_A_PACKAGE, "CPython Lib/importlib/_bootstrap.py _find_and_load_unlocked (3.3-3.13, read in "
                  "3.11.7)", "ModuleNotFoundError: No module named 'triton.language'; 'triton' is not a package"),)),
    cause(
    N.NOTEBOOK_RESTART_AFTER_INSTALL,
    Severity.ERROR,
    "A notebook kernel kept what transformers found at import: install accelerate, then restart the kernel",
    _notebook_restart,
    Docs(
        what="In a notebook (Colab, Jupyter) the Trainer raised `Using the `Trainer` with `PyTorch` requires "
              "`accelerate>=...``, also after `pip install -U accelerate` in the same session.",
        why="transformers looks for accelerate and reads its version once, when it is imported; the running kernel "
              "keeps that answer, so an accelerate installed or upgraded after that import is not seen until the "
              "kernel restarts (and a missing one must be installed first).",
        fix="Install or upgrade accelerate (`%pip install -U accelerate`), restart the kernel / runtime, run again.",
        examples=(log(N.NOTEBOOK_RESTART_AFTER_INSTALL, "A Colab cell building TrainingArguments after a pip install:",
                   "[/usr/local/lib/python3.10/dist-packages/transformers/training_args.py](https://localhost:8080/#) in "
                   "_setup_devices(self)\n"
                   "ImportError: Using the `Trainer` with `PyTorch` requires `accelerate>=0.20.1`: Please run `pip "
                   "install transformers[torch]` or `pip install accelerate -U`\n"),),
        reads="log"),
    # named only when the log is a notebook's (explain/context.py): in a fresh process the message means what it says
    signatures=(
              rx(re.escape(TK.TRAINER_NEEDS_ACCELERATE), TK.TRAINER_NEEDS_ACCELERATE[:32],
                 "transformers/training_args.py TrainingArguments._setup_devices (4.2x-5.x) in a notebook kernel; "
                 "transformers/utils/import_utils.py's availability read at import (4.30.2, 4.41.2)",
                 "[/usr/local/lib/python3.10/dist-packages/transformers/training_args.py](https://localhost:8080/#) in "
                 "_setup_devices(self)\n"
                 "ImportError: Using the `Trainer` with `PyTorch` requires `accelerate>=0.20.1`: Please run `pip "
                 "install transformers[torch]` or `pip install accelerate -U`"),)),
    cause(
    N.TORCH_HIPIFY_TOO_OLD,
    Severity.ERROR,
    "torch's hipify lacks what DeepSpeed's ROCm build calls",
    _torch_hipify_too_old,
    Docs(
        what="A ROCm build of DeepSpeed failed in hipify: `hipify() got an unexpected keyword argument ...` or `No "
              "module named 'torch.utils.hipify'`.",
        why="DeepSpeed converts its CUDA sources with torch.utils.hipify and calls it with newer arguments "
              "(hipify_extra_files_only, 0.6+); the installed torch's hipify is missing or older, so DeepSpeed cannot "
              "be built for ROCm with it.",
        fix="Install a current ROCm build of torch (or a DeepSpeed as old as the torch).",
        examples=(log("torch-hipify-too-old-ds0.15.4", "DeepSpeed 0.15.4's setup.py on a ROCm torch with an old hipify:",
                   "TypeError: hipify() got an unexpected keyword argument 'hipify_extra_files_only'\n"),),
        reads="log"),
    signatures=(
              msg(K.MSG_HIPIFY_KWARG, f"{BUILDER} hipify_extension calling torch's hipify (0.6.0-0.19.8)",
                  "TypeError: hipify() got an unexpected keyword argument 'hipify_extra_files_only'"),
              rx(r"No module named '" + re.escape(K.TORCH_HIPIFY_MODULE) + "'", K.TORCH_HIPIFY_MODULE + "'",
                 f"{BUILDER} hipify_extension (0.6.0-0.19.8) / setup.py importing torch.utils.hipify",
                 "ModuleNotFoundError: No module named 'torch.utils.hipify'"),
              frame("op_builder/builder.py", "hipify_extension", f"{BUILDER} (0.6.0-0.19.8), the message cut",
                    "Traceback (most recent call last):\n"
                    "  File \"setup.py\", line 194, in <module>\n"
                    "    builder.hipify_extension()\n"
                    "  File \"/opt/src/DeepSpeed/op_builder/builder.py\", line 738, in hipify_extension\n"
                    "    hipify_python.hipify(\n"
                    "TypeError: hipify() got an unexpec\n", anywhere=True))),
    cause(
    N.DEEPSPEED_KERNELS_MISSING,
    Severity.ERROR,
    "A FastGen inference op (cutlass_ops / ragged_device_ops) was built without the deepspeed-kernels package",
    _dskernels_missing,
    Docs(
        what="Building DeepSpeed's ops failed with `ModuleNotFoundError: No module named 'dskernels'`, typically "
              "during `DS_BUILD_OPS=1 pip install deepspeed`.",
        why="The FastGen (inference v2) ops cutlass_ops and ragged_device_ops link prebuilt kernel libraries shipped "
              "by the separate `deepspeed-kernels` distribution; their builders import its module `dskernels` to find "
              "them (DeepSpeed 0.12.0+). `DS_BUILD_OPS=1` pre-builds every compatible op, these two included.",
        fix="`pip install deepspeed-kernels` (Linux) and build again, or leave the inference ops out: "
              "`DS_BUILD_OPS=1 DS_BUILD_CUTLASS_OPS=0 DS_BUILD_RAGGED_DEVICE_OPS=0 pip install deepspeed`, or a plain "
              "`pip install deepspeed` (ops are JIT-built when first used).",
        examples=(log(N.DEEPSPEED_KERNELS_MISSING, "DS_BUILD_OPS=1 pip install deepspeed without deepspeed-kernels:",
                   "  ModuleNotFoundError: No module named 'dskernels'\n"),),
        reads="log"),
    signatures=(
              rx(r"No module named '" + K.DSKERNELS_MODULE + "'", K.DSKERNELS_MODULE + "'",
                 "deepspeed/ops/op_builder/inference_cutlass_builder.py / ragged_ops.py extra_ldflags (0.12.0-0.19.8)",
                 "ModuleNotFoundError: No module named 'dskernels'"),)),
    cause(
    N.DEVICE_MAP_MP_UNDER_DEEPSPEED,
    Severity.ERROR,
    "ms-swift chose device_map model parallelism and refuses DeepSpeed",
    _device_map_mp,
    Docs(
        what="ms-swift refused to start: `DeepSpeed is not compatible with MP. n_gpu: 8, local_world_size: 1.` (or "
              "``with `device_map` ``, 3.2+).",
        why="swift uses device_map model parallelism when it sees more GPUs than local processes; it counts those "
              f"from {SK.LOCAL_WORLD_SIZE_VAR} (set by torchrun), so one process started for all GPUs ({SK.NPROC_VAR} "
              f"not reaching the command), or the deepspeed launcher (which sets {K.LAUNCHER_LOCAL_SIZE_VAR}), looks "
              "like model parallelism, which DeepSpeed cannot combine with.",
        fix="Start one process per GPU through swift's launcher (`NPROC_PER_NODE=8 swift sft ...`, the variable on "
              "the command's own line); multi-node: NNODES / NODE_RANK / MASTER_ADDR on every node, not the deepspeed "
              "--hostfile launcher.",
        examples=(log("device-map-mp-swift2.6", "`swift sft --deepspeed` started as one process on 8 GPUs:",
                   "ValueError: DeepSpeed is not compatible with MP. n_gpu: 8, local_world_size: 1.\n"),),
        reads="log"),
    signatures=(
              rx(r"DeepSpeed is not compatible with (?:MP|`device_map`)\.(?: n_gpu: (?P<n_gpu>\d{1,4}), "
                 r"local_world_size: (?P<lws>\d{1,4}))?", "DeepSpeed is not compatible with ", _SWIFT_SRC,
                 "ValueError: DeepSpeed is not compatible with MP. n_gpu: 8, local_world_size: 1.",
                 "ValueError: DeepSpeed is not compatible with `device_map`. n_gpu: 4, local_world_size: 1."),
              msg(SK.MSG_DDP_MP, "ms-swift swift/utils/torch_utils.py is_ddp_plus_mp (2.x)",
                  "[INFO:swift] Using DDP + MP(device_map)", note=True))),
)
