"""The environment checks, listed: each module here holds one family's :class:`~dsdoctor.spec.FindingSpec` s beside
the functions that emit them (facts + knowledge -> findings and healthy (✓) results). Severity follows the cpu_adam
prediction: the cause that will make ``CPUAdamBuilder().load()`` fail is an error, the rest are warnings or info.
A new check module is added here (``SPECS``: every name check emits; ``FORMS``: check's forms of names lint rules
own; ``RULES``: the functions :func:`dsdoctor.checks.evaluate` runs, :func:`system_limits.system` apart)."""

from __future__ import annotations

from typing import Tuple

from ..spec import FindingSpec, Form
from . import accelerator, arch_list, build_toolchain, cuda_toolkit, known_bugs, package_api, packages, system_limits
from .common import Rule

RULES: Tuple[Rule, ...] = (packages.packages, package_api.package_api, known_bugs.known_bugs, packages.probe_failures,
                           accelerator.accelerator, cuda_toolkit.cuda, arch_list.arch_list, build_toolchain.build)

SPECS: Tuple[FindingSpec, ...] = (
    cuda_toolkit.CUDA_VERSION_MISMATCH, cuda_toolkit.CUDA_TOOLKIT_MISSING, build_toolchain.NINJA_MISSING,
    build_toolchain.HOST_COMPILER_UNSUPPORTED, build_toolchain.PYTHON_HEADERS_MISSING, build_toolchain.CUDA_LIBS_MISSING,
    build_toolchain.TORCH_EXTENSIONS_LOCK_STALE, build_toolchain.PREBUILT_OP_MISMATCH,
    accelerator.DS_ACCELERATOR_INVALID, system_limits.LIBAIO_MISSING, system_limits.SHM_TOO_SMALL,
    packages.PROBE_FAILED, packages.PACKAGE_MISSING, package_api.PACKAGE_API_INCOMPATIBLE, known_bugs.RELEASE_KNOWN_BUG,
    arch_list.CUDA_ARCH_LIST_UNPARSED,
)

FORMS: Tuple[Form, ...] = (cuda_toolkit.SKIP_FORM, system_limits.MEMLOCK_FORM)
