"""The explain prefilter is derived from the signatures: every needle, every sample line and every structural
line the scanner needs passes it; both engines (aho-corasick, bytes.find) read the same lines; a line cut after
a needle's first NEEDLE_MAX characters still passes; repeated warnings are read once."""

from __future__ import annotations

from pathlib import Path

import pytest

from dsdoctor.explain import diagnose_log
from dsdoctor.explain import match as M
from dsdoctor.explain.prefilter import ENGINE, NEEDLE_MAX, Prefilter, gate
from dsdoctor.explain.reader import bytes_stream, clean, iter_chunks

CASES_DIR = Path(__file__).parent / "cases" / "explain"
SIGS = M._signatures()


def test_every_signature_has_a_needle_that_passes() -> None:
    for sig in SIGS:
        assert sig.needle, sig.name
        assert M.passes_prefilter(sig.needle.encode()), (sig.name, sig.needle)
        assert M.passes_prefilter(b"[rank3]: x " + sig.needle.encode() + b" y"), sig.name


def test_every_sample_line_passes() -> None:
    """Sample lines (explain-spec's signatures carry them): each is read by the prefilter and holds its gate."""
    for sig in SIGS:
        for sample in getattr(sig, "samples", ()):
            for line in sample.splitlines():
                if gate(sig.needle) in clean(line.encode())[1]:
                    assert M.passes_prefilter(line.encode()), (sig.name, line)


def test_a_message_cut_after_the_gate_still_passes() -> None:
    """Rich's box edge or a paste can cut a message: the needle's first NEEDLE_MAX chars are enough."""
    for sig in SIGS:
        cut = sig.needle[:NEEDLE_MAX]
        assert M.passes_prefilter(("│ raise ValueError(\"" + cut).encode()), sig.name


def test_structural_lines_pass() -> None:
    for lit in M.STRUCTURAL:
        assert M.passes_prefilter(lit.encode()), lit
    assert not M.passes_prefilter(b"UserWarning: only soft")  # soft: read only while the warnings list fills
    assert not M.passes_prefilter(b"{'loss': 1.2, 'grad_norm': 0.3, 'learning_rate': 1e-05, 'epoch': 0.1}")


VERSION_LINES = {
    "deepspeed": ("[2026-11-29 12:00:00,000] [INFO] [logging.py:128:log_dist] [Rank 0] DeepSpeed info: version=0.19.7, "
                  "git-hash=unknown, git-branch=unknown", "deepspeed info ................... 0.19.7, unknown, unknown",
                  "Successfully installed deepspeed-0.19.7", "deepspeed==0.19.7"),
    "torch": ("torch version .................... 2.9.1+cu130", "torch==2.9.1", "- PyTorch version (GPU?): 2.9.1+cu130 (True)"),
    "torch_cuda": ("torch cuda version ............... 13.0",),
    "nvcc": ("nvcc version ..................... 13.5",),
    "transformers": ("- `transformers` version: 4.57.1", "transformers==4.57.1"),
    "accelerate": ("- `Accelerate` version: 1.11.0",),
}


@pytest.mark.parametrize("name", sorted(VERSION_LINES))
def test_version_lines_are_read(name: str) -> None:
    for line in VERSION_LINES[name]:
        sc = M.Scanner()
        sc.start_source("log", 0)
        sc.feed_chunk(b"step 1\n[rank0]: " + line.encode() + b"\nstep 2\n")
        sc.end_source()
        assert name in sc.versions, line


def _logs() -> "list[bytes]":
    logs = [p.read_bytes() for p in sorted(CASES_DIR.glob("*.log"))]
    mixed = []
    for r in range(64):
        mixed.append(f"[rank{r}]: /x/site-packages/torch/utils/checkpoint.py:464: UserWarning: use_reentrant {r % 3}")
        mixed.append(f"[rank{r}]:   warnings.warn(\r 1%|#| 1/100\r 2%|#| 2/100\n[rank{r}]: FAILED: x.o")
    return logs + [("\n".join(mixed) + "\n").encode() + b"".join(logs)]


def test_both_engines_read_the_same_lines() -> None:
    pf = M.prefilter()
    slow = Prefilter(pf.literals[:pf.nfull], pf.literals[pf.nfull:], engine="bytes.find")
    assert slow.engine == "bytes.find" and pf.engine == ENGINE
    for log in _logs():
        seen_fast: "set[bytes]" = set()
        seen_slow: "set[bytes]" = set()
        for chunk in iter_chunks(bytes_stream(log), size=4096):
            assert pf.lines(chunk) == slow.lines(chunk)
            assert pf.lines(chunk, False) == slow.lines(chunk, False) == [x for x in pf.lines(chunk) if x[1]]
            assert pf.lines(chunk, True, seen_fast) == slow.lines(chunk, True, seen_slow)
        assert seen_fast == seen_slow


def test_repeated_warnings_read_once_listed_in_order() -> None:
    """The first MAX_WARNINGS distinct warnings, in log order, however often every rank repeats them."""
    lines = []
    for step in range(200):
        for r in range(8):
            lines.append(f"[rank{r}]: /x/site-packages/transformers/trainer.py:{step % 30}: FutureWarning: deprecated {step % 30}")
    sc = M.Scanner()
    sc.start_source("log", 0)
    for chunk in iter_chunks(bytes_stream(("\n".join(lines) + "\n").encode()), size=8192):
        sc.feed_chunk(chunk)
    sc.end_source()
    assert [w.text for w in sc.warnings] == [f"/x/site-packages/transformers/trainer.py:{i}: FutureWarning: deprecated {i}"
                                            for i in range(M.MAX_WARNINGS)]
    assert diagnose_log("\n".join(lines) + "\n").findings[0].name == "no-failure"


def test_signatures_without_a_needle_are_refused() -> None:
    import re

    from dsdoctor.explain.causes import Signature

    with pytest.raises(ValueError):
        M.Scanner((Signature("x", re.compile("x")),))


def test_chained_exception_after_a_blank_line() -> None:
    """Python prints a blank line before "During handling of the above exception": the marker is structural."""
    log = (b'Traceback (most recent call last):\n  File "/home/u/train.py", line 3, in <module>\n    import foo\n'
           b"ModuleNotFoundError: No module named 'foo'\n\nDuring handling of the above exception, another exception "
           b'occurred:\n\nTraceback (most recent call last):\n  File "/opt/site-packages/x.py", line 5, in g\n'
           b'    raise RuntimeError("boom")\nRuntimeError: boom\n')
    sc = M.Scanner()
    sc.start_source("log", 0)
    sc.feed_chunk(log)
    sc.end_source()
    second = sc.tracebacks[1]
    assert second.chained_from is not None and second.chained_from.exc_text.startswith("ModuleNotFoundError")


def test_the_benchmark_noise_is_not_read() -> None:
    """bench/explain_throughput.py's mix (warnings with their echo, tqdm bars, training output): not one of
    its noise lines is a full candidate, so the speed does not hang on what the warnings say."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "bench" / "explain_throughput.py"
    spec = importlib.util.spec_from_file_location("explain_throughput", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    lines = [f"{w}: {cat}: {msg}" for w, cat, msg, _ in bench.WARNINGS] + [e for *_, e in bench.WARNINGS]
    lines += [t.format(loss=1.5, g=0.2, e=0.1, s=1, ms=2, r=3, step=4) for t in bench.TRAINING]
    lines.append(bench._bar(__import__("random").Random(0), 5))
    for line in lines:
        assert not M.passes_prefilter(b"worker-0: [rank3]: " + line.encode()), line
