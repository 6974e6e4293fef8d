"""``dsdoctor report``: sections, log tails (plain, gzip, directories), exit codes, atomic -o, Markdown safety.
(What it redacts: tests/test_redaction.py.)"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path
from typing import Tuple

from dsdoctor.bugreport import code, fence, log_tail, relevant_env

REPO = Path(__file__).resolve().parents[1]
FAILURE_LOG = REPO / "tests" / "cases" / "explain" / "cuda-mismatch-ds0.19.7.log"


def report(*args: str, cwd: Path, env: "dict[str, str] | None" = None) -> Tuple[int, str, str]:
    e = dict(os.environ if env is None else env, NO_COLOR="1")
    p = subprocess.run([sys.executable, "-m", "dsdoctor", "report", *args], capture_output=True, text=True, cwd=cwd,
                       env=e, timeout=300, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


def test_report_of_a_failed_log(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text("\n".join(f"step {i} loss 1.0" for i in range(300)) + "\n" + FAILURE_LOG.read_text())
    rc, out, err = report("--log", str(log), "--no-lint", cwd=tmp_path)
    assert rc == 0 and err == ""
    assert out.startswith("## dsdoctor report") and "| dsdoctor |" in out and "| torch |" in out and "| DeepSpeed |" in out
    assert "**Root cause:**" in out and "`cuda-version-mismatch` DS101" in out
    assert "train.log: last 80 lines" in out and "step 299 loss" not in out.split("last 80 lines")[0]
    tail = out.split("train.log: last 80 lines")[1]
    assert "AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'" in tail and "step 0 loss" not in tail
    assert "### Environment variables" in out and "### Environment facts" in out
    assert "(check)" in out  # --no-lint


def test_gzip_and_directory_logs(tmp_path: Path) -> None:
    d = tmp_path / "logs"
    d.mkdir()
    (d / "rank0.log").write_text("all fine\n")
    with gzip.open(d / "rank1.log.gz", "wt") as fh:
        fh.write(FAILURE_LOG.read_text())
    lines, more = log_tail(str(d / "rank1.log.gz"), 5)
    assert len(lines) == 5 and more and "ds_opt_adam" in lines[-1]
    rc, out, _ = report("--log", str(d), "--no-lint", cwd=tmp_path)
    assert rc == 0 and "rank1.log.gz: all" in out and "Explained 2 log files" in out


def test_tail_is_cleaned(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_bytes(b"\x1b[31mred\x1b[0m\r\n 10%|#  | 1/10\r 20%|## | 2/10\r\n" + b"y" * 1000 + b"\n\xff\xfe bytes\n")
    lines, more = log_tail(str(log), 80)
    assert lines[0] == "red" and lines[1] == " 20%|## | 2/10" and len(lines[2]) < 450 and "[...]" in lines[2]
    assert not more and lines[3].endswith(" bytes")


def test_exit_2_on_bad_input(tmp_path: Path) -> None:
    for args, msg in ((["--log", str(tmp_path / "nope.log")], "no such file"),
                      (["--ds-config", str(tmp_path / "nope.json")], "no such file"),
                      (["--python", str(tmp_path / "nopython")], "cannot use --python"),
                      (["-o", str(tmp_path)], "is a directory"),
                      (["-o", str(tmp_path / "missing-dir" / "r.md")], "cannot write")):
        rc, out, err = report("--no-lint", *args, cwd=tmp_path)
        assert rc == 2 and msg in err and "Traceback" not in err and out == "", (args, err)
    bad = tmp_path / "bad.json"
    bad.write_text('{"train_batch_size": ')
    rc, out, err = report("--no-lint", "--ds-config", str(bad), cwd=tmp_path)
    assert rc == 2 and "Traceback" not in err and out == ""


def test_output_file_is_written_atomically(tmp_path: Path) -> None:
    target = tmp_path / "report.md"
    target.write_text("old")
    target.chmod(0o600)
    rc, out, err = report("--no-lint", "-o", str(target), cwd=tmp_path)
    assert rc == 0 and out == "" and "wrote" in err
    assert target.read_text().startswith("## dsdoctor report") and (target.stat().st_mode & 0o777) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]  # no temporary file left behind


def test_ds_config_is_shown_and_linted(tmp_path: Path) -> None:
    cfg = tmp_path / "elsewhere" / "ds.json"
    cfg.parent.mkdir()
    cfg.write_text('{"train_batch_size": 8, "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}},'
                   ' "not_a_key": 1}\n')
    proj = tmp_path / "proj"
    proj.mkdir()
    rc, out, _ = report("--ds-config", str(cfg), cwd=proj)
    assert rc == 0 and "### DeepSpeed config: ds.json" in out and '"not_a_key": 1' in out
    assert "ds.json" in out.split("### Findings")[1].split("###")[0]


def test_markdown_helpers() -> None:
    assert fence("a ``` b") == "````\na ``` b\n````"
    assert code("x`y") == "`` x`y ``" and code("plain") == "`plain`"
    env = {"HF_HOME": "/x", "NCCL_DEBUG": "INFO", "HOME": "/root", "AWS_SECRET_ACCESS_KEY": "s", "PATH": "/bin"}
    assert relevant_env(env) == ["HF_HOME", "NCCL_DEBUG", "PATH"]
