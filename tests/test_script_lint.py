"""Script lint on fixture files (one file per case, expectations in its header), `dsdoctor fix` properties,
suppression, adversarial input, and laziness (libcst is imported only when a .py file is linted)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List, Set, Tuple

import pytest

from dsdoctor.lint import lint

CASES = Path(__file__).parent / "cases" / "lint-scripts"
FILES = sorted(CASES.glob("*.py"))
Z3 = '{"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 3}}\n'


def _setup(case: Path, tmp: Path) -> Tuple[Path, List[str]]:
    head = case.read_text().splitlines()[0]
    m = re.search(r"target=(\S+) zero3=(\w+)", head)
    assert m, f"{case}: first line must be '# dsdoctor-case: target=... zero3=...'"
    dst = tmp / case.name
    shutil.copy(case, dst)
    if m.group(2) in ("project", "file"):  # the ZeRO-3 config (file: only the script names it)
        (tmp / "ds_z3.json").write_text(Z3)
    if m.group(2) == "project":  # and the launch script that uses it, as in a real repo
        (tmp / "run.sh").write_text(f"deepspeed --num_gpus 8 {case.name} --deepspeed ds_z3.json\n")
    return dst, m.group(1).split(",")  # target=transformers==X[,deepspeed==Y]


def _expected(case: Path) -> Set[Tuple[str, int, str]]:
    out = set()
    for m in re.finditer(r"^# expect: ([\w-]+)@(\d+) (\w+)$", case.read_text(), re.M):
        out.add((m.group(1), int(m.group(2)), m.group(3)))
    return out


@pytest.mark.parametrize("case", FILES, ids=[f.stem for f in FILES])
def test_case(case: Path, tmp_path: Path) -> None:
    path, targets = _setup(case, tmp_path)
    res = lint([str(tmp_path)], targets=targets)
    got = {(f.name, f.line or 0, f.severity.value) for f in res.report.findings if f.path == str(path)}
    assert got == _expected(case)


def test_fix_preserves_formatting_and_is_idempotent(tmp_path: Path) -> None:
    from dsdoctor.lint.fix import plan, write

    path, targets = _setup(CASES / "qwen_finetune.py", tmp_path)
    before = path.read_text()
    changes = plan(lint([str(tmp_path)], targets=targets).edits)
    write(changes)
    after = path.read_text()
    assert "device_map=None if is_deepspeed_zero3_enabled() else device_map," in after
    assert "low_cpu_mem_usage=not is_deepspeed_zero3_enabled()," in after
    assert after.count("import is_deepspeed_zero3_enabled") == 1
    changed = [ln for ln in after.splitlines() if ln not in before.splitlines()]
    assert len(changed) == 3  # the two arguments and one import: every other line (comments too) is kept
    res = lint([str(tmp_path)], targets=targets)
    left = [f.name for f in res.report.findings if f.path == str(path)]
    assert left == ["zero3-unsupported-quantization"]  # GPTQ under ZeRO-3 has no automatic fix
    assert plan(res.edits) == {}


def _cli(*args: str, cwd: Path) -> "subprocess.CompletedProcess[str]":
    return subprocess.run([sys.executable, "-m", "dsdoctor", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120)


def test_fix_cli_diff_writes_nothing_and_fix_touches_only_given_paths(tmp_path: Path) -> None:
    proj = tmp_path / "proj"
    proj.mkdir()
    path, _ = _setup(CASES / "qwen_finetune.py", proj)
    other = tmp_path / "other.py"
    shutil.copy(CASES / "qwen_finetune.py", other)
    (proj / "run.sh").write_text("deepspeed ../other.py --deepspeed ds_z3.json\n" + (proj / "run.sh").read_text())
    original = path.read_text()
    d = _cli("fix", str(proj), "--diff", "--target", "transformers==4.46.3", cwd=tmp_path)
    assert d.returncode == 1 and "+from transformers.integrations.deepspeed import" in d.stdout
    assert "other.py" not in d.stdout and path.read_text() == original
    f = _cli("fix", str(proj), "--target", "transformers==4.46.3", cwd=tmp_path)
    assert f.returncode == 1 and "other.py" in f.stdout  # still reported, never edited: it is outside proj/
    assert path.read_text() != original and other.read_text() == (CASES / "qwen_finetune.py").read_text()
    assert not list(proj.glob(".dsdoctor-*"))  # atomic writes leave no temp file


def test_unsafe_fix_only_with_flag(tmp_path: Path) -> None:
    path, _ = _setup(CASES / "chinese_llama_alpaca_sft.py", tmp_path)
    original = path.read_text()
    _cli("fix", str(tmp_path), "--target", "transformers==5.24.0", cwd=tmp_path)
    assert path.read_text() == original  # a dead argument on 5.x: its edit is unsafe
    _cli("fix", str(tmp_path), "--target", "transformers==5.24.0", "--unsafe-fixes", cwd=tmp_path)
    assert "low_cpu_mem_usage=not is_deepspeed_zero3_enabled()," in path.read_text()
    assert "PeftModel.from_pretrained(model, model_args.peft_path, low_cpu_mem_usage=True)" in path.read_text()


def test_never_writes_a_file_that_does_not_parse(tmp_path: Path) -> None:
    from dsdoctor.lint.fix import plan
    from dsdoctor.lint.rule import Edit

    p = tmp_path / "t.py"
    p.write_text("x = f(a=1)\n")
    assert plan([Edit(str(p), 6, 9, "a=(", "safe")]) == {}
    assert plan([Edit(str(p), 6, 9, "a=2", "safe")]) != {}


def test_bad_target_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "t.py").write_text("x = 1\n")
    p = _cli("lint", str(tmp_path), "--target", "transformers>=4", cwd=tmp_path)
    assert p.returncode == 2 and "NAME==VERSION" in p.stderr and "Traceback" not in p.stderr


ADVERSARIAL = {
    "syntax.py": b"def f(:\n    pass\n",
    "py2.py": b"print 'hello'\nexcept Exception, e:\n",
    "latin1_undeclared.py": "s = 'caf\u00e9'\n".encode("latin-1"),
    "nul.py": b"x = 1\x00\ny = 2\n",  # a NUL inside the code (trailing NUL padding: test_lint_source.py)
}


def test_adversarial_files_are_per_file_errors_and_the_run_goes_on(tmp_path: Path) -> None:
    for name, data in ADVERSARIAL.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "latin1_declared.py").write_bytes("# -*- coding: latin-1 -*-\ns = 'caf\u00e9'\n"
                                                  "from transformers import AutoModelForCausalLM, Trainer\n"
                                                  "m = AutoModelForCausalLM.from_pretrained('m', device_map='auto')\n"
                                                  .encode("latin-1"))
    big = ["import deepspeed", "from transformers import AutoModelForCausalLM"] + [f"x{i} = {i}" for i in range(20000)]
    big.append("m = AutoModelForCausalLM.from_pretrained('m', device_map='auto')")
    (tmp_path / "big.py").write_text("\n".join(big) + "\n")
    (tmp_path / "ds_z3.json").write_text(Z3)
    (tmp_path / "run.sh").write_text("deepspeed big.py --deepspeed ds_z3.json\n"
                                     "deepspeed latin1_declared.py --deepspeed ds_z3.json\n")
    res = lint([str(tmp_path)], targets=["transformers==4.46.3"])
    by = {(Path(f.path or "").name, f.name) for f in res.report.findings}
    for name in ADVERSARIAL:
        assert (name, "script-unparseable") in by, (name, by)
    assert ("big.py", "zero3-device-map-conflict") in by
    assert ("latin1_declared.py", "zero3-device-map-conflict") in by
    py2 = next(f for f in res.report.findings if (f.path or "").endswith("py2.py"))
    assert "Python 2" in py2.title
    p = _cli("lint", str(tmp_path), "--fix", "--target", "transformers==4.46.3", cwd=tmp_path)
    assert "Traceback" not in p.stderr and p.returncode == 1
    assert (tmp_path / "latin1_declared.py").read_bytes().count(b"is_deepspeed_zero3_enabled") == 0  # not UTF-8: no edit
    assert (tmp_path / "syntax.py").read_bytes() == ADVERSARIAL["syntax.py"]


def test_check_does_not_import_libcst_without_python_files(tmp_path: Path) -> None:
    (tmp_path / "ds.json").write_text(Z3)
    code = ("import sys; from dsdoctor.lint import lint; lint([sys.argv[1]]); "
            "print('libcst' in sys.modules)")
    p = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert p.stdout.strip() == "False", p.stderr


def test_pyproject_tool_section(tmp_path: Path) -> None:
    case = CASES / "unknown_context_trainer.py"
    shutil.copy(case, tmp_path / case.name)
    (tmp_path / "pyproject.toml").write_text('[tool.dsdoctor]\nzero3 = true\ntarget = ["transformers==4.46.3"]\n')
    res = lint([str(tmp_path)])
    got = {(f.name, f.severity.value) for f in res.report.findings}
    assert got == {("zero3-device-map-conflict", "error")}  # zero3 known from pyproject: an error, not a warning
    (tmp_path / "pyproject.toml").write_text('[tool.dsdoctor]\nzero3 = true\nignore = ["zero3-device-map-conflict"]\n')
    assert not lint([str(tmp_path)]).report.findings


@pytest.mark.parametrize("kind", ["valid", "invalid"])
def test_inline_config_variants(kind: str, tmp_path: Path) -> None:
    """Config rules applied to a ds_config dict in a script (registered as variants of the config rules' names)."""
    from dsdoctor.lint import lint_target, make_target
    from dsdoctor.lint.all_rules import VARIANTS
    from dsdoctor.lint.target import Usage

    assert VARIANTS
    for rule in VARIANTS:
        for ex in (rule.valid if kind == "valid" else rule.invalid):
            p = tmp_path / "train.py"
            p.write_text(ex.text)
            got = [h.finding for h in lint_target(make_target(str(p), "python", Usage()))]
            names = [f.name for f in got]
            assert (rule.name in names) == (kind == "invalid"), (ex.text, names)
            for f in got:
                assert f.path == str(p) and f.line == 2  # the key's line inside the script


def test_zero_stage_option(tmp_path: Path) -> None:
    import json

    shutil.copy(CASES / "unknown_context_trainer.py", tmp_path / "t.py")
    sev = {}
    for stage in ("3", "2"):
        p = _cli("lint", str(tmp_path), "--zero-stage", stage, "--target", "transformers==4.46.3", "--format", "json",
                 cwd=tmp_path)
        sev[stage] = [(f["name"], f["severity"]) for f in json.loads(p.stdout)["findings"]]
    assert sev == {"3": [("zero3-device-map-conflict", "error")], "2": []}


def test_libcst_not_imported_for_python_files_no_rule_reads(tmp_path: Path) -> None:
    (tmp_path / "util.py").write_text("def f(x):\n    return x + 1\n")
    code = "import sys; from dsdoctor.lint import lint; lint([sys.argv[1]]); print('libcst' in sys.modules)"
    p = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert p.stdout.strip() == "False", p.stderr


@pytest.mark.parametrize("case", FILES, ids=[f.stem for f in FILES])
def test_fix_all_is_idempotent_and_parses(case: Path, tmp_path: Path) -> None:
    """Every fixture: apply every fix (unsafe too), then a second pass has nothing left to change."""
    import libcst

    from dsdoctor.lint.fix import plan, write

    path, targets = _setup(case, tmp_path)
    write(plan(lint([str(tmp_path)], targets=targets).edits, unsafe=True))
    libcst.parse_module(path.read_text())
    assert plan(lint([str(tmp_path)], targets=targets).edits, unsafe=True) == {}


def test_fixed_files_lint_clean_where_a_fix_exists(tmp_path: Path) -> None:
    """After `dsdoctor fix --unsafe-fixes`, findings left are only those without an automatic fix."""
    from dsdoctor.lint.fix import plan, write

    no_fix = {"zero3-unsupported-quantization", "prepare-kbit-under-zero3", "zero3-unsafe-save",
              "hf-deepspeed-config-not-kept", "model-loaded-before-ds-config",
              "qlora-quant-storage-missing", "zero3-save-on-rank0-only",
              "peft-checkpointing-reentrant"}  # the storage is inserted only when the load's dtype is written
    for case in FILES:
        d = tmp_path / case.stem
        d.mkdir()
        path, targets = _setup(case, d)
        write(plan(lint([str(d)], targets=targets).edits, unsafe=True))
        left = {f.name for f in lint([str(d)], targets=targets).report.findings if f.path == str(path)}
        assert left <= no_fix, (case.name, left)


def test_zero3_from_accelerate_yaml_and_facts(tmp_path: Path) -> None:
    shutil.copy(CASES / "unknown_context_trainer.py", tmp_path / "t.py")
    (tmp_path / "accelerate_config.yaml").write_text("compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\n"
                                                     "deepspeed_config:\n  zero_stage: 3\n  offload_param_device: cpu\n")
    res = lint([str(tmp_path)], targets=["transformers==4.46.3"])
    got = [(f.name, f.severity.value) for f in res.report.findings if (f.path or "").endswith("t.py")]
    assert got == [("zero3-device-map-conflict", "error")]
    assert res.report.facts["transformers"] == "4.46.3" and res.report.facts["zero3"] is True
    assert "accelerate_config.yaml" in res.report.facts["zero3_source"]


def test_zero3_context_from_what_launches_the_script(tmp_path: Path) -> None:
    """ZeRO-3 only for the scripts a launch command starts with a stage-3 config (and the modules they import);
    a file no launch reaches, in a project that has launches, gets no ZeRO-3 finding (lint/launched.py)."""
    load = "from transformers import AutoModelForCausalLM, Trainer\n" \
           "model = AutoModelForCausalLM.from_pretrained('m', device_map='auto')\n"
    (tmp_path / "ds_z3.json").write_text(Z3)
    (tmp_path / "ds_z2.json").write_text('{"zero_optimization": {"stage": 2}}\n')
    (tmp_path / "z2.py").write_text(load)
    (tmp_path / "z3.py").write_text("import loader\n" + load)
    (tmp_path / "loader.py").write_text(load)
    (tmp_path / "other.py").write_text(load)
    (tmp_path / "run.sh").write_text("deepspeed z2.py --deepspeed ds_z2.json\ndeepspeed --num_gpus 2 z3.py --deepspeed ds_z3.json\n")
    res = lint([str(tmp_path)], targets=["transformers==4.46.3"])
    got = {(Path(f.path or "").name, f.severity.value) for f in res.report.findings if f.name == "zero3-device-map-conflict"}
    assert got == {("z3.py", "error"), ("loader.py", "error")}
