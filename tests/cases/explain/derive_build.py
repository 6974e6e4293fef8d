"""Install / op-build fixtures this CPU-only machine cannot make the real libraries produce end to end.

Each log is assembled from a real skeleton (the build log of compiler-missing-ds0.19.8.log, via derive.py's
``_build_log``) or from the real source of the library release it names (frames with that release's file names
and line numbers), plus the failing line: from a real tool run here where possible (gcc 12, nvcc 13.0's message
templates), else from the library source. Every .toml says which. Usage::

    .venv/bin/python tests/cases/explain/derive_build.py
"""

from __future__ import annotations

from typing import Dict, Tuple

from derive import HERE, _build_log, _q

SITE = "/opt/conda/envs/ft/lib/python3.10/site-packages"


def _tb(*frames: Tuple[str, int, str, str]) -> str:
    out = ["Traceback (most recent call last):"]
    for path, line, func, code in frames:
        out.append(f'  File "{path}", line {line}, in {func}')
        if code:
            out.append(f"    {code}")
    return "\n".join(out) + "\n"


_ROCM_NONE = (  # DeepSpeed 0.17.5 on a ROCm torch: line numbers of v0.17.5's cpu_adam.py / builder.py
    _tb(("/home/user/proj/train.py", 12, "<module>", "optimizer = DeepSpeedCPUAdam(model.parameters(), lr=1e-4)"),
        (f"{SITE}/deepspeed/ops/adam/cpu_adam.py", 94, "__init__", "self.ds_opt_adam = CPUAdamBuilder().load()"),
        (f"{SITE}/deepspeed/ops/op_builder/builder.py", 538, "load", "return self.jit_load(verbose)"),
        (f"{SITE}/deepspeed/ops/op_builder/builder.py", 570, "jit_load",
         "cxx_args = self.strip_empty_entries(self.cxx_args())"),
        (f"{SITE}/deepspeed/ops/op_builder/builder.py", 401, "strip_empty_entries",
         "return [x for x in args if len(x) > 0]"),
        (f"{SITE}/deepspeed/ops/op_builder/builder.py", 401, "<listcomp>", "return [x for x in args if len(x) > 0]"))
    + "TypeError: object of type 'NoneType' has no len()\n")

_HIPIFY = (  # DS_BUILD_OPS=0 install of DeepSpeed 0.15.4 on ROCm: setup.py hipifies each compatible op (line 194)
    "DS_BUILD_OPS=0\n"
    + _tb(("/home/user/src/DeepSpeed/setup.py", 194, "<module>", "builder.hipify_extension()"),
          ("/home/user/src/DeepSpeed/op_builder/builder.py", 738, "hipify_extension", "hipify_python.hipify("))
    + "TypeError: hipify() got an unexpected keyword argument 'hipify_extra_files_only'\n")

_SWIFT = (  # ms-swift 2.6.0: `swift sft --deepspeed default-zero2` started as one process on an 8-GPU node
    "[INFO:swift] Start time of running main: 2026-11-30 10:02:11.513204\n"
    + _tb(("/opt/conda/lib/python3.10/site-packages/swift/cli/sft.py", 5, "<module>", "sft_main()"),
          ("/opt/conda/lib/python3.10/site-packages/swift/utils/run_utils.py", 22, "x_main",
           "args, remaining_argv = parse_args(args_class, argv)"),
          ("/opt/conda/lib/python3.10/site-packages/swift/utils/utils.py", 131, "parse_args",
           "args, remaining_args = parser.parse_args_into_dataclasses(argv, return_remaining_strings=True)"),
          ("/opt/conda/lib/python3.10/site-packages/transformers/hf_argparser.py", 339, "parse_args_into_dataclasses",
           "obj = dtype(**inputs)"),
          ("<string>", 216, "__init__", ""),
          ("/opt/conda/lib/python3.10/site-packages/swift/llm/utils/argument.py", 1113, "__post_init__",
           "raise ValueError('DeepSpeed is not compatible with MP. '"))
    + "ValueError: DeepSpeed is not compatible with MP. n_gpu: 8, local_world_size: 1.\n")

# gcc 12.2 compiling DeepSpeed 0.19.8's csrc/includes/simd.h with -D__AVX512__ for -march=x86-64-v3 (run here)
_SIMD = ("In file included from /opt/envs/ds/0.19.8/deepspeed/ops/csrc/adam/cpu_adam_impl.cpp:14:\n"
         "/opt/envs/ds/0.19.8/deepspeed/ops/csrc/includes/simd.h: In function ‘__m512 load_16_bf16_as_f32(const void*)’:\n"
         "/opt/envs/ds/0.19.8/deepspeed/ops/csrc/includes/simd.h:51:51: warning: AVX512F vector return without AVX512F "
         "enabled changes the ABI [-Wpsabi]\n"
         "   51 | static __m512 load_16_bf16_as_f32(const void* data)\n"
         "      |                                                   ^\n"
         "/usr/lib/gcc/x86_64-linux-gnu/12/include/avx512fintrin.h:6331:1: error: inlining failed in call to "
         "‘always_inline’ ‘__m512 _mm512_loadu_ps(const void*)’: target specific option mismatch")

# nvcc < 11.0 has no -std=c++17 (nvcc 13.0's template "Value '%s' is not defined for option '%s'")
_NVCC_OLD = "nvcc fatal   : Value 'c++17' is not defined for option 'std'"

# nvcc 13.0's template for a host compiler without the standard; libstdc++ 5's bits/c++0x_warning.h
_OLD_HOST = ("nvcc warning : The -std=c++17 flag is not supported with the configured host compiler. Flag will be ignored.\n"
             "In file included from /usr/include/c++/5/cstdint:35:0,\n"
             "                 from /opt/envs/venv/lib/python3.11/site-packages/torch/include/c10/macros/Macros.h:3,\n"
             "/usr/include/c++/5/bits/c++0x_warning.h:32:2: error: #error This file requires compiler and library "
             "support for the ISO C++ 2011 standard. This support must be enabled with the -std=c++11 or -std=gnu++11 "
             "compiler options.")

# g++ 12.2 -std=c++17 on torch 2.14.1's torch/extension.h (run here): what DeepSpeed <= 0.19.4's hard-coded -std=c++17
# (after torch's own -std=c++20) gives
_CXX20 = ("In file included from /opt/envs/venv/lib/python3.11/site-packages/torch/include/torch/extension.h:6,\n"
          "                 from /opt/envs/ds/0.19.8/deepspeed/ops/csrc/adam/fused_adam.cpp:6:\n"
          "/opt/envs/venv/lib/python3.11/site-packages/torch/include/torch/csrc/api/include/torch/all.h:5:2: error: "
          "#error C++20 or later compatible compiler is required to use PyTorch.\n"
          "    5 | #error C++20 or later compatible compiler is required to use PyTorch.\n"
          "      |  ^~~~~")

# torch 2.13 cpp_extension.py's build-progress messages (lines 2820, 2448, 2542, 2840; logged at info/debug, shown
# here as a `%(message)s` handler prints them), then ninja's first compile line (from compiler-missing-ds0.19.8.log):
# the log was cut while ninja compiled
_CUT = ("Using /home/user/.cache/torch_extensions/py311_cpu as PyTorch extensions root...\n"
        "Emitting ninja build file /home/user/.cache/torch_extensions/py311_cpu/cpu_adam/build.ninja...\n"
        "Building extension module cpu_adam...\n"
        "Allowing ninja to set a default number of workers... (overridable by setting the environment variable MAX_JOBS=N)\n"
        + "[1/3] " + next(ln for ln in (HERE / "compiler-missing-ds0.19.8.log").read_text().splitlines()
                          if ln.startswith("/nonexistent/c++ -MMD")).replace("/nonexistent/c++", "c++") + "\n")

CASES: Dict[str, Tuple[str, str, str, str]] = {
    # name: (expect, description, produced, log)
    "op-builder-bug-rocm-ds0.17.5": (
        "op-builder-bug", "DeepSpeed 0.17.5 cpu_adam on a ROCm torch: get_cuda_compile_flag returns None",
        "source-derived: frames and line numbers of DeepSpeed v0.17.5 cpu_adam.py / op_builder/builder.py (git tag), "
        "the TypeError Python raises for len(None); the bug and its fix: PR #7521 (0.17.6)", _ROCM_NONE),
    "op-builder-bug-cxx17-torch2.14": (
        "op-builder-bug", "DeepSpeed's hard-coded -std=c++17 (<= 0.19.4) building fused_adam against torch 2.14.1 "
        "(C++20 headers)",
        "assembled: the #error lines are real (g++ 12.2 -std=c++17 on torch 2.14.1's torch/extension.h, run here); "
        "the bug and its fix: DeepSpeed PR #8238 (0.19.5); skeleton: the real 0.19.8 build log, its compile lines "
        "given <= 0.19.4's cxx_args (-O3 -std=c++17 -g, read in v0.15.4 / v0.19.4)",
        _build_log(_CXX20, "fused_adam").replace("-std=c++20 -O3 -g", "-std=c++20 -O3 -std=c++17 -g")),
    "op-build-log-ends-compiling": (
        "op-build-failed-cause-not-in-log", "a log cut while ninja compiled cpu_adam (ninja was started: not a lock wait)",
        "source-derived: torch 2.13 cpp_extension.py's progress messages; ninja's compile line from "
        "compiler-missing-ds0.19.8.log (real)", _CUT),
    "torch-hipify-too-old-ds0.15.4": (
        "torch-hipify-too-old", "DeepSpeed 0.15.4 setup.py on a ROCm torch whose hipify() lacks hipify_extra_files_only",
        "source-derived: frames and line numbers of DeepSpeed v0.15.4 setup.py / op_builder/builder.py hipify_extension "
        "(git tag), the TypeError Python raises for an unknown keyword argument", _HIPIFY),
    "device-map-mp-swift2.6": (
        "device-map-mp-under-deepspeed", "ms-swift 2.6.0 `swift sft --deepspeed` started as one process on 8 GPUs",
        "source-derived: ms-swift v2.6.0 swift/llm/utils/argument.py line 1113 (git tag) and its callers, "
        "transformers' HfArgumentParser frame", _SWIFT),
    "cpu-simd-flags-mismatch": (
        "cpu-simd-flags-mismatch", "cpu_adam built with -D__AVX512__ by a compiler (wrapper) targeting x86-64-v3",
        "assembled: the gcc lines are real (gcc 12.2 here, DeepSpeed 0.19.8's simd.h with -march=x86-64-v3 "
        "-D__AVX512__; the inlining error's line from a run on _mm512_loadu_ps); skeleton real", _build_log(_SIMD)),
    "nvcc-too-old": (
        "nvcc-too-old", "fused_adam built with a CUDA 10.x nvcc (no -std=c++17)",
        "source-derived: nvcc 13.0's message template (strings of the real binary) with the value CUDA < 11 rejects; "
        "skeleton real", _build_log(_NVCC_OLD, "fused_adam")),
    "host-compiler-old-nvcc": (
        "host-compiler-unsupported", "nvcc with GCC 5 as its host compiler (no C++17)",
        "source-derived: nvcc 13.0's warning template (strings of the real binary), libstdc++ 5's "
        "bits/c++0x_warning.h #error; skeleton real", _build_log(_OLD_HOST, "fused_adam")),
}


def main() -> None:
    for name, (expect, desc, produced, log) in CASES.items():
        (HERE / f"{name}.log").write_text(log)
        (HERE / f"{name}.toml").write_text(
            f"description = {_q(desc)}\nproduced = {_q('tests/cases/explain/derive_build.py: ' + produced)}\n\n"
            f"[expect]\nprimary = {_q(expect)}\n")


if __name__ == "__main__":
    main()
