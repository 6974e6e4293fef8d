"""The cause specs (``dsdoctor.explain.causes``): each signature cites the library that prints it and has sample
lines; every sample, fed to the real scanner (its prefilter included), is given to its own cause; the catalog,
the rule docs and ``explain --env``'s environment causes are derived from the specs."""

from __future__ import annotations

import re
from pathlib import Path
from typing import List, Tuple

import pytest

from dsdoctor import names as N
from dsdoctor.catalog import RULES
from dsdoctor.explain import diagnose_log
from dsdoctor.explain.causes import CAUSES, ENV_CAUSES, FRAME_SIGNATURES, SIGNATURES, Signature
from dsdoctor.explain.causes.cause import Cause, LogFacts, Seen
from dsdoctor.explain.match import Hit, Scanner
from dsdoctor.explain.reader import bytes_stream, iter_chunks
from dsdoctor.ruledocs import doc_for

SAMPLES: List[Tuple[str, int, str]] = [(s.name, i, line) for s in SIGNATURES for i, line in enumerate(s.samples)]
PREDICTORS = re.compile(r"none|estimate|verify|(?:check|check --hostfile|lint):([a-z0-9-]+)")


def _scan(line: str) -> Scanner:
    sc = Scanner()
    sc.start_source("sample", 0)
    for chunk in iter_chunks(bytes_stream((line + "\n").encode())):
        sc.feed_chunk(chunk)
    sc.end_source()
    return sc


def _given_to(sc: Scanner) -> List[Hit]:
    return [h for hits in sc.hits.values() for h in hits] + sc.symptoms + sc.notes


FRAME_SAMPLES = [(s.name, i, text) for s in FRAME_SIGNATURES for i, text in enumerate(s.samples)]


@pytest.mark.parametrize("sig", SIGNATURES + FRAME_SIGNATURES,
                         ids=[f"{s.name}:{s.needle[:30]}" for s in SIGNATURES + FRAME_SIGNATURES])
def test_signature_cites_its_source_and_has_samples(sig: Signature) -> None:
    assert sig.source, f"{sig.name}: which library file (and versions) prints {sig.pattern.pattern!r}?"
    assert sig.samples, f"{sig.name}: no sample line for {sig.pattern.pattern!r}"
    assert sig.needle, sig.name


@pytest.mark.parametrize("name,i,line", SAMPLES, ids=[f"{n}:{i}:{ln[:40]}" for n, i, ln in SAMPLES])
def test_sample_is_read_and_given_to_its_cause(name: str, i: int, line: str) -> None:
    sig = next(s for s in SIGNATURES if s.name == name and line in s.samples)
    assert sig.needle in line and sig.pattern.search(line), f"the sample does not match its own signature: {line!r}"
    first = next(s for s in SIGNATURES if s.needle in line and s.pattern.search(line))  # the scanner's order
    assert first.name == name, f"{line!r} goes to {first.name}'s signature {first.pattern.pattern!r}, not to {name}"
    got = _given_to(_scan(line))
    assert got, f"the scanner did not read {line!r} (the prefilter, or a structure line that is never matched)"
    assert got[0].name == name, f"{line!r} went to {got[0].name}, not {name}"


@pytest.mark.parametrize("name,i,text", FRAME_SAMPLES, ids=[f"{n}:{i}" for n, i, _ in FRAME_SAMPLES])
def test_frame_sample_is_diagnosed_as_its_cause(name: str, i: int, text: str) -> None:
    sig = next(s for s in FRAME_SIGNATURES if text in s.samples)
    want = {"op-build-failed": "op-build-failed-cause-not-in-log", "launch-failed": "unknown"}.get(name, name) if sig.symptom else name
    assert diagnose_log(text).findings[0].name == want


def test_names_and_codes_are_unique_and_in_the_catalog() -> None:
    names = [c.name for c in CAUSES]
    codes = [c.code for c in CAUSES]
    assert len(set(names)) == len(names) and len(set(codes)) == len(codes)
    for c in CAUSES:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", c.name), c.name
        assert RULES[c.name].code == c.code and (c.spec is None or RULES[c.name].summary == c.summary), c.name


def test_predicted_by_names_a_real_check() -> None:
    for c in CAUSES:
        m = PREDICTORS.fullmatch(c.predicted_by)
        assert m, f"{c.name}: predicted_by {c.predicted_by!r}"
        if m.group(1):
            assert m.group(1) in RULES, c.predicted_by
        if c.predicted_by.startswith("lint:"):
            assert doc_for(m.group(1)).command == "lint", c.predicted_by


def test_docs_written_once() -> None:
    """A name explain owns (no lint rule, no environment check documents it) has its docs in the spec."""
    for c in CAUSES:
        d = doc_for(c.name)
        if c.docs is not None:
            assert d.command == c.spec.commands[0] and d.what == c.docs.what and not c.log_examples, c.name
        else:
            assert d.command != "explain", f"{c.name}: documented by nobody"


def test_env_causes_are_the_ones_check_predicts() -> None:
    assert "cuda-version-mismatch" in ENV_CAUSES and "memlock-too-low" in ENV_CAUSES
    assert all(RULES[n].code.startswith("DS1") for n in ENV_CAUSES)


def test_a_yielding_cause_is_not_the_root_when_another_cause_is_in_the_log(monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from dsdoctor.explain import diagnose as D

    log = ("[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"
           "[rank0]: AssertionError: no_sync context manager is incompatible with gradient partitioning logic of ZeRO stage 2\n")
    assert diagnose_log(log).findings[0].name == "gpu-oom"  # log order
    monkeypatch.setattr(D, "BY_NAME", dict(D.BY_NAME, **{"gpu-oom": replace(D.BY_NAME["gpu-oom"], yields=True)}))
    assert [f.name for f in diagnose_log(log).findings][:2] == ["deepspeed-no-sync-incompat", "gpu-oom"]


def test_docs_explain_md_lists_every_cause() -> None:
    from pathlib import Path

    from dsdoctor.explain.causes import docs

    doc = (Path(__file__).resolve().parents[1] / "docs" / "explain.md").read_text(encoding="utf-8")
    assert docs.render(doc) == doc, "docs/explain.md is stale: python -m dsdoctor.explain.causes.docs docs/explain.md"
    for c in CAUSES:
        assert f"| `{c.name}` | {c.code} |" in doc


def test_a_warning_is_the_cause_only_with_the_failure_it_explains() -> None:
    warn = "[WARNING]  async_io requires the dev libaio .so object and headers but these were not found.\n"
    assert diagnose_log(warn * 3 + "[WARNING]  async_io: please install the libaio-dev package with apt\n").findings[0].name == "no-failure"
    failed = "RuntimeError: Unable to JIT load the async_io op due to it not being compatible due to hardware/software issue. None\n"
    assert diagnose_log(warn + failed).findings[0].name == "libaio-missing"
    assert diagnose_log(warn + "ninja: build stopped: subcommand failed.\n").findings[0].name == "op-build-failed-cause-not-in-log"


@pytest.mark.parametrize("log,want", [
    ("Traceback (most recent call last):\n  File \"/home/u/train.py\", line 3, in <module>\n    main()\n"
     "KeyError: 'seq_len'\n", "user-code-error"),
    # the user's frame, but the exception is a library's (a C++ op raising, a cut traceback)
    ("Traceback (most recent call last):\n  File \"/home/u/train.py\", line 3, in <module>\n    x.cuda()\n"
     "RuntimeError: CUDA error: an illegal memory access was encountered\n", "unknown"),
    ("Traceback (most recent call last):\n  File \"/home/u/train.py\", line 3, in <module>\n    engine.step()\n"
     "deepspeed.runtime.zero.utils.ZeRORuntimeException: something new\n", "unknown"),
    # the project's own package in site-packages is the user's code
    ("Traceback (most recent call last):\n  File \"/env/lib/python3.10/site-packages/myproj/data.py\", line 9, in load\n"
     "    open(p)\nFileNotFoundError: [Errno 2] No such file or directory: 'data/info.json'\n", "user-code-error"),
    # cut before the exception line: nothing to blame on the user
    ("Traceback (most recent call last):\n  File \"/home/u/train.py\", line 3, in <module>\n    main()\n", "unknown"),
    # DeepSpeed's source tree (setup.py builds) is not the user's code
    ("Traceback (most recent call last):\n  File \"G:\\\\src\\\\DeepSpeed-0.7.3\\\\op_builder\\\\builder.py\", line 40, in x\n"
     "    y()\nTypeError: z\n", "unknown"),
])
def test_a_log_with_an_exception_is_never_no_failure(log: str, want: str) -> None:
    assert diagnose_log(log).findings[0].name == want


def test_every_pattern_compiles() -> None:
    """Patterns compile when first used (LazyPattern): make sure each one can."""
    for s in SIGNATURES + FRAME_SIGNATURES:
        for p in (s.pattern, s.code):
            if p is not None and hasattr(p, "compiled"):
                p.compiled()


def test_a_line_is_evidence_once() -> None:
    """A message signature and a frame signature on the same exception line: one evidence line, not a consequence."""
    log = (Path(__file__).resolve().parents[1] / "examples" / "zero3-offload" / "train.log").read_text()
    f = diagnose_log(log).findings[0]
    lines = [(e.path, e.line) for e in f.evidence if e.line is not None]
    assert f.name == "cuda-version-mismatch" and len(lines) == len(set(lines)), f.evidence


def test_no_failure_lists_a_warning_once() -> None:
    """A notable warning is a warning too (and ranks repeat it): ``no-failure`` lists each line once."""
    line = ("[WARNING]  async_io requires the dev libaio .so object and headers but these were not found.")
    f = diagnose_log(f"{line}\n[rank1]: {line}\n").findings[0]
    assert f.name == "no-failure" and [e.what for e in f.evidence] == [line], f.evidence
    assert f.title.endswith("1 notable warning(s)"), f.title


def _imports(path: Path, package: str) -> List[str]:
    """The absolute names of the modules a source file imports (in functions too; relative ones resolved)."""
    import ast

    out: List[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
            mod = ".".join(base + ([node.module] if node.module else []))
            out += [mod] + [f"{mod}.{a.name}" for a in node.names]
    return out


def test_explain_imports_one_way() -> None:
    """explain's causes read names, knowledge and fixes, never a command above them (checks, lint, ...); the
    renderer reads the consequence marker without loading the diagnoser. explain/command.py is the command."""
    src = Path(__file__).resolve().parents[1] / "src" / "dsdoctor"
    above = tuple(f"dsdoctor.{m}" for m in ("checks", "lint", "commands", "render", "ruledocs", "catalog", "specs"))
    for path in sorted((src / "explain").rglob("*.py")):
        if path.name == "command.py" and path.parent.name == "explain":
            continue
        package = "dsdoctor." + ".".join(path.relative_to(src).parent.parts)
        bad = [m for m in _imports(path, package) if m in above or m.startswith(tuple(a + "." for a in above))]
        assert not bad, (path, bad)
    assert not [m for m in _imports(src / "render" / "explain.py", "dsdoctor.render") if m.startswith("dsdoctor.explain")]


SPEC_CAUSES = [c for c in CAUSES if c.spec is not None]


@pytest.mark.parametrize("c", SPEC_CAUSES, ids=[c.name for c in SPEC_CAUSES])
def test_advice_without_facts_says_the_docs_why(c: Cause) -> None:
    """A cause's Why is written once, in its docs: given nothing from a log, its advice leaves ``why`` to them."""
    adv = c.advise(Seen(), LogFacts())
    assert c.spec is not None and adv.why == "" and c.why(adv).endswith(c.spec.docs.why), adv


def _logs() -> List[Tuple[str, str]]:
    """Every explain fixture log and every signature sample: (id, text)."""
    cases = Path(__file__).parent / "cases" / "explain"
    out = [(p.name, p.read_bytes().decode("utf-8", "surrogateescape")) for p in sorted(cases.glob("*.log"))]
    return out + [(f"{s.name}:{i}", text + "\n") for s in SIGNATURES + FRAME_SIGNATURES for i, text in enumerate(s.samples)]


def _log_fact(text: str, log: str, why: str) -> bool:
    """``text`` holds a value read from ``log``: a token with a digit, a path or a name (``compute_90``,
    ``--local_rank=1``, ``/home/user/train.py``) that the log has and the docs Why ``why`` does not."""
    return any(t in log and t not in why for t in re.findall(r"[\w./:+=-]{6,}", text) if re.search(r"[\d/_]", t))


def test_advice_why_is_the_docs_why_or_holds_a_fact_of_the_log() -> None:
    """Explain's Why of a cause is its docs Why (after what the log adds), or a case's own text that shows a value
    of the log; never a paraphrase of the docs Why."""
    by_name = {c.name: c for c in SPEC_CAUSES}
    bad = []
    for ident, log in _logs():
        for f in diagnose_log(log).findings:
            spec = by_name[f.name].spec if f.name in by_name else None
            if spec is not None and not f.explanation.endswith(spec.docs.why) and not _log_fact(f.explanation, log, spec.docs.why):
                bad.append((ident, f.name, f.explanation))
    assert not bad, bad


@pytest.mark.parametrize("tool", ["pdsh", "ninja", "numactl", "git"])
def test_dash_not_found_names_the_compiler_cause_only_for_a_compiler(tool: str) -> None:
    # dash prints `/bin/sh: N: X: not found` for any command: only a compiler's name is host-compiler-unsupported
    assert diagnose_log(f"/bin/sh: 1: {tool}: not found\n").findings[0].name != N.HOST_COMPILER_UNSUPPORTED
    assert diagnose_log("/bin/sh: 1: /opt/gcc/bin/g++-13: not found\n").findings[0].name == N.HOST_COMPILER_UNSUPPORTED


def test_setup_py_op_summary_does_not_promote_the_libaio_warning() -> None:
    # setup.py prints the ops it will build (async_io False among them): context, not an async_io failure, so the
    # libaio warning stays a note and the op build that failed is the cause
    log = (" [WARNING]  async_io requires the dev libaio .so object and headers but these were not found.\n"
           "Install Ops={'async_io': False, 'cpu_adam': 1}\n"
           "nvcc fatal   : Unsupported gpu architecture 'compute_90'\n"
           "error: command '/usr/local/cuda/bin/nvcc' failed with exit code 1\n")
    assert diagnose_log(log).findings[0].name == N.NVCC_ARCH_UNSUPPORTED
