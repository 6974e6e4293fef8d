"""Probes: torch's CUDA_HOME order, DeepSpeed's nvcc parse, bounded tool runs (fault injection)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from dsdoctor.knowledge.cuda import parse_nvcc_release, torch_extensions_subdir
from dsdoctor.probes.packages import scan
from dsdoctor.probes.run import run_tool
from dsdoctor.probes.toolchain import resolve_cuda_home


def _nvcc(d: Path) -> Path:
    (d / "bin").mkdir(parents=True)
    n = d / "bin" / "nvcc"
    n.write_text("#!/bin/sh\necho 'Cuda compilation tools, release 12.1, V12.1.105'\n")
    n.chmod(0o755)
    return n


def test_cuda_home_order(tmp_path: Path) -> None:
    nv = _nvcc(tmp_path / "tk")
    path = str(nv.parent)
    missing = str(tmp_path / "no-default")
    assert resolve_cuda_home({"CUDA_HOME": "/a", "CUDA_PATH": "/b", "PATH": path}, missing).path == "/a"
    # torch: `CUDA_HOME or CUDA_PATH` -> an empty CUDA_HOME counts as unset
    assert resolve_cuda_home({"CUDA_HOME": "", "CUDA_PATH": "/b"}, missing).path == "/b"
    # a set value is used even when the directory does not exist (torch does not check)
    assert resolve_cuda_home({"CUDA_HOME": "/does/not/exist"}, missing).path == "/does/not/exist"
    got = resolve_cuda_home({"PATH": path}, missing)
    assert got.path == str(tmp_path / "tk") and got.source.startswith("nvcc on PATH")
    assert resolve_cuda_home({"PATH": ""}, str(tmp_path)).path == str(tmp_path)
    none = resolve_cuda_home({"PATH": ""}, missing)
    assert none.path is None and none.source == "none"


def test_nvcc_parse_like_deepspeed() -> None:
    assert parse_nvcc_release("Cuda compilation tools, release 13.0, V13.0.88") == (13, 0)
    assert parse_nvcc_release("release 12.1,") == (12, 1)
    assert parse_nvcc_release("garbage \x00\xff") is None
    assert parse_nvcc_release("release banana,") is None
    assert parse_nvcc_release("release") is None


def test_extension_dir_names() -> None:
    assert torch_extensions_subdir((3, 11), "12.1", None) == "py311_cu121"
    assert torch_extensions_subdir((3, 10), None, "6.2.41133") == "py310_rocm6241133"
    assert torch_extensions_subdir((3, 9), None, None) == "py39_cpu"


def test_hung_tool_and_its_children_are_killed(tmp_path: Path) -> None:
    script = tmp_path / "hang"
    script.write_text("#!/bin/sh\nsleep 300 &\nsleep 300\n")  # a grandchild holds the pipes too
    script.chmod(0o755)
    t0 = time.monotonic()
    res = run_tool([str(script)], timeout=0.5)
    assert time.monotonic() - t0 < 5
    assert res.error == "timed out after 0.5s" and not res.ok


def test_run_tool_never_raises(tmp_path: Path) -> None:
    assert run_tool([str(tmp_path / "missing")]).error == "not found"
    f = tmp_path / "noexec"
    f.write_text("x")
    assert run_tool([str(f)]).error == "permission denied"
    bad = tmp_path / "bytes"
    bad.write_text("#!/bin/sh\nprintf '\\377\\376 release 12.1,\\n'\n")
    bad.chmod(0o755)
    res = run_tool([str(bad)])
    assert res.ok and "\ufffd" in res.stdout


def test_metadata_scan_first_on_path_wins(tmp_path: Path) -> None:
    for d, ver in (("a", "0.19.8"), ("b", "0.15.4")):
        meta = tmp_path / d / f"deepspeed-{ver}.dist-info"
        meta.mkdir(parents=True)
        (meta / "METADATA").write_text(f"Metadata-Version: 2.1\nName: deepspeed\nVersion: {ver}\n\n")
    pk = scan([str(tmp_path / "a"), str(tmp_path / "b")])
    assert pk.version("deepspeed") == "0.19.8"
    assert scan([str(tmp_path / "b"), str(tmp_path / "a")]).version("deepspeed") == "0.15.4"


def test_unreadable_metadata_is_a_probe_failure(tmp_path: Path) -> None:
    meta = tmp_path / "torch-2.4.0.dist-info"
    meta.mkdir()
    (meta / "METADATA").mkdir()  # reading it raises IsADirectoryError
    pk = scan([str(tmp_path)])
    assert pk.version("torch") == "2.4.0"  # falls back to the directory name
    assert pk.failures and pk.failures[0].probe == "package metadata"
    assert os.path.basename(pk.failures[0].where) == "METADATA"
