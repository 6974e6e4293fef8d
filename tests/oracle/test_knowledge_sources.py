"""Compare dsdoctor's DeepSpeed knowledge tables with the released DeepSpeed sources.

The sdists are fetched by ``scripts/provision-oracle.sh`` into ``$DSDOCTOR_ORACLE_DIR/sdist``; nothing
is downloaded here. Each tarball's ``op_builder/builder.py`` and ``accelerator/real_accelerator.py``
are read in memory and inspected with ``ast``.
"""

from __future__ import annotations

import ast
import functools
import os
import tarfile
from pathlib import Path
from typing import Dict, Set, Tuple

import pytest
from packaging.version import Version

from dsdoctor.knowledge import deepspeed as K

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
SDIST = ORACLE / "sdist"

VERSIONS = (
    "0.9.2 0.9.3 0.12.0 0.12.1 0.12.3 0.12.4 0.14.0 0.14.1 0.14.2 0.14.3 0.15.2 0.15.3 "
    "0.16.3 0.16.4 0.17.1 0.17.2 0.18.2 0.18.3 0.18.9 0.19.0 0.19.1 0.19.4 0.19.5 0.19.7 0.19.8"
).split()


def _tarball(ver: str) -> Path:
    path = SDIST / f"deepspeed-{ver}.tar.gz"
    if not path.is_file():
        msg = f"{path} missing: run scripts/provision-oracle.sh"
        if os.environ.get("DSDOCTOR_REQUIRE_ORACLE") == "1":
            pytest.fail(msg)
        pytest.skip(msg)
    return path


@functools.lru_cache(maxsize=None)
def _source(ver: str, relpath: str) -> str:
    """The text of ``<top>/<relpath>`` in the sdist (the top-level copy, not deepspeed/ops/...)."""
    with tarfile.open(_tarball(ver), "r:gz") as tar:
        for member in tar:
            parts = member.name.split("/", 1)
            if len(parts) == 2 and parts[1] == relpath:
                f = tar.extractfile(member)
                assert f is not None
                return f.read().decode("utf-8")
    raise AssertionError(f"{relpath} not found in deepspeed-{ver}.tar.gz")


@functools.lru_cache(maxsize=None)
def _tree(ver: str, relpath: str) -> ast.Module:
    return ast.parse(_source(ver, relpath))


def _module_assign(tree: ast.Module, name: str) -> ast.expr:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return node.value
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            assert node.value is not None
            return node.value
    raise AssertionError(f"module-level {name} not found")


def _functions(tree: ast.Module, name: str) -> list:
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name]


def _handler_names(handler: ast.ExceptHandler) -> Set[str]:
    t = handler.type
    if t is None:
        return {"<bare>"}
    elts = t.elts if isinstance(t, ast.Tuple) else [t]
    out = set()
    for e in elts:
        out.add(e.id if isinstance(e, ast.Name) else ast.unparse(e))
    return out


# ------------------------------------------------------------------------------------------------
# Readers: what the source says
# ------------------------------------------------------------------------------------------------


def src_cuda_minor_mismatch_ok(ver: str) -> Dict[int, Set[str]]:
    value = ast.literal_eval(_module_assign(_tree(ver, "op_builder/builder.py"), "cuda_minor_mismatch_ok"))
    return {int(k): set(vs) for k, vs in value.items()}


def src_ninja_detection(ver: str) -> str:
    (jit_load,) = _functions(_tree(ver, "op_builder/builder.py"), "jit_load")
    imports_module = any(isinstance(n, ast.Import) and any(a.name == "ninja" for a in n.names) for n in ast.walk(jit_load))
    uses_verify = any(
        (isinstance(n, ast.Name) and n.id == "verify_ninja_availability")
        or (isinstance(n, ast.Attribute) and n.attr == "verify_ninja_availability")
        or (isinstance(n, ast.ImportFrom) and any(a.name == "verify_ninja_availability" for a in n.names))
        for n in ast.walk(jit_load)
    )
    assert imports_module != uses_verify, f"{ver}: import ninja={imports_module}, verify={uses_verify}"
    return "module" if imports_module else "executable"


def src_cpu_adam_cuda_check(ver: str) -> Tuple[str, str]:
    """("fatal" | "swallowed" | "not-checked", evidence)."""
    tree = _tree(ver, "op_builder/builder.py")
    has_torchcpu = any(isinstance(n, ast.ClassDef) and n.name == "TorchCPUOpBuilder" for n in tree.body)
    fns = _functions(tree, "is_cuda_enable") + _functions(tree, "get_cuda_compile_flag")
    if not fns:
        assert not has_torchcpu, f"{ver}: TorchCPUOpBuilder without a CUDA compile-flag probe"
        return "not-checked", "no is_cuda_enable/get_cuda_compile_flag (TorchCPUOpBuilder gone)"
    assert len(fns) == 1, f"{ver}: several CUDA compile-flag probes"
    (fn,) = fns
    caught: Set[str] = set()
    for n in ast.walk(fn):
        if isinstance(n, ast.Try):
            for h in n.handlers:
                caught |= _handler_names(h)
    if caught & {"BaseException", "Exception", "<bare>"}:
        return "swallowed", f"{fn.name} catches {sorted(caught)}"
    if caught == {"MissingCUDAException"}:
        return "fatal", f"{fn.name} catches only MissingCUDAException"
    raise AssertionError(f"{ver}: {fn.name} catches {sorted(caught)}")


def src_supported_accelerators(ver: str) -> Set[str]:
    """Values of DS_ACCELERATOR that get_accelerator() accepts. Empty when DS_ACCELERATOR is not read."""
    tree = _tree(ver, "accelerator/real_accelerator.py")
    try:
        return set(ast.literal_eval(_module_assign(tree, "SUPPORTED_ACCELERATOR_LIST")))
    except AssertionError:
        pass
    # 0.9.3-era: an if/elif chain on os.environ['DS_ACCELERATOR'] ('cuda', 'cpu', 'xpu')
    out: Set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "DS_ACCELERATOR" in ast.unparse(node.test):
            for n in ast.walk(node):
                if (
                    isinstance(n, ast.Compare)
                    and isinstance(n.left, ast.Name)
                    and n.left.id == "accelerator_name"
                    and isinstance(n.ops[0], ast.Eq)
                    and isinstance(n.comparators[0], ast.Constant)
                ):
                    out.add(n.comparators[0].value)
    return out  # empty: this version ignores DS_ACCELERATOR (0.9.2: IPEX-for-DeepSpeed -> xpu, else cuda)


# ------------------------------------------------------------------------------------------------
# Tests: one per (fact, version) so each discrepancy shows on its own
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ver", VERSIONS)
def test_cuda_minor_mismatch_ok(ver: str) -> None:
    src = src_cuda_minor_mismatch_ok(ver)
    ours = {k: set(vs) for k, vs in K.cuda_minor_mismatch_ok(Version(ver)).items()}
    assert ours == src, f"deepspeed {ver}: source {sorted((k, sorted(v)) for k, v in src.items())}"
    assert 13 not in src


@pytest.mark.parametrize("ver", VERSIONS)
def test_ninja_detection(ver: str) -> None:
    assert K.ninja_detection(Version(ver)) == src_ninja_detection(ver), f"deepspeed {ver}"


@pytest.mark.parametrize("ver", VERSIONS)
def test_cpu_adam_cuda_check(ver: str) -> None:
    mode, evidence = src_cpu_adam_cuda_check(ver)
    assert K.cpu_adam_cuda_check(Version(ver)) == mode, f"deepspeed {ver}: source: {evidence}"


@pytest.mark.parametrize("ver", VERSIONS)
def test_supported_accelerators(ver: str) -> None:
    src = src_supported_accelerators(ver)
    assert set(K.supported_accelerators(Version(ver))) == src, f"deepspeed {ver}: source {sorted(src)}"


@pytest.mark.parametrize("ver", VERSIONS)
def test_jit_arch_list_int_parse(ver: str) -> None:
    """compute_capability_args' JIT branch reads TORCH_CUDA_ARCH_LIST and sorts it by int() of each part exactly from
    JIT_ARCH_LIST_INT_SINCE (tests/oracle/test_arch_list_oracle.py runs that code on a suffixed entry)."""
    src = _source(ver, "op_builder/builder.py")
    jit = src.split("def compute_capability_args", 1)[1].split("else:\n            # Cross-compile mode", 1)[0]
    reads_env = "os.environ.get('TORCH_CUDA_ARCH_LIST'" in jit
    int_key = "int(part.split('+')[0]) for part in cc.split('.')" in jit
    since = Version(ver) >= Version(K.JIT_ARCH_LIST_INT_SINCE)
    assert (reads_env, int_key) == (since, since), f"deepspeed {ver}: env read {reads_env}, int sort key {int_key}"
