"""Make the real libraries fail on install / op-build causes and keep their output as explain fixtures.

Same machinery as produce.py (real DeepSpeed / torch / pip / gcc from ``.cache/oracle``, nothing mocked; the
only "faults" are the environment each scenario describes). Usage::

    .venv/bin/python tests/cases/explain/produce_build.py [NAME ...]
"""

from __future__ import annotations

import sys
from typing import List

from produce import BY_NAME, ORACLE, Scenario
from produce import main as _main


class BuildScenario(Scenario):
    """A produce.py scenario written by this module (its ``produced`` line names it, and the setup run first)."""

    def how(self) -> str:
        text = super().how().replace("produce.py", "produce_build.py", 1)
        return text + (f"; setup first: {self.setup}".replace(str(ORACLE), "{oracle}") if self.setup else "")


_GPT2_INJECT = ("import torch, deepspeed\nfrom transformers import GPT2Config, GPT2LMHeadModel\n"
                "m = GPT2LMHeadModel(GPT2Config(n_embd=64, n_layer=2, n_head=4, vocab_size=1000))\n"
                "engine = deepspeed.init_inference(m, dtype=torch.float32, replace_with_kernel_inject=True)\n")

# A source checkout of DeepSpeed where deepspeed/ops/op_builder is neither the symlink nor setup.py's copy.
_CHECKOUT = (f"mkdir -p DeepSpeed && cp -r {ORACLE}/ds/0.19.8/deepspeed DeepSpeed/ && "
             "rm -rf DeepSpeed/deepspeed/ops/op_builder && find DeepSpeed -name __pycache__ -prune -exec rm -rf {} +")

# A stand-in for a prebuilt op linked without -lcurand: a real extension .so that calls curandCreateGenerator,
# built without the library, imported by its DeepSpeed module path (the dynamic loader's own message).
_PY = ORACLE / "venv" / "bin" / "python"
_CURAND_SO = ("mkdir -p site/deepspeed/ops/adam && touch site/deepspeed/__init__.py site/deepspeed/ops/__init__.py "
              "site/deepspeed/ops/adam/__init__.py && printf '%s\\n' '#include <Python.h>' "
              "'extern int curandCreateGenerator(void *gen, int kind);' "
              "'static struct PyModuleDef m = {PyModuleDef_HEAD_INIT, \"cpu_adam_op\", NULL, -1, NULL};' "
              "'PyMODINIT_FUNC PyInit_cpu_adam_op(void) { curandCreateGenerator(0, 0); return PyModule_Create(&m); }' "
              f"> op.c && gcc -shared -fPIC $({_PY} -c 'import sysconfig; print(\"-I\" + sysconfig.get_paths()[\"include\"])') "
              f"op.c -o site/deepspeed/ops/adam/cpu_adam_op$({_PY} -c 'import sysconfig; print(sysconfig.get_config_var(\"EXT_SUFFIX\"))')")

SCENARIOS: List[BuildScenario] = [
    BuildScenario("torch-not-importable-at-build-ds0.19.8", "DS_BUILD_OPS=1 pip wheel of the deepspeed 0.19.8 sdist from a "
             "venv that has torch: pip's isolated build environment cannot import it",
             "torch-not-importable-at-build", "", ds=None, env={"DS_BUILD_OPS": "1", "PIP_NO_INPUT": "1"},
             argv=("{py}", "-m", "pip", "wheel", "--no-deps", "--no-cache-dir", "-w", "whl",
                   "{oracle}/sdist/deepspeed-0.19.8.tar.gz"), evidence="Unable to pre-compile ops without torch"),
    BuildScenario("torch-not-importable-no-prebuild-ds0.19.8", "the same isolated pip wheel with DS_BUILD_OPS=0: setup.py "
                  "warns it cannot import torch, but nothing is pre-built and the wheel builds (no failure; pip -v shows setup.py's "
                  "output)",
                  "no-failure", "", ds=None, env={"DS_BUILD_OPS": "0", "PIP_NO_INPUT": "1"},
                  argv=("{py}", "-m", "pip", "wheel", "-v", "--no-deps", "--no-cache-dir", "-w", "whl",
                        "{oracle}/sdist/deepspeed-0.19.8.tar.gz")),
    BuildScenario("accelerator-autodetect-cpu-ccl", "DS_BUILD_CCL_COMM=1 pip wheel --no-build-isolation of deepspeed 0.19.8 on "
             "a machine with no visible GPU: the cpu accelerator is auto-selected and its ccl op needs oneCCL",
             "accelerator-autodetect-cpu", "", ds=None, env={"DS_BUILD_OPS": "0", "DS_BUILD_CCL_COMM": "1", "PIP_NO_INPUT": "1"},
             argv=("{py}", "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "--no-cache-dir", "-w", "whl",
                   "{oracle}/sdist/deepspeed-0.19.8.tar.gz"), evidence="oneapi/ccl.hpp"),
    BuildScenario("op-not-implemented-cpu-inject", "deepspeed.init_inference(replace_with_kernel_inject=True) on the cpu "
             "accelerator (auto-selected: no GPU visible): the inference kernels have no CPU builder",
             "op-not-implemented-on-accelerator", _GPT2_INJECT, hf="tf4.46.3",
             evidence="had not been implemented on CPU backend"),
    BuildScenario("op-builder-bug-curand-unlinked", "importing a prebuilt cpu_adam_op .so that was linked without "
                  "-lcurand (DeepSpeed < 0.6.2 pre-builds with a pip torch >= 1.11; PR #1879)", "op-builder-bug", "", ds=None,
                  setup=_CURAND_SO, argv=("bash", "-c", "cd site && {py} -c 'import deepspeed.ops.adam.cpu_adam_op'"),
                  evidence="undefined symbol: curandCreateGenerator"),
    BuildScenario("source-tree-shadows-install", "`import deepspeed` run inside a DeepSpeed source checkout whose "
             "deepspeed/ops/op_builder (a symlink in git, a copy made by setup.py) is missing",
             "source-tree-shadows-install", "", ds=None, setup=_CHECKOUT,
             argv=("bash", "-c", "cd DeepSpeed && {py} -c 'import deepspeed'"),
             evidence="No module named 'deepspeed.ops.op_builder'"),
]

BY_NAME.update({s.name: s for s in SCENARIOS})


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:] or [s.name for s in SCENARIOS]))
