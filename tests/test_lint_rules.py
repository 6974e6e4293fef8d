"""Every lint rule's own valid/invalid examples are its tests (the same examples document it in docs/rules.md)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional, Tuple

import pytest
from packaging.version import Version

from dsdoctor import names
from dsdoctor.catalog import RULES as CATALOG
from dsdoctor.lint import lint_target, make_target
from dsdoctor.lint.all_rules import REGISTRY
from dsdoctor.lint.fix import plan
from dsdoctor.lint.rule import Example, Hit, Rule
from dsdoctor.lint.target import Usage
from dsdoctor.model import Severity

FILENAMES = {"ds_config": "ds.json", "hostfile": "hostfile", "deepspeed_env": ".deepspeed_env", "shell": "run.sh", "python": "train.py",
             "accelerate": "accelerate.yaml"}


def _hits(rule: Rule, ex: Example, tmp: Path) -> Tuple[Path, List[Hit]]:
    usage = Usage(memlock=None)
    for key, val in ex.options:
        setattr(usage, key, Version(str(val)) if key == "ds" else val)
    path = tmp / FILENAMES[rule.kind]
    path.write_text(ex.text)
    return path, lint_target(make_target(str(path), rule.kind, usage))


def _run(rule: Rule, ex: Example, tmp: Path) -> List[str]:
    return [h.finding.name for h in _hits(rule, ex, tmp)[1]]


def _fixed(rule: Rule, ex: Example, tmp: Path) -> Tuple[Optional[str], bool]:
    """The example file after the rule's safe edits of it (None: it has none), and whether a safe edit of
    another file exists (an append to .deepspeed_env beside a launch script)."""
    path, hits = _hits(rule, ex, tmp)
    edits = [e for h in hits if h.finding.name == rule.name for e in h.edits if e.applicability == "safe"]
    here = [e for e in edits if e.path == str(path) and e.start >= 0]
    new = plan(here).get(str(path), (ex.text, ex.text))[1] if here else None
    return new, len(here) < len(edits)


CASES: List[Tuple[str, str, int]] = [(name, kind, i) for name, r in sorted(REGISTRY.items())
                                     for kind, exs in (("valid", r.valid), ("invalid", r.invalid)) for i in range(len(exs))]


@pytest.mark.parametrize("name,kind,i", CASES, ids=[f"{n}-{k}{i}" for n, k, i in CASES])
def test_rule_examples(name: str, kind: str, i: int, tmp_path: Path) -> None:
    rule = REGISTRY[name]
    ex = (rule.valid if kind == "valid" else rule.invalid)[i]
    got = _run(rule, ex, tmp_path)
    if kind == "invalid":
        assert name in got, (ex.text, got)
        fixed, elsewhere = _fixed(rule, ex, tmp_path)
        # the expected text after `dsdoctor fix` (like Fixit's expected replacement)
        if ex.fixed is not None or not elsewhere:
            assert fixed == ex.fixed, (ex.text, fixed)
    elif rule.severity == Severity.INFO:
        assert name not in got, (ex.text, got)
    else:  # valid: nothing to fix; an info note (an upgrade hazard on a release that still works) is allowed
        loud = [h.finding.name for h in _hits(rule, ex, tmp_path)[1] if h.finding.severity != Severity.INFO]
        assert name not in loud, (ex.text, loud)


def test_every_rule_documented_and_cataloged() -> None:
    for name, r in REGISTRY.items():
        assert name in CATALOG and names.owner(name) == "lint", name
        d = r.spec.docs
        assert d.what and d.why and d.fix and r.invalid and r.valid, name


def test_docs_current() -> None:
    """docs/rules.md documents every finding name (lint rules from their definitions, the others from
    dsdoctor.ruledocs); CI fails when it is stale."""
    from dsdoctor.ruledocs.markdown import render

    doc = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
    assert doc.read_text() == render(), "regenerate: python -m dsdoctor.ruledocs.markdown > docs/rules.md"
    for name in CATALOG:
        assert f'<a id="{name}"></a>' in doc.read_text(), name


def test_registry_lists_every_rule_module() -> None:
    """The registry is an explicit tuple: every rule module's ``RULE`` is listed once, and importing a rule
    module (or ``lint.rule``) loads no registry (no import side effects, no cycle through ``all_rules``)."""
    import importlib
    import pkgutil
    import subprocess
    import sys

    from dsdoctor.lint import all_rules, config, launch, lint_analysis_failed, script, suppress

    found = [suppress.RULE, lint_analysis_failed.RULE]
    for pkg in (config, launch, script):
        for mod in pkgutil.iter_modules(pkg.__path__):
            rule = getattr(importlib.import_module(f"{pkg.__name__}.{mod.name}"), "RULE", None)
            if isinstance(rule, Rule):
                found.append(rule)
    assert sorted(r.name for r in found) == sorted(r.name for r in all_rules.RULES)
    code = ("import sys, dsdoctor.lint.config.fp16_on_cpu, dsdoctor.lint.script.zero3_device_map_conflict; "
            "print('dsdoctor.lint.all_rules' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_every_rule_module_is_named_after_its_rule() -> None:
    """A rule's module is its rule's name with ``-`` -> ``_`` (``ds-config-invalid`` lives in
    ``lint/config/ds_config_invalid.py``): the name in a finding leads to the file that defines it."""
    import importlib
    import pkgutil

    from dsdoctor.lint import config, launch, script

    wrong = []
    for pkg in (config, launch, script):
        for mod in pkgutil.iter_modules(pkg.__path__):
            rule = getattr(importlib.import_module(f"{pkg.__name__}.{mod.name}"), "RULE", None)
            if isinstance(rule, Rule) and mod.name != rule.name.replace("-", "_"):
                wrong.append(f"{pkg.__name__}.{mod.name} defines {rule.name}")
    assert not wrong


def _imports(path: Path, package: str) -> List[str]:
    """The absolute module names ``path`` (in ``package``) imports, in functions too."""
    import ast

    out: List[str] = []
    for n in ast.walk(ast.parse(path.read_text())):
        if isinstance(n, ast.Import):
            out += [a.name for a in n.names]
        elif isinstance(n, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - n.level + 1] if n.level else []
            mod = ".".join(base + ([n.module] if n.module else []))
            out += [mod] if n.module else [f"{mod}.{a.name}" for a in n.names]
    return out


def test_lint_dependencies_go_one_way() -> None:
    """Lint imports none of the commands above it (imports inside functions count), and settings imports nothing
    from lint (lint may import settings)."""
    src = Path(__file__).resolve().parents[1] / "src"
    above = ("checks", "explain", "commands", "render", "ruledocs", "catalog", "specs")
    bad = []
    for path in sorted((src / "dsdoctor" / "lint").rglob("*.py")):
        rel = path.relative_to(src).with_suffix("")
        package = ".".join(rel.parts if rel.name == "__init__" else rel.parts[:-1]).removesuffix(".__init__")
        for mod in _imports(path, package):
            if any(mod == f"dsdoctor.{a}" or mod.startswith(f"dsdoctor.{a}.") for a in above):
                bad.append(f"{rel}: {mod}")
    settings = src / "dsdoctor" / "settings.py"
    bad += [f"settings: {m}" for m in _imports(settings, "dsdoctor") if m.startswith("dsdoctor.lint")]
    assert not bad


def test_unknown_keys_of_one_block_are_one_finding(tmp_path: Path) -> None:
    # pydantic raises one ValidationError for all extra keys of a block: fp16's loss-scale keys copied under bf16
    # are one problem, one finding at the first key that lists them all, with a rename edit per misspelled key
    rule = REGISTRY[names.DS_CONFIG_UNKNOWN_KEY]
    ex = Example('{"bf16": {"loss_scale": 0, "hysteresis": 2, "enabeld": true}}',
                 options=(("ds", "0.19.8"),))
    hits = [h for h in _hits(rule, ex, tmp_path)[1] if h.finding.name == rule.name]
    assert len(hits) == 1, [h.finding.title for h in hits]
    title = hits[0].finding.title
    assert all(k in title for k in ("'loss_scale'", "'hysteresis'", "'enabeld': did you mean 'enabled'?")), title
    assert len(hits[0].edits) == 1


@pytest.mark.parametrize("text, severity", [('{"fp16": {"enabled": true, "opt_level": "O2"}}', "info"),
                                            ('{"bf16": {"enable": true}}', "warning")])
def test_ignored_block_key_is_a_warning_only_when_misspelt(text: str, severity: str, tmp_path: Path) -> None:
    # DeepSpeed 0.9.2 reads fp16 / bf16 without validating them: an extra key is ignored. A misspelling loses its
    # setting (bf16 stays off: a warning); a key of no DeepSpeed setting (Apex's opt_level) changes nothing (info)
    rule = REGISTRY[names.DS_CONFIG_UNKNOWN_KEY]
    hits = [h for h in _hits(rule, Example(text, options=(("ds", "0.9.2"),)), tmp_path)[1] if h.finding.name == rule.name]
    assert [h.finding.severity.value for h in hits] == [severity]


@pytest.mark.parametrize("text, severity", [("w0 slots=x\n", "error"),
                                            ("main slots=NUM_GPUS\nworker slots=NUM_GPUS\n", "info"),
                                            ("ip_of_main_node slots=num_of_gpus_in_each_node\n", "info"),
                                            ("[main node ip] slots=8\n<second host> slots=8\n...\n", "info"),
                                            ("worker-0 slots=8\nworker 1 slots=8\n", "error"),
                                            ("[main node ip] slots=8\nworker 1 slots=8\n", "error")])
def test_hostfile_template_only_for_placeholder_slot_counts(text: str, severity: str, tmp_path: Path) -> None:
    # a slot count that reads as a placeholder is a template to fill in (info); a typo is a bad line the launcher
    # refuses (tests/oracle/test_lint_oracle.py makes DeepSpeed's own parser refuse `w0 slots=x`)
    rule = REGISTRY[names.HOSTFILE_INVALID]
    hits = [h for h in _hits(rule, Example(text), tmp_path)[1] if h.finding.name == rule.name]
    assert hits and {h.finding.severity.value for h in hits} == {severity}
    assert severity != "info" or len(hits) == 1  # a template is one finding, not one per line


@pytest.mark.parametrize("ds_launcher, severity", [(None, "error"), (True, "error"), (False, "info")])
def test_env_file_matters_only_to_the_deepspeed_launcher(ds_launcher: object, severity: str, tmp_path: Path) -> None:
    # only the deepspeed launcher's multi-node runner reads .deepspeed_env (runner.py, 0.15.4: in the branch that is
    # not `if not multi_node_exec`): where no launch of the project uses that launcher, its problems are info
    rule = REGISTRY[names.DEEPSPEED_ENV_FILE_INVALID]
    ex = Example("DS_SKIP_CUDA_CHECK=1\n\nCUDA_HOME=/usr/local/cuda\n", options=(("ds_launcher", ds_launcher),))
    hits = [h for h in _hits(rule, ex, tmp_path)[1] if h.finding.name == rule.name]
    assert [h.finding.severity.value for h in hits] == [severity]


@pytest.mark.parametrize("stage,severity", [(3, Severity.WARNING), (2, Severity.INFO), ("auto", Severity.WARNING)])
def test_stage3_key_outside_its_block(stage: object, severity: Severity, tmp_path: Path) -> None:
    """A stage-3 key written at the top level loses its setting only where stage 3 would read it."""
    import json

    rule = REGISTRY[names.DS_CONFIG_UNKNOWN_KEY]
    text = json.dumps({"zero_optimization": {"stage": stage}, "stage3_prefetch_bucket_size": 1000})
    hits = [h for h in _hits(rule, Example(text), tmp_path)[1] if h.finding.name == rule.name]
    assert [h.finding.severity for h in hits] == [severity], hits


def test_hostfile_a_script_writes_before_its_launch(tmp_path: Path) -> None:
    """An empty committed hostfile that the launch script in the directory above writes before launching
    (Text2Grad, aside158: `echo "$HOST_IP slots=8" > ./hostfile/hostfile`) is a stand-in: info, naming the script;
    the same file with no script writing it is an error."""
    from dsdoctor.lint import lint

    (tmp_path / "hostfile").mkdir()
    (tmp_path / "hostfile" / "hostfile").write_text("")
    (tmp_path / "train.sh").write_text('#!/bin/bash\nHOST_IP=$(hostname -i)\n'
                                       'deepspeed --hostfile ./hostfile/hostfile train.py\n')

    def severities() -> List[str]:
        return [f.severity.value for f in lint([str(tmp_path)]).report.findings if f.name == names.HOSTFILE_INVALID]

    assert severities() == ["error"]
    (tmp_path / "train.sh").write_text('#!/bin/bash\nHOST_IP=$(hostname -i)\nmkdir -p ./hostfile\n'
                                       'echo "$HOST_IP slots=8" > ./hostfile/hostfile\n'
                                       'deepspeed --hostfile ./hostfile/hostfile train.py\n')
    got = [f for f in lint([str(tmp_path)]).report.findings if f.name == names.HOSTFILE_INVALID]
    assert [f.severity.value for f in got] == ["info"] and "train.sh writes it before its launch" in got[0].title


def test_unknown_key_beside_the_key_it_resembles_is_no_misspelling(tmp_path: Path) -> None:
    # Megatron's gradient_accumulation_fusion next to gradient_accumulation_steps: the setting it resembles is set, so
    # nothing keeps a default because of it (info, no rename); alone it is a misspelling (warning, rename)
    rule = REGISTRY[names.DS_CONFIG_UNKNOWN_KEY]
    both = Example('{"gradient_accumulation_steps": 4, "gradient_accumulation_fusion": true}', options=(("ds", "0.15.4"),))
    alone = Example('{"gradient_accumulation_step": 4}', options=(("ds", "0.15.4"),))
    got = [h for h in _hits(rule, both, tmp_path)[1] if h.finding.name == rule.name]
    assert [(h.finding.severity.value, len(h.edits)) for h in got] == [("info", 0)], [h.finding.title for h in got]
    got = [h for h in _hits(rule, alone, tmp_path)[1] if h.finding.name == rule.name]
    assert [(h.finding.severity.value, len(h.edits)) for h in got] == [("warning", 1)], [h.finding.title for h in got]
