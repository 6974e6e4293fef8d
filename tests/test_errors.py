"""One error, one exit: every input/usage exception is an ``errors.UsageError``, caught once in ``cli.main``
(``dsdoctor: message`` plus hint / note on stderr, exit 2); an internal error is exit 2 without a traceback."""

from __future__ import annotations

from typing import Any

import pytest

from dsdoctor import cli
from dsdoctor.errors import UsageError
from dsdoctor.exitcodes import FAILED


def test_every_input_error_is_a_usage_error() -> None:
    from dsdoctor.bugreport import ReportInputError
    from dsdoctor.checks import InputError as CheckInput
    from dsdoctor.dsconfig import ConfigError
    from dsdoctor.estimate.inputs import InputError as EstimateInput
    from dsdoctor.estimate.params import ConfigProblem
    from dsdoctor.explain.reader import InputError as ExplainInput
    from dsdoctor.hjsondoc import ReadError
    from dsdoctor.multinode.hosts import HostfileError
    from dsdoctor.ruledocs import UnknownRule
    from dsdoctor.settings import SettingsError

    for cls in (CheckInput, ConfigError, EstimateInput, ConfigProblem, ExplainInput, HostfileError,
                ReportInputError, SettingsError):
        exc = cls("the message")
        assert isinstance(exc, UsageError) and str(exc) == exc.message == "the message"
    assert isinstance(ReadError("bad", 3), UsageError) and str(ReadError("bad", 3)) == "bad"
    assert isinstance(UnknownRule("nope", []), UsageError)
    assert isinstance(ConfigProblem("x"), ValueError) and isinstance(HostfileError("x"), ValueError)


def _with_body(monkeypatch: pytest.MonkeyPatch, body: Any) -> None:
    from dsdoctor.commands import version

    monkeypatch.setattr(version, "run", lambda _options: body())


def test_usage_error_is_one_message_with_hint_and_note(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    def body() -> int:
        raise UsageError("cannot read x.json", hint="pass --ds-config PATH", note="x.json is not JSON")

    _with_body(monkeypatch, body)
    assert cli.main(["version"]) == FAILED
    out, err = capsys.readouterr()
    assert not out and err == "dsdoctor: cannot read x.json\n  hint: pass --ds-config PATH\n  note: x.json is not JSON\n"


def test_internal_error_is_exit_2_without_a_traceback(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    def body() -> int:
        raise RuntimeError("boom")

    _with_body(monkeypatch, body)
    monkeypatch.delenv("DSDOCTOR_DEBUG", raising=False)
    assert cli.main(["version"]) == FAILED
    err = capsys.readouterr().err
    assert err.startswith("dsdoctor: internal error: RuntimeError: boom\n") and "Traceback" not in err
    assert "DSDOCTOR_DEBUG=1" in err
    monkeypatch.setenv("DSDOCTOR_DEBUG", "1")
    assert cli.main(["version"]) == FAILED
    assert "Traceback (most recent call last)" in capsys.readouterr().err


def test_commands_raise_usage_errors_the_cli_prints(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from dsdoctor.commands import lint

    with pytest.raises(UsageError, match="no such file or directory"):
        lint.run(lint.Options(paths=[str(tmp_path / "missing.json")]))
    assert cli.main(["lint", str(tmp_path / "missing.json")]) == FAILED
    assert capsys.readouterr().err == f"dsdoctor: no such file or directory: {tmp_path / 'missing.json'}\n"
