"""Rule docs (``dsdoctor.ruledocs``): every catalog name has What / Why / Example / Fix, its examples are executed
here (lint examples in tests/test_lint_rules.py), the fix texts agree with the fix builders, and the
``dsdoctor rules`` / ``dsdoctor rule NAME`` commands work."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

from dsdoctor.catalog import RULES
from dsdoctor.cli import main
from dsdoctor.model import Fix
from dsdoctor.ruledocs import COMMAND_ORDER, RuleExample, UnknownRule, all_docs, doc_for

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES: List[Tuple[str, int, RuleExample]] = [(d.name, i, e) for d in all_docs() for i, e in enumerate(d.examples)]


def _of(kind: str) -> List[Tuple[str, int, RuleExample]]:
    return [x for x in EXAMPLES if x[2].kind == kind]


def _ids(xs: List[Tuple[str, int, RuleExample]]) -> List[str]:
    return [f"{n}-{i}" for n, i, _ in xs]


# Each kind of example -> the test that executes it and asserts its name comes out of the command.
EXECUTED_BY: Dict[str, str] = {
    "log": "test_log_example", "check": "test_check_example", "facts": "test_facts_example",
    "verify": "test_verify_example", "smoke": "test_smoke_example", "nodes": "test_nodes_example",
    "command": "test_command_example", "estimate": "test_estimate_example",
    "lint": "tests/test_lint_rules.py::test_rule_examples",  # test_lint_examples_are_the_rules_own: the same texts
}


# ----------------------------------------------------------------------------------------------- completeness


def test_every_catalog_name_is_documented() -> None:
    docs = {d.name: d for d in all_docs()}
    assert set(docs) == set(RULES)
    for name, info in RULES.items():
        d = doc_for(name)
        assert d is docs[name] and doc_for(info.code) is d and doc_for(info.code.lower()) is d
        assert d.code == info.code and d.summary
        for part in ("what", "why", "example", "fix"):
            assert getattr(d, part).strip(), f"{name}: no {part}"
        assert d.examples, name
        assert d.group in COMMAND_ORDER and d.command in d.commands, name
        assert d.help_anchor == f"docs/rules.md#{name}"
        assert d.severity.value in ("error", "warning", "info")


def test_no_silent_gaps() -> None:
    """Every name has an executed example; an example that cannot be executed says why (none do today)."""
    for d in all_docs():
        for e in d.examples:
            assert e.kind != "none" or e.untested, f"{d.name}: an example of kind none must say why"
            assert not e.untested or e.kind == "none", f"{d.name}: untested examples are of kind none"
        assert not d.example_untested, f"{d.name} has no executed example: {d.example_untested}"
    assert {n for n, _, e in EXAMPLES if e.kind == "none"} == set()


def test_every_name_is_produced_by_an_executed_example() -> None:
    """A name documented but produced by no executed example fails here: every example's kind has a test that runs
    it and asserts the name in the output, and every catalog name has an example of such a kind."""
    kinds = {e.kind for _, _, e in EXAMPLES}
    assert kinds <= set(EXECUTED_BY), f"examples of kind {sorted(kinds - set(EXECUTED_BY))} are executed by no test"
    produced = {n for n, _, e in EXAMPLES if e.kind in EXECUTED_BY}
    assert produced == set(RULES), f"documented, produced by no executed example: {sorted(set(RULES) - produced)}"
    for kind, test in EXECUTED_BY.items():
        path, _, func = test.rpartition("::")
        assert f"def {func}(" in (ROOT / path).read_text() if path else callable(globals().get(func)), (kind, test)
    assert len(RULES) >= 115 and len(EXAMPLES) >= len(RULES), (len(RULES), len(EXAMPLES))


def test_unknown_name_suggests() -> None:
    with pytest.raises(UnknownRule) as got:
        doc_for("cuda-version-mismach")
    assert "cuda-version-mismatch" in got.value.suggestions
    with pytest.raises(LookupError):
        doc_for("DS999")


# ------------------------------------------------------------------------------------- examples: explain logs


def _subsequence(lines: List[str], of: List[str]) -> bool:
    it = iter(of)
    return all(any(ln == x for x in it) for ln in lines)


@pytest.mark.parametrize("name,i,ex", _of("log"), ids=_ids(_of("log")))
def test_log_example(name: str, i: int, ex: RuleExample, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The excerpt is lines of the fixture log, in order; `dsdoctor explain` on it diagnoses the name."""
    # as a terminal shows it (ds_report colours its [OKAY]/[NO]): the docs excerpt has no escape codes
    raw = (ROOT / ex.source).read_bytes().decode("utf-8", "surrogateescape")
    fixture = re.sub(r"\x1b\[[0-9;]*m", "", raw).split("\n")
    got = ex.text.rstrip("\n").split("\n")
    assert _subsequence(got, fixture), f"{name}: the example is not an excerpt of {ex.source}"
    log = tmp_path / "train.log"
    log.write_text(ex.text)
    rc = main(["explain", "--format", "json", str(log)])
    out = json.loads(capsys.readouterr().out)
    names = [d["name"] for d in out["diagnoses"]]
    assert name in names, names
    assert rc == (1 if any(d["severity"] == "error" for d in out["diagnoses"]) else 0)


# -------------------------------------------------------------------------------------- examples: check cases


def _expected_names(exp: Dict[str, Any]) -> set:
    names = set(exp.get("errors", [])) | set(exp.get("warnings", [])) | set(exp.get("infos", []))
    for key in ("severity", "title_contains", "first_fix", "fix_applicability", "fixes_absent"):
        names |= set(exp.get(key, {}))
    if exp.get("cause"):
        names.add(exp["cause"])
    if exp.get("probe_failed"):
        names.add("probe-failed")
    return names


@pytest.mark.parametrize("name,i,ex", _of("check"), ids=_ids(_of("check")))
def test_check_example(name: str, i: int, ex: RuleExample) -> None:
    """The fixture exists and expects the name (tests/test_check_cases.py runs every fixture)."""
    case = ROOT / ex.source
    assert case.parent == ROOT / "tests" / "cases" / "check" and case.is_file(), ex.source
    spec = tomllib.loads(case.read_text())
    assert spec.get("description")
    assert name in _expected_names(spec["expect"]), f"{ex.source} does not expect {name}"
    assert name not in spec["expect"].get("absent", [])


# ------------------------------------------------------------------------------ examples: facts, verify, smoke


@pytest.mark.parametrize("name,i,ex", _of("facts"), ids=_ids(_of("facts")))
def test_facts_example(name: str, i: int, ex: RuleExample) -> None:
    """Real facts of this machine with the example's values replaced (a limit a test cannot set for real)."""
    from dsdoctor.checks import evaluate
    from dsdoctor.probes.environment import collect

    facts = collect(sys.executable)
    for field, values in json.loads(ex.data).items():
        facts = dataclasses.replace(facts, **{field: dataclasses.replace(getattr(facts, field), **values)})
    assert name in [f.name for f in evaluate(facts).findings]


@pytest.mark.parametrize("name,i,ex", _of("verify"), ids=_ids(_of("verify")))
def test_verify_example(name: str, i: int, ex: RuleExample, tmp_path: Path) -> None:
    from dsdoctor.verify import VerifyResult, diagnose

    if ex.source:
        assert _subsequence(ex.text.rstrip("\n").split("\n"), (ROOT / ex.source).read_text().split("\n"))
    result = VerifyResult("cpu_adam", False, 3.0, 1, False, ex.text, str(tmp_path / "ext"))
    assert name in [f.name for f in diagnose(result, None).findings]


@pytest.mark.parametrize("name,i,ex", _of("smoke"), ids=_ids(_of("smoke")))
def test_smoke_example(name: str, i: int, ex: RuleExample) -> None:
    """The ranks' marker lines, read by smoke's own reader and judged by smoke.checks.report."""
    from dsdoctor.smoke.checks import report
    from dsdoctor.smoke.runner import SmokeRun, _line

    data = json.loads(ex.data)
    lines: List[str] = []
    events: List[Dict[str, Any]] = []
    for ln in ex.text.rstrip("\n").split("\n"):
        _line(ln, lines, events, None)
    run = SmokeRun(data["rc"], data["timed_out"], False, 12.0, "\n".join(lines), events, data["config"], data["nproc"])
    got = [f.name for f in report(run).findings]
    assert got and got[0] == name, got


@pytest.mark.parametrize("name,i,ex", _of("nodes"), ids=_ids(_of("nodes")))
def test_nodes_example(name: str, i: int, ex: RuleExample) -> None:
    from dsdoctor.multinode.diff import drift_findings

    assert [f.name for f in drift_findings(json.loads(ex.data))] == [name]


# ------------------------------------------------------------------------------ examples: real command lines


def _run(argv: List[str], cwd: Path) -> "subprocess.CompletedProcess[str]":
    env = dict(os.environ, HOME=str(cwd), NO_COLOR="1")
    p = subprocess.run([sys.executable, "-m", "dsdoctor", *argv], capture_output=True, text=True, cwd=cwd, env=env,
                       timeout=120)
    assert "Traceback" not in p.stderr, p.stderr
    return p


@pytest.mark.parametrize("name,i,ex", _of("command"), ids=_ids(_of("command")))
def test_command_example(name: str, i: int, ex: RuleExample, tmp_path: Path) -> None:
    data = json.loads(ex.data)
    for rel, text in data["files"].items():
        (tmp_path / rel).write_text(text)
    p = _run([sys.executable if a == "{python}" else a for a in data["argv"]], tmp_path)
    assert p.returncode != 0 and name in p.stdout + p.stderr, (p.returncode, p.stdout, p.stderr)


@pytest.mark.parametrize("name,i,ex", _of("estimate"), ids=_ids(_of("estimate")))
def test_estimate_example(name: str, i: int, ex: RuleExample, tmp_path: Path) -> None:
    argv = ex.text.split()
    assert argv[:2] == ["dsdoctor", "estimate"]
    case = tomllib.loads((ROOT / ex.source).read_text())
    assert argv[2:-2] == case["args"] and case["expect"]["rc"] == 1, "the example is the fixture's command line"
    env = dict(os.environ, HOME=str(tmp_path), PATH="/usr/bin:/bin")
    p = subprocess.run([sys.executable, "-m", "dsdoctor", *argv[1:]], capture_output=True, text=True, env=env,
                       timeout=60)
    assert p.returncode == 1 and json.loads(p.stdout)["recommended"] is None, p.stderr
    assert name in p.stdout


def test_lint_examples_are_the_rules_own() -> None:
    from dsdoctor import names as N
    from dsdoctor.lint.all_rules import REGISTRY

    for d in all_docs():
        if d.command == "lint" and d.name != N.LINT_ANALYSIS_FAILED:  # its example is 1500 terms: shown abbreviated
            assert d.examples[0].kind == "lint" and d.examples[0].text == REGISTRY[d.name].invalid[0].text.rstrip("\n")


def test_example_counts() -> None:
    """Every non-lint name has at least one example executed above; the counts the docs report."""
    executed = [x for x in EXAMPLES if x[2].kind not in ("lint", "none")]
    non_lint = {d.name for d in all_docs() if d.command != "lint"}
    assert non_lint <= {n for n, _, _ in executed}
    assert len(_of("log")) >= 30


# ----------------------------------------------------------------------------------- fixes agree with builders


def _builders() -> Dict[str, Tuple[List[Fix], Tuple[str, ...]]]:
    """name -> (the fixes the builders make, facts that must appear in both those fixes and the doc's Fix)."""
    from packaging.version import Version

    from dsdoctor import fixes as F
    from dsdoctor.explain.causes import LogFacts, Seen, cause

    def adv(name: str) -> List[Fix]:
        return cause(name).advise(Seen(), LogFacts()).fixes

    return {
        "cuda-version-mismatch": (F.cuda_mismatch_fixes(None, (13, 5), (13, 0), sole_blocker=True, gpu_visible=False)
                                  + F.toolkit_fixes((12, 1), Version("0.15.4")),
                                  ("DS_SKIP_CUDA_CHECK=1", "deepspeed>=0.19.8", "nvidia-cuda-nvcc==13.0.*",
                                   "conda install -c nvidia", "cuda-libraries-dev")),
        "cuda-toolkit-missing": (F.toolkit_fixes((13, 0), None) + F.toolkit_fixes((12, 1), None) + adv("cuda-toolkit-missing"),
                                 ("nvidia-cuda-nvcc==13.0.*", "apt install cuda-toolkit-", "deepspeed>=0.19.8")),
        "ninja-missing": (list(F.ninja_fixes(None, False, "/env/bin")), ("-m pip install ninja", "apt-get install ninja-build",
                                                                          "export PATH=")),
        "host-compiler-unsupported": ([F.compiler_fix(), F.openmp_fix(), *F.gcc_limit_fixes(12), *adv("host-compiler-unsupported")],
                                      ("apt-get install g++", "apt-get install libgomp1 libomp-dev", "export CXX=g++-",
                                       "NVCC_APPEND_FLAGS=-allow-unsupported-compiler", "unset CXX")),
        "python-headers-missing": ([F.python_headers_fix((3, 11))], ("apt-get install python3.",)),
        "cuda-libs-missing": ([F.curand_fix((12, 1)), F.curand_fix((13, 0)), F.curand_fix((12, 1), versioned="/x/libcurand.so.10")],
                              ("libcurand-dev-", "cuda-toolkit[curand]==", "ln -s libcurand.so.", "LIBRARY_PATH")),
        "torch-extensions-lock-stale": ([F.stale_lock_fix("/x/cpu_adam/lock")], ("rm -f ",)),
        "prebuilt-op-mismatch": ([F.prebuilt_reinstall_fix(None)], ("pip install --force-reinstall --no-cache-dir deepspeed",)),
        "ds-accelerator-invalid": ([F.unset_accelerator_fix()], ("unset DS_ACCELERATOR",)),
        "libaio-missing": ([F.libaio_fix()], ("apt-get install libaio-dev", "libaio-devel")),
        "shm-too-small": ([F.shm_fix(), *adv("shm-too-small")], ("--shm-size=16g", "--ipc=host", "num_workers=0")),
        "memlock-too-low": ([F.memlock_fix()], ("ulimit -l unlimited", "--ulimit memlock=-1")),
        "cuda-headers-missing": (adv("cuda-headers-missing"), ("cuda-cudart-dev cuda-libraries-dev", "cuda-toolkit-X-Y")),
        "compiler-killed": (adv("compiler-killed"), ("MAX_JOBS=1", "dmesg | grep -i 'killed process'")),
        "windows-op-build-unsupported": (adv("windows-op-build-unsupported"), ("wsl --install",)),
        "nvcc-arch-unsupported": (adv("nvcc-arch-unsupported"), ("TORCH_CUDA_ARCH_LIST", "--query-gpu=compute_cap --format=csv")),
        "libstdcxx-mismatch": (adv("libstdcxx-mismatch"), ("libstdcxx-ng>=13", "LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libstdc++.so.6")),
        "zero3-quantized-model-conflict": (adv("zero3-quantized-model-conflict"),
                                           ("bnb_4bit_quant_storage=torch.bfloat16", "bitsandbytes>=0.43.3")),
        "zero3-partitioned-param-access": (adv("zero3-partitioned-param-access"),
                                           ("deepspeed.zero.GatheredParameters(list(module.parameters()), modifier_rank=None)",)),
        "zero3-saved-partitioned-weights": (adv("zero3-saved-partitioned-weights"),
                                            ("stage3_gather_16bit_weights_on_model_save", "trainer.save_model(out)",
                                             "zero_to_fp32.py")),
        "ds-config-trainer-mismatch": (adv("ds-config-trainer-mismatch"), ('"auto"',)),
        "deepspeed-no-sync-incompat": (adv("deepspeed-no-sync-incompat"), ("gradient_accumulation_steps", "without no_sync()")),
        "launcher-mpi-discovery": (adv("launcher-mpi-discovery"),
                                   ("deepspeed --num_gpus N train.py", "torchrun --nproc-per-node N train.py",
                                    "RANK=0 LOCAL_RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=29500 python train.py")),
        "port-in-use": (adv("port-in-use"), ("deepspeed --master_port 29600 train.py", "ss -ltnp")),
        "ssh-unreachable": (adv("ssh-unreachable"), ("ssh -o BatchMode=yes", "ssh-copy-id", "mv hostfile hostfile.off")),
        "host-oom-killed": (adv("host-oom-killed"), ("dmesg -T | grep -i -E 'killed process|out of memory'", "dsdoctor estimate")),
        "gpu-oom": (adv("gpu-oom"), ('"offload_param": {"device": "cpu"}', "gradient_checkpointing=True", "dsdoctor estimate")),
        "disk-write-failed": (adv("disk-write-failed"), ("df -h <output_dir>", "save_total_limit")),
    }


def _fix_text(fixes: List[Fix]) -> str:
    return "\n".join(" ".join([f.title, *f.commands, f.reason, *(v for _, v in f.forms)]) for f in fixes)


@pytest.mark.parametrize("name", sorted(_builders()))
def test_fix_text_agrees_with_builders(name: str) -> None:
    built, facts = _builders()[name]
    text = _fix_text(built)
    doc = doc_for(name).fix
    for fact in facts:
        assert fact in text, f"{name}: the builders no longer say {fact!r}"
        assert fact in doc, f"{name}: the docs do not say {fact!r} (the builders do)"


def test_collect_fix_of_unrecognised_causes() -> None:
    from dsdoctor.explain.causes.cause import COLLECT

    for name in ("op-build-failed-cause-not-in-log", "unknown"):
        for cmd in COLLECT:
            assert cmd.split("#")[0].strip().split(" --op")[0] in doc_for(name).fix


# ------------------------------------------------------------------------------------------------ the commands


def test_rules_lists_every_name(tmp_path: Path) -> None:
    p = _run(["rules"], tmp_path)
    assert p.returncode == 0 and "\x1b[" not in p.stdout  # plain text when not a terminal
    for d in all_docs():
        assert any(ln.split()[:3] == [d.name, d.code, d.severity.value] for ln in p.stdout.splitlines()), d.name
    p = _run(["rules", "--format", "json"], tmp_path)
    got = json.loads(p.stdout)
    assert got["schema"] == 1 and [r["name"] for r in got["rules"]] == [d.name for d in all_docs()]
    assert {"name", "code", "severity", "summary", "help"} <= set(got["rules"][0])
    p = _run(["rules", "--command", "explain"], tmp_path)
    assert "cuda-version-mismatch" in p.stdout and "smoke-timeout" not in p.stdout


def test_rule_by_name_and_code(tmp_path: Path) -> None:
    for q in ("cuda-version-mismatch", "DS101", "ds101"):
        p = _run(["rule", q], tmp_path)
        assert p.returncode == 0 and p.stdout.startswith("cuda-version-mismatch (DS101, error)"), p.stdout
        heads = [ln for ln in p.stdout.splitlines() if ln in ("What", "Why", "Example", "Fix")]
        assert heads == ["What", "Why", "Example", "Fix"]
        assert "\x1b[" not in p.stdout
    p = _run(["rule", "zero3-device-map-conflict", "--format", "json"], tmp_path)
    got = json.loads(p.stdout)
    assert got["code"] == "DS307" and got["what"] and got["fix"] and got["examples"]


def test_rule_unknown_is_a_clear_error(tmp_path: Path) -> None:
    p = _run(["rule", "cuda-version-mismach"], tmp_path)
    assert p.returncode == 2 and not p.stdout
    assert "unknown rule 'cuda-version-mismach'" in p.stderr and "did you mean cuda-version-mismatch" in p.stderr
    p = _run(["rule", "DS1O1"], tmp_path)
    assert p.returncode == 2 and "DS101" in p.stderr
    p = _run(["rules", "--format", "xml"], tmp_path)
    assert p.returncode == 2 and "invalid choice: 'xml' (choose from 'text', 'json')" in p.stderr


def test_rule_rich_output_on_a_terminal() -> None:
    """On a terminal (a stream that says it is one) the same sections are rendered with rich."""
    import io

    from dsdoctor.commands import rule

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Tty()
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    old = dict(os.environ)
    os.environ.clear()
    os.environ.update(env, TERM="xterm")
    try:
        assert rule.run(rule.Options(name="DS112"), stream=out).exit_code == 0
    finally:
        os.environ.clear()
        os.environ.update(old)
    text = out.getvalue()
    assert "shm-too-small" in text and "What." in text and "--shm-size=16g" in text


def test_markdown_has_every_name_once() -> None:
    from dsdoctor.ruledocs.markdown import render

    md = render()
    for d in all_docs():
        assert md.count(f'<a id="{d.name}"></a>') == 1, d.name
        assert f"### `{d.name}` ({d.code}," in md
