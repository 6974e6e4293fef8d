"""The scanner's structural reading (explain/match.py): tracebacks whose header a paste lost, exception lines
with no traceback, torch's extensions-root line with a relative path. Each is a structural literal of the
prefilter, so these lines are read wherever they stand."""

from __future__ import annotations

import pytest

from dsdoctor.explain import diagnose_log
from dsdoctor.explain import match as M


def _scan(log: str) -> M.Scanner:
    sc = M.Scanner()
    sc.start_source("log", 0)
    sc.feed_chunk(log.encode())
    sc.end_source()
    return sc


HEADLESS = ('step 10 loss 1.2\nFile "/home/u/proj/train.py", line 125, in <module>\n    main()\n'
            '  File "/opt/conda/lib/python3.10/site-packages/transformers/trainer.py", line 1633, in train\n'
            '    return inner_training_loop(\n  File "/home/u/proj/train.py", line 28, in collate\n'
            '    seq_len = feature["seq_len"]\nKeyError: \'seq_len\'\n')


def test_a_paste_that_starts_at_a_frame_is_a_traceback() -> None:
    sc = _scan(HEADLESS)
    assert len(sc.tracebacks) == 1
    tb = sc.tracebacks[0]
    assert [f.func for f in tb.frames] == ["<module>", "train", "collate"]
    assert tb.exc_text == "KeyError: 'seq_len'" and tb.frames[-1].code == 'seq_len = feature["seq_len"]'
    assert diagnose_log(HEADLESS).findings[0].name == "user-code-error"


def test_a_lone_exception_line_is_a_frameless_traceback() -> None:
    sc = _scan("[rank0]: step 3\n[rank0]: ImportError: libcudart.so.12: cannot open shared object file\n[rank0]: bye\n")
    assert [(t.exc_text, t.frames) for t in sc.tracebacks] == [
        ("ImportError: libcudart.so.12: cannot open shared object file", [])]
    assert diagnose_log("ImportError: libcudart.so.12: cannot open shared object file\n").findings[0].name != "no-failure"


def test_warnings_and_log_levels_are_not_exceptions() -> None:
    sc = _scan("UserWarning: something\n[ERROR] Error: retrying\nerror: not a Python exception\nmy Error: text\n")
    assert sc.tracebacks == []


def test_relative_extensions_root_with_two_spaces() -> None:
    sc = _scan("Using  .cache/torch_extensions/py310_cu118 as PyTorch extensions root...\n")
    assert sc.ext_root == ".cache/torch_extensions/py310_cu118" and sc.build_started is not None


def test_an_exception_logged_every_step_stays_cheap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its message lines are read after the first one only: the rest of the log keeps the prefilter's pace."""
    read = []
    orig = M.Scanner._line_event
    monkeypatch.setattr(M.Scanner, "_line_event", lambda self, raw, n: (read.append(n), orig(self, raw, n))[1])
    log = "".join(f"[rank{r}]: ValueError: bad sample\n[rank{r}]: step {i}\n" for i in range(500) for r in range(4))
    sc = _scan(log)
    assert len(sc.tracebacks) == 1 and sc.tracebacks[0].count > 1900
    assert len(read) < 2000 + 4 * 2 * M.TAIL_LINES  # each exception line, and one message tail


@pytest.mark.parametrize("line, stream, text", [
    ("2024-05-01T10:00:00.123456789Z stderr F [rank3]: KeyError: 'x'", "rank3", "KeyError: 'x'"),  # containerd
    ("2024-05-01T10:00:00.1234567Z worker-1: [rank0]: boom", "worker-1/rank0", "boom"),  # GitHub Actions
    ("2024-05-01 10:00:00,123 - INFO - Traceback (most recent call last):", "", "Traceback (most recent call last):"),
    ("[rank2]: 2024-05-01 10:00:00,123 - ERROR - boom", "rank2", "boom"),
    ("2024-05-01T10:00:00+02:00 \tx", "", "\tx"),
    ("[2024-05-01T10:00:00.123Z]     import deepspeed", "", "    import deepspeed"),  # a CI console's bracketed time
    # DeepSpeed's own bracketed stamp stays (its signatures read it); a date inside the text is not a prefix
    ("[2024-05-24 09:17:18,762] [WARNING] [real_accelerator.py:162:get_accelerator] x", "",
     "[2024-05-24 09:17:18,762] [WARNING] [real_accelerator.py:162:get_accelerator] x"),
    ("2024-05-01 was the day", "", "2024-05-01 was the day"),
    # Ray's mark before a worker's or actor's line (and a rank's own prefix after it); prose in parentheses stays
    ("(ActorModelRayActor pid=21287, ip=10.0.0.5) [rank0]: KeyError: 'x'", "pid21287/rank0", "KeyError: 'x'"),
    ("(pid=31477) RuntimeError: boom", "pid31477", "RuntimeError: boom"),
    ("(see pid=3 above) RuntimeError: boom", "", "(see pid=3 above) RuntimeError: boom"),
    ("[1,3]<stderr>:RuntimeError: boom", "rank3", "RuntimeError: boom"),  # mpirun --tag-output
    ("[pod/train-0/main] [rank1]: boom", "train-0/rank1", "boom"),  # kubectl logs --prefix
    ("trainer-1  | [rank2]: boom", "trainer-1/rank2", "boom"),  # docker compose
])
def test_a_collectors_timestamp_is_not_part_of_the_line(line: str, stream: str, text: str) -> None:
    from dsdoctor.explain.reader import split_prefix

    assert split_prefix(line) == (stream, text)


def test_another_writers_lines_inside_a_traceback() -> None:
    """A tqdm bar between a frame and its source line, a logger's lines between frames: the frames keep their
    source lines and the exception line is the real one."""
    log = ('Traceback (most recent call last):\n  File "/home/u/train.py", line 9, in <module>\n'
           "  3%|\u2588\u258f      | 12/400 [00:03<01:40,  3.9it/s]\n    main()\n"
           "{'loss': 1.2, 'epoch': 0.1}\n" * 1 +
           '  File "/home/u/train.py", line 5, in main\n' + "{'loss': 1.1, 'epoch': 0.2}\n" * 2 +
           "    batch = rows['input_ids']\nKeyError: 'input_ids'\n")
    tb = _scan(log).tracebacks[0]
    assert [(f.func, f.code) for f in tb.frames] == [("<module>", "main()"), ("main", "batch = rows['input_ids']")]
    assert tb.exc_text == "KeyError: 'input_ids'"


def test_hard_wrapped_frame_lines_are_joined() -> None:
    """A terminal or pastebin that hard-wraps at a fixed width splits long frame lines: before `", line N`, and
    inside the function name. The frames come out whole."""
    path = "/opt/conda/envs/train/lib/python3.10/site-packages/deepspeed/ops/op_builder/builder.py"
    full = f'  File "{path}", line 40, in installed_cuda_version'
    log = ("Traceback (most recent call last):\n" + full[:70] + "\n" + full[70:] + "\n    assert cuda_home\n"
           + f'  File "{path}", line 87, in assert_no_cu\nda_mismatch\n    x = installed_cuda_version()\n'
           "AssertionError\n")
    tb = _scan(log).tracebacks[0]
    assert [(f.path, f.func, f.code) for f in tb.frames] == [
        (path, "installed_cuda_version", "assert cuda_home"), (path, "assert_no_cuda_mismatch", "x = installed_cuda_version()")]
    assert tb.exc_text == "AssertionError"
    # a short line that only looks like a frame's start is read as it is
    assert [f.func for f in _scan('Traceback (most recent call last):\n  File "a.py", line 1, in f\n    g()\n'
                                  'ValueError: bad\n').tracebacks[0].frames] == ["f"]


def test_a_message_hard_wrapped_after_its_needle_is_read_with_the_next_line() -> None:
    """A line holding a signature's needle that does not match may go on in the next line (a terminal's fixed-width
    wrap): the two are matched together. A wrap that splits the needle itself is not recognised (docs/explain.md)."""
    head = "[2024-05-01 10:00:00,123] [rank0] model load failed: ValueError: DeepSpeed Zero-3 is not compatib"
    log = "step 1\n" + head + "\nle with `low_cpu_mem_usage=True` or with passing a `device_map`.\nstep 2\n"
    assert diagnose_log(log).findings[0].name == "zero3-low-cpu-mem-usage-conflict"
    # an indented line after it is not a continuation: the cut exception line is a failure no cause explains
    assert diagnose_log(log.replace("\nle with", "\n    le with")).findings[0].name == "unknown"
