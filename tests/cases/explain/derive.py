"""Fixtures for causes this CPU-only machine cannot make the real libraries produce end to end.

Each is assembled from (a) the real build-log skeleton of compiler-missing-ds0.19.8.log (torch's
"Error building extension" format, DeepSpeed 0.19.8's wrapped RuntimeError) or another real fixture, and
(b) the exact failing line, taken from a real tool run here where possible (nvcc 13.0/13.5) or from the
library source / the reference. Every .toml says which. Usage: .venv/bin/python tests/cases/explain/derive.py
"""

from __future__ import annotations

from pathlib import Path
from typing import Dict, Tuple

HERE = Path(__file__).resolve().parent
SKELETON = "compiler-missing-ds0.19.8.log"


def _build_log(error_lines: str, op: str = "cpu_adam") -> str:
    """The real compiler-missing log with its compiler error replaced by ``error_lines``."""
    text = (HERE / SKELETON).read_text()
    if op != "cpu_adam":  # a CUDA op: no 0.19.8 cpu_adam wrapper after torch's error
        text = text.split("ninja: build stopped: subcommand failed.")[0] + "ninja: build stopped: subcommand failed.\n"
    out = []
    for line in text.splitlines():
        if line.startswith("/bin/sh: 1: /nonexistent/c++: not found"):
            out.append(error_lines)
        else:
            out.append(line.replace("/nonexistent/c++", "c++").replace("cpu_adam", op))
    return "\n".join(out) + "\n"


CASES: Dict[str, Tuple[str, str, str, str]] = {
    # name: (expect, description, produced, log)
    "nvcc-arch-unsupported": ("nvcc-arch-unsupported", "a CUDA op built with nvcc 13 for compute_60",
                              "assembled: the nvcc line is real (.cache/oracle nvcc 13.0, -gencode=arch=compute_60); "
                              "build-log skeleton from compiler-missing-ds0.19.8.log (real)",
                              "fused_adam"),
    "cuda-headers-missing": ("cuda-headers-missing", "CUDA_HOME = the pip nvcc wheel, which ships no cuda_runtime.h",
                             "assembled: the nvcc lines are real (.cache/oracle nvcc 13.5 compiling a .cu); skeleton real",
                             "fused_adam"),
    "python-headers-missing": ("python-headers-missing", "no Python.h for the interpreter (python3.X-dev missing)",
                               "source-derived: gcc's 'fatal error: X: No such file or directory' format (reference "
                               "deepspeed.md 2.4 #6); skeleton real", "cpu_adam"),
    "cuda-libs-missing": ("cuda-libs-missing", "DeepSpeed <= 0.19.7 CUDA cpu_adam link without libcurand.so",
                          "source-derived: GNU ld's 'cannot find -lX' (binutils 2.40 format); skeleton real", "cpu_adam"),
    "compiler-killed": ("compiler-killed", "cc1plus killed by the OOM killer during a parallel op build",
                        "source-derived: gcc 12's driver message for a SIGKILLed cc1plus; skeleton real", "cpu_adam"),
    "windows-msvc": ("windows-op-build-unsupported", "DeepSpeed op JIT build on native Windows without MSVC",
                     "source-derived: setuptools' MSVC message; skeleton real", "cpu_adam"),
}

ERRORS = {
    "nvcc-arch-unsupported": "nvcc fatal   : Unsupported gpu architecture 'compute_60'",
    "cuda-headers-missing": "<command-line>: fatal error: cuda_runtime.h: No such file or directory\ncompilation terminated.",
    "python-headers-missing": ("In file included from /opt/envs/ds/0.19.8/deepspeed/ops/csrc/adam/cpu_adam.cpp:6:\n"
                               "/opt/envs/venv/lib/python3.11/site-packages/torch/include/torch/extension.h:9:10: "
                               "fatal error: Python.h: No such file or directory\n    9 | #include <Python.h>\n"
                               "      |          ^~~~~~~~~~\ncompilation terminated."),
    "cuda-libs-missing": ("/usr/bin/ld: cannot find -lcurand: No such file or directory\n"
                          "collect2: error: ld returned 1 exit status"),
    "compiler-killed": "c++: fatal error: Killed signal terminated program cc1plus\ncompilation terminated.",
    "windows-msvc": "error: Microsoft Visual C++ 14.0 or greater is required. Get it with \"Microsoft C++ Build Tools\"",
}


CONSEQ = {"cpu_adam": "requires the cpu_adam op", "fused_adam": "Error building extension 'fused_adam'"}


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main() -> None:
    for name, (expect, desc, produced, op) in CASES.items():
        (HERE / f"{name}.log").write_text(_build_log(ERRORS[name], op))
        (HERE / f"{name}.toml").write_text(
            f"description = {_q(desc)}\nproduced = {_q('tests/cases/explain/derive.py: ' + produced)}\n\n"
            f"[expect]\nprimary = {_q(expect)}\nconsequences = [{_q(CONSEQ[op])}]\n")


if __name__ == "__main__":
    main()
