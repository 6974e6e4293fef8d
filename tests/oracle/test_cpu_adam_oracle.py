"""Oracle: does DeepSpeed's cpu_adam really build/load, and does ``dsdoctor check`` predict it?

Each case runs the real thing in a subprocess --

    <venv>/bin/python -c "from deepspeed.ops.op_builder import CPUAdamBuilder; CPUAdamBuilder().load()"

with ``PYTHONPATH=ds/<ver>``, ``DS_ACCELERATOR=cuda`` and a real nvcc as ``CUDA_HOME`` -- then runs
``python -m dsdoctor check --python <venv python> --format json`` with the identical environment and
compares ``predictions.cpu_adam`` with what happened.

Two tests per case:
  * ``test_deepspeed_*`` pins DeepSpeed's behaviour to what docs/reference says (so a surprise in
    DeepSpeed shows up on its own, independent of dsdoctor);
  * ``test_dsdoctor_*`` checks dsdoctor's prediction against the observed behaviour.

Needs ``scripts/provision-oracle.sh`` (skips otherwise; fails when DSDOCTOR_REQUIRE_ORACLE=1).
No mocks: the "ninja missing" cases use a real venv without the ninja module (venv-noninja) and a
PATH of symlinks to /usr/bin minus ninja (path-noninja), both made by the provision script.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

import pytest

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
DEV_PYTHON = Path(os.environ.get("DSDOCTOR_DEV_PYTHON") or REPO / ".venv" / "bin" / "python")
LOAD_TIMEOUT = int(os.environ.get("DSDOCTOR_ORACLE_TIMEOUT", "900"))
DSDOCTOR_TIMEOUT = 120

LOAD_SNIPPET = "from deepspeed.ops.op_builder import CPUAdamBuilder; CPUAdamBuilder().load()"

MSG_MISMATCH = (
    ">- DeepSpeed Op Builder: Installed CUDA version {sys} does not match the version torch was "
    "compiled with {torch}, unable to compile cuda/cpp extensions without a matching cuda version."
)
MSG_SKIP = "Detected `DS_SKIP_CUDA_CHECK=1`: Allowing this combination of CUDA"
MSG_NINJA = "Unable to JIT load the cpu_adam op due to ninja not being installed."
MSG_TORCH_NINJA = "Ninja is required to load C++ extensions"


def _require_oracle() -> None:
    marker = ORACLE / ".provisioned"
    if not marker.is_file():
        msg = f"oracle not provisioned ({marker} missing): run scripts/provision-oracle.sh"
        if os.environ.get("DSDOCTOR_REQUIRE_ORACLE") == "1":
            pytest.fail(msg)
        pytest.skip(msg)


def _cuda_home(mm: str) -> Path:
    return ORACLE / "nvcc" / mm / "nvidia" / "cu13"


# ------------------------------------------------------------------------------------------------
# Cases
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    ds: str  # DeepSpeed version under ds/<ver>
    nvcc: str  # toolkit under nvcc/<mm> used as CUDA_HOME
    skip: Optional[str] = None  # DS_SKIP_CUDA_CHECK value (None = unset)
    venv: str = "venv"  # "venv" (has the ninja module) or "venv-noninja"
    path: str = "default"  # "default" = venv/bin + /usr/bin (pip and system ninja); "noninja"
    # What docs/reference says DeepSpeed does: None = loads, else a substring of the output.
    expect_error: Optional[str] = None
    expect_cause: Optional[str] = None  # dsdoctor finding name when it does not load

    @property
    def id(self) -> str:
        skip = "unset" if self.skip is None else repr(self.skip)
        parts = [f"ds{self.ds}", f"nvcc{self.nvcc}", f"skip={skip}"]
        if self.venv != "venv":
            parts.append(self.venv)
        if self.path != "default":
            parts.append(f"path-{self.path}")
        return "-".join(parts)

    @property
    def python(self) -> Path:
        return ORACLE / self.venv / "bin" / "python"

    def env(self, ext_dir: Path) -> Dict[str, str]:
        if self.path == "noninja":
            path = str(ORACLE / "path-noninja")
        else:
            path = os.pathsep.join([str(ORACLE / self.venv / "bin"), "/usr/local/bin", "/usr/bin", "/bin"])
        env = {
            "HOME": os.environ.get("HOME", "/root"),
            "PATH": path,
            "LANG": "C.UTF-8",
            "PYTHONPATH": str(ORACLE / "ds" / self.ds),
            "DS_ACCELERATOR": "cuda",
            "CUDA_HOME": str(_cuda_home(self.nvcc)),
            "TORCH_EXTENSIONS_DIR": str(ext_dir),
            "PYTHONWARNINGS": "ignore",
        }
        if "TMPDIR" in os.environ:
            env["TMPDIR"] = os.environ["TMPDIR"]
        if self.skip is not None:
            env["DS_SKIP_CUDA_CHECK"] = self.skip
        return env


def _mismatch() -> Dict[str, Optional[str]]:
    return {"expect_error": MSG_MISMATCH.format(sys="13.5", torch="13.0"), "expect_cause": "cuda-version-mismatch"}


CUDA_CASES: List[Case] = []
for _ds in ("0.15.4", "0.19.7", "0.19.8"):
    # mismatch toolkit first, then the matching one (fewer rebuilds: flags depend on CUDA_HOME)
    for _nvcc in ("13.5", "13.0"):
        for _skip in (None, "true", "1"):
            checked = _ds != "0.19.8"  # 0.19.8's cpu_adam is a plain CPU build (no CUDA check)
            if _nvcc == "13.5" and checked and _skip != "1":
                CUDA_CASES.append(Case(_ds, _nvcc, _skip, **_mismatch()))  # type: ignore[arg-type]
            else:
                CUDA_CASES.append(Case(_ds, _nvcc, _skip))

NINJA_CASES: List[Case] = [
    # <= 0.18.2 checks `import ninja`: a system ninja on PATH does not help ...
    Case("0.15.4", "13.0", venv="venv-noninja", expect_error=MSG_NINJA, expect_cause="ninja-missing"),
    # ... and with the module but no executable on PATH, torch's own check fails
    Case("0.15.4", "13.0", path="noninja", expect_error=MSG_TORCH_NINJA, expect_cause="ninja-missing"),
    # >= 0.18.3 runs `ninja --version`: the module is irrelevant, the executable is what counts
    Case("0.19.8", "13.0", venv="venv-noninja"),
    Case("0.19.8", "13.0", path="noninja", expect_error=MSG_NINJA, expect_cause="ninja-missing"),
]

ALL_CASES = CUDA_CASES + NINJA_CASES


# ------------------------------------------------------------------------------------------------
# Running DeepSpeed (once per case per session) and dsdoctor
# ------------------------------------------------------------------------------------------------


@dataclass
class Outcome:
    rc: int
    output: str  # stdout + stderr
    seconds: float
    loaded: bool = field(init=False)

    def __post_init__(self) -> None:
        self.loaded = self.rc == 0

    def tail(self, n: int = 25) -> str:
        return "\n".join(self.output.splitlines()[-n:])


_OUTCOMES: Dict[Case, Outcome] = {}


@pytest.fixture(scope="session")
def ext_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """TORCH_EXTENSIONS_DIR parent, kept for the session: each op builds at most once per version
    and configuration (a different CUDA_HOME or site-packages path changes the flags -> rebuild)."""
    return tmp_path_factory.mktemp("torch-ext")


def deepspeed_outcome(case: Case, ext_root: Path) -> Outcome:
    _require_oracle()
    if case not in _OUTCOMES:
        ext = ext_root / f"ext-{case.ds}"
        ext.mkdir(exist_ok=True)
        t0 = time.monotonic()
        try:
            proc = subprocess.run(
                [str(case.python), "-c", LOAD_SNIPPET],
                env=case.env(ext),
                cwd=str(ext_root),
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                timeout=LOAD_TIMEOUT,
            )
        except subprocess.TimeoutExpired as e:
            out = e.stdout if isinstance(e.stdout, str) else (e.stdout or b"").decode(errors="replace")
            pytest.fail(f"{case.id}: CPUAdamBuilder().load() timed out after {LOAD_TIMEOUT}s\n{out[-3000:]}")
        _OUTCOMES[case] = Outcome(proc.returncode, proc.stdout, time.monotonic() - t0)
        report = os.environ.get("DSDOCTOR_ORACLE_REPORT")
        if report:
            o = _OUTCOMES[case]
            with open(report, "a") as f:
                f.write(json.dumps({"case": case.id, "loaded": o.loaded, "rc": o.rc, "seconds": round(o.seconds, 1), "tail": o.tail(8)}) + "\n")
    return _OUTCOMES[case]


def run_dsdoctor(case: Case, ext_root: Path) -> dict:
    if not DEV_PYTHON.exists():
        pytest.fail(f"{DEV_PYTHON} missing (the dev venv with dsdoctor installed)")
    ext = ext_root / f"ext-{case.ds}"
    proc = subprocess.run(
        [str(DEV_PYTHON), "-m", "dsdoctor", "check", "--python", str(case.python), "--format", "json"],
        env=case.env(ext),
        cwd=str(ext_root),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        timeout=DSDOCTOR_TIMEOUT,
    )
    try:
        return json.loads(proc.stdout)
    except ValueError:
        pytest.fail(f"dsdoctor check did not print JSON (rc {proc.returncode})\nstdout: {proc.stdout[-2000:]}\nstderr: {proc.stderr[-2000:]}")


def observed_cause(out: Outcome) -> Optional[str]:
    """dsdoctor finding name for what actually happened (None if it loaded)."""
    if out.loaded:
        return None
    if "CUDAMismatchException" in out.output or ">- DeepSpeed Op Builder: Installed CUDA version" in out.output:
        return "cuda-version-mismatch"
    if MSG_NINJA in out.output or MSG_TORCH_NINJA in out.output:
        return "ninja-missing"
    return f"<unclassified: {out.tail(3)}>"


# ------------------------------------------------------------------------------------------------
# Tests
# ------------------------------------------------------------------------------------------------


def _check_deepspeed(case: Case, out: Outcome) -> None:
    ctx = f"{case.id}: rc={out.rc}\n{out.tail()}"
    if case.expect_error is None:
        assert out.loaded, f"expected cpu_adam to load\n{ctx}"
        if case.skip == "1" and case.nvcc == "13.5" and case.ds != "0.19.8":
            assert MSG_SKIP in out.output, ctx
    else:
        assert not out.loaded, f"expected cpu_adam to fail with {case.expect_error!r}\n{ctx}"
        assert case.expect_error in out.output, ctx
        assert observed_cause(out) == case.expect_cause, ctx


def _check_dsdoctor(case: Case, out: Outcome, report: dict) -> None:
    ctx = f"{case.id}: DeepSpeed rc={out.rc}\n{out.tail(8)}\ndsdoctor: {json.dumps(report)[:3000]}"
    pred = report.get("predictions", {}).get("cpu_adam")
    assert isinstance(pred, dict), f"no predictions.cpu_adam\n{ctx}"
    assert pred.get("loads") is out.loaded, ctx
    if not out.loaded:
        cause = observed_cause(out)
        assert pred.get("cause") == cause, ctx
        # the message dsdoctor's knowledge predicts must be what DeepSpeed printed
        from dsdoctor.knowledge import deepspeed as K

        if cause == "cuda-version-mismatch":
            expected = K.MSG_MISMATCH.format(sys=case.nvcc, torch="13.0")
        elif cause == "ninja-missing":
            expected = K.MSG_NINJA.format(op="cpu_adam") if MSG_NINJA in out.output else MSG_TORCH_NINJA
        else:
            expected = ""
        assert expected in out.output, f"predicted message {expected!r} not in output\n{ctx}"
        if isinstance(pred.get("message"), str) and pred["message"]:
            assert pred["message"] in out.output, f"predictions.cpu_adam.message not in output\n{ctx}"
    else:
        assert pred.get("cause") in (None, ""), ctx


@pytest.mark.parametrize("case", CUDA_CASES, ids=lambda c: c.id)
def test_deepspeed_cuda_check(case: Case, ext_root: Path) -> None:
    _check_deepspeed(case, deepspeed_outcome(case, ext_root))


@pytest.mark.parametrize("case", CUDA_CASES, ids=lambda c: c.id)
def test_dsdoctor_cuda_check(case: Case, ext_root: Path) -> None:
    out = deepspeed_outcome(case, ext_root)
    _check_dsdoctor(case, out, run_dsdoctor(case, ext_root))


@pytest.mark.parametrize("case", NINJA_CASES, ids=lambda c: c.id)
def test_deepspeed_ninja(case: Case, ext_root: Path) -> None:
    _check_deepspeed(case, deepspeed_outcome(case, ext_root))


@pytest.mark.parametrize("case", NINJA_CASES, ids=lambda c: c.id)
def test_dsdoctor_ninja(case: Case, ext_root: Path) -> None:
    out = deepspeed_outcome(case, ext_root)
    _check_dsdoctor(case, out, run_dsdoctor(case, ext_root))


if __name__ == "__main__":  # pragma: no cover - convenience: print every outcome
    sys.exit(pytest.main([__file__, "-v", "-k", "deepspeed"]))
