"""Commands are plain ``run(options) -> Outcome`` functions: no parsing, no rendering, no exit; one exit-code
owner (``dsdoctor.exitcodes``) and one JSON envelope (``render.json_out.envelope``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dsdoctor.exitcodes import FINDINGS, OK, for_report
from dsdoctor.model import Finding, Report, Severity

BAD = '{"zero_optimization": {"stage": 3, "stage3_prefetch_bucket_size": 15099494.4}}\n'


def test_exit_code_owner() -> None:
    warn = Report(findings=[Finding("x", Severity.WARNING, "t")])
    assert for_report(warn) == OK and for_report(warn, "warning") == FINDINGS
    assert for_report(warn, "info", exit_zero=True) == OK and for_report(warn, "never") == OK
    err = Report(findings=[Finding("x", Severity.ERROR, "t")])
    assert for_report(err) == FINDINGS and for_report(Report()) == OK


def test_envelope() -> None:
    from dsdoctor.render.json_out import envelope
    from dsdoctor.schema import SCHEMA_VERSION

    assert list(envelope("lint", findings=[], facts={})) == ["schema", "command", "findings", "facts"]
    assert envelope(None, rules=[]) == {"schema": SCHEMA_VERSION, "rules": []}


def test_lint_run_returns_the_report_and_the_exit_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dsdoctor.commands import lint
    from dsdoctor.render import render

    (tmp_path / "ds.json").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    out = lint.run(lint.Options(paths=["ds.json"], ds_version="0.19.8"))
    assert out.exit_code == FINDINGS and not out.rendered
    assert "bucket-size-float" in {f.name for f in out.report.findings}
    doc = json.loads(render(out.report, "lint", "json") or "")
    assert doc["schema"] == 1 and doc["command"] == "lint"
    assert lint.run(lint.Options(paths=["ds.json"], ds_version="0.19.8", exit_zero=True)).exit_code == OK
    assert lint.run(lint.Options(paths=["ds.json"], ds_version="0.19.8", fail_on="never")).exit_code == OK


def test_estimate_run_defers_its_messages(tmp_path: Path) -> None:
    from dsdoctor.commands import estimate
    from dsdoctor.errors import UsageError

    opts = estimate.Options(params=7e9, largest_layer=5e8, gpus_per_node=1, gpu_mem="1GB", cpu_mem="1GB",
                            write_config=str(tmp_path / "ds.json"))
    out = estimate.run(opts, env={})
    assert out.exit_code == FINDINGS and out.messages == ["dsdoctor: nothing written: no option fits (or GPU memory "
                                                          "is unknown)"]
    assert not (tmp_path / "ds.json").exists()
    with pytest.raises(UsageError, match="--ds-version 'x' is not a version"):
        estimate.run(estimate.Options(params=7e9, ds_version="x"), env={})


def test_options_are_declared_once() -> None:
    """Each command's Options fields are its parser's options (the same names, defaults and order), and
    estimate's --lora-targets default is the estimator's (not imported by the parser: it loads on every start)."""
    from dataclasses import MISSING, fields

    from dsdoctor.cli import app
    from dsdoctor.cliparse import ARG
    from dsdoctor.commands.estimate import DEFAULT_LORA_TARGETS
    from dsdoctor.estimate.inputs import ModelArgs

    assert DEFAULT_LORA_TARGETS == ",".join(ModelArgs.lora_targets)
    sub = next(a for a in app.parser()._actions if a.dest == "_command")
    for name, mod in app.commands.items():
        declared = [f for f in fields(mod.Options) if ARG in f.metadata]
        actions = [a for a in sub.choices[name]._actions if a.dest != "help"]
        assert [f.name for f in declared] == [a.dest for a in actions], name
        for f, a in zip(declared, actions):
            default = f.default_factory() if f.default_factory is not MISSING else f.default
            if default is not MISSING:
                assert default == (a.default if a.default is not None or a.nargs != "*" else []), (name, f.name)
