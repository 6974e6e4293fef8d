"""fp16 on DeepSpeed's CPU accelerator: ``lint`` warns (the target CPU is unknown), ``check`` / ``preflight()``
decide from this machine's /proc/cpuinfo flags."""

from __future__ import annotations

from pathlib import Path

import pytest

from dsdoctor.lint import lint
from dsdoctor.probes import cpu_fp16 as C

X86 = "fpu sse sse2 avx avx2 avx512f avx512bw"


def _cpuinfo(tmp_path: Path, flags: str, key: str = "flags") -> str:
    p = tmp_path / "cpuinfo"
    p.write_text(f"processor\t: 0\nmodel name\t: x\n{key}\t\t: {flags}\n\nprocessor\t: 1\n{key}\t\t: {flags}\n")
    return str(p)


@pytest.mark.parametrize("flags,want", [(X86 + " avx512_fp16", True), (X86 + " amx_fp16", True), (X86, False),
                                        (X86 + " avx_ne_convert", None)])
def test_decided_from_flags(tmp_path: Path, flags: str, want: object) -> None:
    assert C.cpu_fp16(C.cpu_flags(_cpuinfo(tmp_path, flags)))[0] is want


def test_unknown_off_x86(tmp_path: Path) -> None:
    assert C.cpu_fp16(C.cpu_flags(_cpuinfo(tmp_path, "fp asimd fphp asimdhp", "Features")))[0] is None
    assert C.cpu_fp16(C.cpu_flags(str(tmp_path / "absent")))[0] is None


@pytest.mark.parametrize("machine", [(True, "has avx512_fp16"), (False, "has neither"), (None, "cannot tell")])
def test_lint_warns_check_decides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, machine: tuple) -> None:
    (tmp_path / "ds.json").write_text('{"fp16": {"enabled": true}, "train_batch_size": 1}')
    monkeypatch.setenv("DS_ACCELERATOR", "cpu")
    monkeypatch.setattr(C, "machine_cpu_fp16", lambda: machine)
    plain = [f for f in lint([str(tmp_path / "ds.json")], ds_version="0.19.8").report.findings if f.name == "fp16-on-cpu"]
    assert [f.severity.value for f in plain] == ["warning"] and "unless the CPU has AVX512-FP16 or AMX-FP16" in plain[0].title
    here = [f.severity.value for f in lint([str(tmp_path / "ds.json")], ds_version="0.19.8", machine=True).report.findings
            if f.name == "fp16-on-cpu"]
    assert here == {True: [], False: ["error"], None: ["warning"]}[machine[0]]
    old = [f.severity.value for f in lint([str(tmp_path / "ds.json")], ds_version="0.16.7", machine=True).report.findings
           if f.name == "fp16-on-cpu"]
    assert old == ["error"]  # before 0.16.8 the CPU accelerator has no fp16 on any CPU
