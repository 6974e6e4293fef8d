"""The Python API: dsdoctor.preflight(), DsDoctorError, the probe cache, dsdoctor.hf.zero3_safe_kwargs.

preflight() checks the interpreter and environment it runs in, so each case runs it in a subprocess whose
sys.path holds a fixture site-packages (real-format torch/version.py and DeepSpeed metadata whose
``__init__`` raises if imported: an import would fail the case) and whose PATH holds only the tools the
case names. The cache tests use stub tools that count their own invocations in a file."""

from __future__ import annotations

import json
import os
import pickle
import stat
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest
from envfixture import NVCC_V, make_bin, make_site

from dsdoctor.api import DICT_LABEL, DsDoctorError, config_rules, format_findings
from dsdoctor.hf import ZeRO3KwargsWarning, zero3_enabled, zero3_safe_kwargs
from dsdoctor.knowledge import transformers as TF
from dsdoctor.lint.all_rules import rules_for
from dsdoctor.model import Finding, Fix, Report, Severity
from dsdoctor.probes.cache import FILE_NAME, ProbeCache
from dsdoctor.probes.environment import collect

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"
HEAVY = ("torch", "deepspeed", "transformers", "rich", "typer", "libcst")

GOOD = {"train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 4, "bf16": {"enabled": True},
        "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}},
        "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"},
                              "stage3_gather_16bit_weights_on_model_save": True}}

CHILD = textwrap.dedent("""
    import json, sys
    import dsdoctor
    args = json.loads(sys.argv[1])
    out = {}
    try:
        rep = dsdoctor.preflight(*args.get("args", []), **args.get("kwargs", {}))
        out["ok"] = True
    except dsdoctor.DsDoctorError as exc:
        rep = exc.report
        out.update(ok=False, message=str(exc), raised=[f.name for f in exc.findings])
    out["findings"] = [[f.name, f.severity.value, f.path, f.line] for f in rep.findings]
    out["facts"] = {k: v for k, v in rep.facts.items() if k in ("nvcc", "compiler", "deepspeed", "torch", "preflight")}
    out["modules"] = sorted(m for m in sys.modules if m.split(".")[0] in %r)
    print("RESULT " + json.dumps(out))
""" % (HEAVY,))


def _stub(path: Path, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def _counting_nvcc(home: Path, release: str, counter: Path) -> Path:
    text = NVCC_V.format(mm=release, full=release + ".0").rstrip("\n").split("\n")
    return _stub(home / "bin" / "nvcc", f"echo x >> '{counter}'\n" + "".join(f"echo '{ln}'\n" for ln in text))


def _count(counter: Path) -> int:
    return len(counter.read_text().splitlines()) if counter.exists() else 0


class Env:
    """A fixture environment for a preflight subprocess."""

    def __init__(self, tmp: Path, site: Optional[Dict[str, Any]] = None, machine: Optional[Dict[str, Any]] = None):
        self.tmp = tmp
        make_site(site if site is not None else {"torch": "2.14.1", "deepspeed": "0.19.8"}, tmp / "site")
        self.env = {
            "PATH": os.pathsep.join(make_bin(machine or {}, tmp / "bin")),
            "HOME": str(tmp / "home"),
            "XDG_CACHE_HOME": str(tmp / "xdg"),
            "PYTHONPATH": os.pathsep.join((str(tmp / "site"), str(SRC))),
            "TORCH_EXTENSIONS_DIR": str(tmp / "ext"),
            "LANG": "C.UTF-8",
        }

    def preflight(self, *args: Any, extra_env: Optional[Dict[str, str]] = None, **kwargs: Any) -> Dict[str, Any]:
        env = dict(self.env, **(extra_env or {}))
        p = subprocess.run([sys.executable, "-c", CHILD, json.dumps({"args": list(args), "kwargs": kwargs})],
                           capture_output=True, text=True, env=env, timeout=60)
        assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
        line = next(ln for ln in p.stdout.splitlines() if ln.startswith("RESULT "))
        res: Dict[str, Any] = json.loads(line[7:])
        return res


def _config(tmp: Path, cfg: Dict[str, Any], name: str = "ds_config.json") -> str:
    path = tmp / name
    path.write_text(json.dumps(cfg, indent=2))
    return str(path)


# ------------------------------------------------------------------------------------------ import cost


def test_import_dsdoctor_imports_nothing_else() -> None:
    code = "import json, sys, dsdoctor; print(json.dumps(sorted(sys.modules)))"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                       env=dict(os.environ, PYTHONPATH=str(SRC)))
    mods = json.loads(p.stdout)
    assert [m for m in mods if m.startswith("dsdoctor")] == ["dsdoctor"]
    assert not [m for m in mods if m.split(".")[0] in (*HEAVY, "packaging")]


def test_lazy_attributes_are_the_api() -> None:
    import dsdoctor

    assert dsdoctor.preflight is __import__("dsdoctor.api").api.preflight
    assert dsdoctor.DsDoctorError is DsDoctorError and issubclass(DsDoctorError, RuntimeError)
    assert dsdoctor.hf.zero3_safe_kwargs is zero3_safe_kwargs
    assert {"preflight", "DsDoctorError", "hf"} <= set(dir(dsdoctor))
    with pytest.raises(AttributeError):
        dsdoctor.nope  # noqa: B018


def test_py_typed_is_packaged() -> None:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python < 3.11
        import tomli as tomllib  # type: ignore[no-redef]

    assert (SRC / "dsdoctor" / "py.typed").is_file()
    tool = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert tool["packages"]["find"]["where"] == ["src"] and "py.typed" in tool["package-data"]["dsdoctor"]


# --------------------------------------------------------------------------------------------- preflight


def test_healthy_returns_the_report_and_imports_nothing_heavy(tmp_path: Path) -> None:
    env = Env(tmp_path)
    res = env.preflight(_config(tmp_path, GOOD))
    assert res["ok"], res.get("message")
    assert not [f for f in res["findings"] if f[1] == "error"]
    assert res["modules"] == []  # the fixture torch/deepspeed raise on import: none was imported either
    assert res["facts"]["deepspeed"] == "0.19.8" and res["facts"]["torch"] == "2.14.1"


def test_one_error_lists_environment_and_config_causes_with_fixes(tmp_path: Path) -> None:
    env = Env(tmp_path, machine={"ninja_exe": False})
    cfg = dict(GOOD, train_batch_size=16)  # 16 != 2 * 4 * 3
    res = env.preflight(_config(tmp_path, cfg), extra_env={"WORLD_SIZE": "3"})
    assert not res["ok"]
    assert set(res["raised"]) == {"ninja-missing", "batch-size-mismatch"}
    msg = res["message"]
    assert msg.startswith("dsdoctor.preflight found 2 error(s) before DeepSpeed started")
    assert "ninja-missing (DS104, error)" in msg and "batch-size-mismatch (DS406, error) at " in msg
    assert "world size from WORLD_SIZE (set by the launcher)" in msg
    assert "fix 1: " in msg and "\n        $ " in msg  # exact commands
    assert f"{tmp_path / 'ds_config.json'}:" in msg  # file:line:col of the config key
    assert res["modules"] == []


def test_dict_config_is_linted_without_positions(tmp_path: Path) -> None:
    env = Env(tmp_path)
    res = env.preflight(dict(GOOD, train_batch_size=7), world_size=1)
    assert not res["ok"] and res["raised"] == ["batch-size-mismatch"]
    assert [f for f in res["findings"] if f[0] == "batch-size-mismatch"] == [["batch-size-mismatch", "error", DICT_LABEL, None]]
    assert "world size from preflight(world_size=...)" in res["message"]


def test_raise_on_warning_and_ignore(tmp_path: Path) -> None:
    env = Env(tmp_path)
    cfg = _config(tmp_path, dict(GOOD, bf16={"enabled": "auto"}))  # "auto" under raw DeepSpeed: dropped silently
    quiet = env.preflight(cfg, loaded_by="deepspeed", ignore=["memlock-too-low", "shm-too-small"])
    assert quiet["ok"] and ["ds-config-auto-without-trainer", "warning", cfg, 5] in quiet["findings"]
    loud = env.preflight(cfg, loaded_by="deepspeed", raise_on="warning", ignore=["memlock-too-low", "shm-too-small"])
    assert not loud["ok"] and loud["raised"] == ["ds-config-auto-without-trainer"]
    assert "1 warning(s)" in loud["message"]
    trainer = env.preflight(cfg, loaded_by="trainer", raise_on="warning", ignore=["memlock-too-low", "shm-too-small"])
    assert trainer["ok"], trainer["message"]  # the Trainer fills "auto"


def test_missing_packages_are_errors(tmp_path: Path) -> None:
    res = Env(tmp_path, site={}).preflight()
    assert not res["ok"] and res["raised"] == ["package-missing", "package-missing"]
    assert "pip install" in res["message"]


def test_unreadable_config_is_a_finding(tmp_path: Path) -> None:
    res = Env(tmp_path).preflight(str(tmp_path / "missing.json"))
    assert not res["ok"] and res["raised"] == ["ds-config-invalid"]


@pytest.mark.parametrize("kwargs, exc", [
    ({"config": 3}, TypeError),
    ({"raise_on": "info"}, ValueError),
    ({"ignore": "ninja-missing"}, TypeError),
    ({"ignore": ["no-such-rule"]}, ValueError),
    ({"world_size": 0}, ValueError),
    ({"loaded_by": "Trainer"}, ValueError),
])
def test_bad_arguments(kwargs: Dict[str, Any], exc: type) -> None:
    import dsdoctor

    with pytest.raises(exc, match="dsdoctor.preflight"):
        dsdoctor.preflight(**kwargs)


def test_config_rules_are_lints_ds_config_rules() -> None:
    assert {r.name for r in config_rules()} == {r.name for r in rules_for("ds_config")}


def test_error_is_picklable_and_message_lists_fixes() -> None:
    f = Finding("ninja-missing", Severity.ERROR, "ninja not found", fixes=(
        Fix("Install ninja", commands=("python -m pip install ninja",)),
        Fix("Set it", commands=("export X=1",), forms=(("in-script", 'import os; os.environ["X"] = "1"'),)),
        Fix("third"), Fix("fourth")))
    err = DsDoctorError([f], Report(facts={"python": "/p", "python_version": "3.11.7", "deepspeed": "0.19.8"}))
    again = pickle.loads(pickle.dumps(err))
    assert str(again) == str(err) and again.findings == [f]
    msg = str(err)
    assert "[1] ninja-missing (DS104, error): ninja not found" in msg
    assert "    fix 1: Install ninja\n        $ python -m pip install ninja" in msg
    assert 'or in the script: import os; os.environ["X"] = "1"' in msg
    assert "fix 3: third" in msg and "fourth" not in msg and "1 more fix(es)" in msg
    assert "deepspeed 0.19.8" in msg.splitlines()[0]
    assert format_findings([], None).startswith("dsdoctor.preflight found no problems")


# ------------------------------------------------------------------------------------------ probe cache


def test_cache_reused_across_processes_and_invalidated_by_nvcc_and_cuda_home(tmp_path: Path) -> None:
    env = Env(tmp_path, site={"torch": "2.14.1", "torch_cuda": "12.1", "deepspeed": "0.19.8"})
    counter = tmp_path / "nvcc-runs"
    nvcc = _counting_nvcc(tmp_path / "cuda", "12.1", counter)
    cuda = {"CUDA_HOME": str(tmp_path / "cuda")}
    first = env.preflight(extra_env=cuda, ignore=["memlock-too-low", "shm-too-small"])
    assert _count(counter) == 1 and first["facts"]["preflight"]["cache"]["misses"] >= 1
    second = env.preflight(extra_env=cuda, ignore=["memlock-too-low", "shm-too-small"])
    assert _count(counter) == 1, "nvcc ran again with nothing changed"
    assert second["facts"]["preflight"]["cache"]["misses"] == 0 and second["findings"] == first["findings"]
    assert (tmp_path / "xdg" / "dsdoctor" / FILE_NAME).is_file()

    st = nvcc.stat()
    os.utime(nvcc, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))  # touched: probed again
    env.preflight(extra_env=cuda)
    assert _count(counter) == 2
    _counting_nvcc(tmp_path / "cuda", "12.4", counter)  # reinstalled toolkit: new release is seen
    third = env.preflight(extra_env=cuda, ignore=["memlock-too-low", "shm-too-small"])
    assert _count(counter) == 3 and third["facts"]["nvcc"] == "12.4" and first["facts"]["nvcc"] == "12.1"

    other_counter = tmp_path / "other-runs"
    _counting_nvcc(tmp_path / "cuda-b", "12.1", other_counter)
    env.preflight(extra_env={"CUDA_HOME": str(tmp_path / "cuda-b")})
    env.preflight(extra_env={"CUDA_HOME": str(tmp_path / "cuda-b")})
    assert _count(other_counter) == 1 and _count(counter) == 3
    env.preflight(extra_env=dict(cuda, DSDOCTOR_NO_CACHE="1"))
    env.preflight(extra_env=cuda, cache=False)
    assert _count(counter) == 5


def _counting_cxx(path: Path, counter: Path, omp: Path) -> Path:
    return _stub(path, f"echo \"$1\" >> '{counter}'\ncase \"$1\" in\n"
                 "  --version) echo 'c++ (GCC) 12.2.0' ;;\n"
                 f"  -print-file-name=*) echo '{omp}' ;;\nesac\n")


def test_cache_compiler_keyed_by_cxx_path_and_gcc_search_vars(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """collect() in this process with an explicit environment: the same cache the preflight uses."""
    omp = tmp_path / "lib" / "libgomp.so"
    omp.parent.mkdir()
    omp.write_text("")
    counter = tmp_path / "cxx-runs"
    _counting_cxx(tmp_path / "bin" / "c++", counter, omp)
    _counting_cxx(tmp_path / "bin2" / "g++-x", counter, omp)
    env = {"PATH": f"{tmp_path / 'bin'}:{tmp_path / 'bin2'}", "HOME": str(tmp_path)}
    for var in ("GCC_EXEC_PREFIX", "COMPILER_PATH", "LIBRARY_PATH"):
        monkeypatch.delenv(var, raising=False)

    def run(extra: Optional[Dict[str, str]] = None) -> List[str]:
        cache = ProbeCache(str(tmp_path / "cache"))
        facts = collect(env=dict(env, **(extra or {})), cache=cache)
        cache.save()
        assert facts.compiler.openmp == str(omp) and facts.compiler.version == (12, 2, 0)
        return counter.read_text().split()

    assert run() == ["--version", "-print-file-name=libgomp.so"]
    assert len(run()) == 2  # both cached
    monkeypatch.setenv("LIBRARY_PATH", str(tmp_path / "lib"))  # gcc's library search changed
    assert run()[2:] == ["-print-file-name=libgomp.so"]
    assert len(run({"CXX": "g++-x"})) == 5  # another compiler: both probes again
    assert len(run({"CXX": "g++-x"})) == 5
    omp.unlink()  # the cached runtime path vanished: not trusted any more
    cache = ProbeCache(str(tmp_path / "cache"))
    facts = collect(env=dict(env, CXX="g++-x"), cache=cache)
    assert counter.read_text().split()[-1] == "-print-file-name=libgomp.so" and facts.compiler.openmp is None


def test_failed_probes_are_not_cached(tmp_path: Path) -> None:
    counter = tmp_path / "runs"
    _stub(tmp_path / "cuda" / "bin" / "nvcc", f"echo x >> '{counter}'\nexit 3\n")
    for _ in range(2):
        cache = ProbeCache(str(tmp_path / "cache"))
        facts = collect(env={"PATH": "/nonexistent", "CUDA_HOME": str(tmp_path / "cuda"), "HOME": str(tmp_path)}, cache=cache)
        cache.save()
        assert facts.nvcc is not None and facts.nvcc.release is None
    assert _count(counter) == 2


def test_unusable_cache_is_ignored(tmp_path: Path) -> None:
    env = Env(tmp_path)
    (tmp_path / "xdg" / "dsdoctor").mkdir(parents=True)
    (tmp_path / "xdg" / "dsdoctor" / FILE_NAME).write_bytes(b"\xff{not json")
    res = env.preflight(_config(tmp_path, GOOD))
    assert res["ok"]
    json.loads((tmp_path / "xdg" / "dsdoctor" / FILE_NAME).read_text())  # replaced by a valid file
    blocked = tmp_path / "file-not-dir"
    blocked.write_text("")
    res = env.preflight(_config(tmp_path, GOOD), extra_env={"XDG_CACHE_HOME": str(blocked)})
    assert res["ok"]


# ---------------------------------------------------------------------------------------------------- hf


def _safe(kwargs: Dict[str, Any], **kw: Any) -> "tuple[Dict[str, Any], List[str]]":
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        out = zero3_safe_kwargs(kwargs, **kw)
    assert all(issubclass(w.category, ZeRO3KwargsWarning) for w in got)
    return out, [str(w.message) for w in got]


def test_zero3_safe_kwargs_4x_drops_both() -> None:
    kwargs = {"device_map": "auto", "low_cpu_mem_usage": True, "torch_dtype": "bfloat16"}
    out, msgs = _safe(kwargs, zero3=True, transformers_version="4.46.3")
    assert out == {"torch_dtype": "bfloat16"} and kwargs["device_map"] == "auto"  # input untouched
    assert len(msgs) == 2
    assert "dropped device_map='auto'" in msgs[0] and TF.MSG_ZERO3_COMBINED in msgs[0] and "Transformers 4.46.3" in msgs[0]
    assert "dropped low_cpu_mem_usage=True" in msgs[1] and TF.MSG_ZERO3_COMBINED in msgs[1]


def test_zero3_safe_kwargs_5x_keeps_the_ignored_low_cpu_mem_usage() -> None:
    out, msgs = _safe({"device_map": {"": 0}, "low_cpu_mem_usage": True}, zero3=True, transformers_version="5.24.0")
    assert out == {"low_cpu_mem_usage": True}
    assert len(msgs) == 1 and TF.MSG_ZERO3_DEVICE_MAP in msgs[0] and "device_map={'': 0}" in msgs[0]


def test_zero3_safe_kwargs_unknown_version_drops_both() -> None:
    out, msgs = _safe({"device_map": "cpu", "low_cpu_mem_usage": 1}, zero3=True, transformers_version="not-a-version")
    assert out == {} and len(msgs) == 2 and "the version here is unknown" in msgs[0]
    assert "raises under ZeRO-3 in Transformers 4.11.0-4.50" in msgs[1]


@pytest.mark.parametrize("kwargs", [{"device_map": None, "low_cpu_mem_usage": False}, {}, {"torch_dtype": "auto"}])
def test_zero3_safe_kwargs_leaves_safe_arguments(kwargs: Dict[str, Any]) -> None:
    assert _safe(kwargs, zero3=True, transformers_version="4.46.3") == (kwargs, [])


def test_zero3_safe_kwargs_without_zero3_changes_nothing() -> None:
    kwargs = {"device_map": "auto", "low_cpu_mem_usage": True}
    assert _safe(kwargs, zero3=False) == (kwargs, [])
    if "transformers" not in sys.modules:  # this dev environment never imports it
        assert zero3_enabled() is None
        assert _safe(kwargs) == (kwargs, [])
    with pytest.raises(TypeError):
        zero3_safe_kwargs([("device_map", "auto")], zero3=True)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------------- typing

USER_SCRIPT = '''
from __future__ import annotations

from typing import Any, Dict, List

import dsdoctor
from dsdoctor.hf import zero3_safe_kwargs


def main() -> int:
    try:
        report: dsdoctor.Report = dsdoctor.preflight({"train_batch_size": 8}, raise_on="warning", world_size=2)
    except dsdoctor.DsDoctorError as exc:
        names: List[str] = [f.name for f in exc.findings]
        return len(names)
    kwargs: Dict[str, Any] = zero3_safe_kwargs({"device_map": "auto"}, transformers_version="4.46.3")
    return len(report.findings) + len(kwargs)
'''


def test_users_type_check_against_the_api(tmp_path: Path) -> None:
    """py.typed: a user's `mypy --strict` sees the API's types (and rejects a wrong raise_on)."""
    pytest.importorskip("mypy")
    (tmp_path / "user.py").write_text(USER_SCRIPT)
    (tmp_path / "bad.py").write_text('import dsdoctor\n\ndsdoctor.preflight(raise_on="fatal")\n')
    env = dict(os.environ, MYPYPATH=str(SRC))
    ok = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "user.py"], cwd=tmp_path,
                        capture_output=True, text=True, env=env)
    assert ok.returncode == 0, ok.stdout
    bad = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "bad.py"], cwd=tmp_path,
                         capture_output=True, text=True, env=env)
    assert bad.returncode == 1 and "Literal['error', 'warning']" in bad.stdout, bad.stdout


def test_error_message_is_redacted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The error text quotes the environment (fix commands, evidence): secrets never reach a traceback or log."""
    from dsdoctor import DsDoctorError
    from dsdoctor.model import Finding, Fix, Severity

    secret = "hf_QwErTyUiOpAsDfGhJkLzXcVbNm123456"
    monkeypatch.setenv("HF_TOKEN", secret)
    f = Finding("package-missing", Severity.ERROR, f"seen HF_TOKEN={secret} in the launcher environment",
                fixes=(Fix("re-export", commands=(f"export WANDB_API_KEY={secret}",)),))
    msg = str(DsDoctorError([f]))
    assert secret not in msg and "package-missing" in msg and "[REDACTED]" in msg
