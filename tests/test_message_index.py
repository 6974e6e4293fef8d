"""The message index (``knowledge/messages.py``, data made by ``scripts/upstream/derive_messages.py`` from the
released sources): lookups, and every curated message checked against it.

Curated messages are the templates of explain's message signatures (``msg(template, source, ...)``, whose source
names the library file and releases) and the ``MSG_*`` constants of the knowledge modules (their source is the
comment beside or above them). Each one whose source names a package the index reads must be in the index in that
package, and in every release read inside the releases its source names; the exceptions are listed in
``NOT_INDEXED`` with the reason.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Set, Tuple

import pytest

from dsdoctor.explain.attribute import attribute, fix_sentence
from dsdoctor.explain.causes.registry import CAUSES
from dsdoctor.knowledge import messages as MI

ROOT = Path(__file__).resolve().parents[1]
KNOWLEDGE = ROOT / "src" / "dsdoctor" / "knowledge"
CASE = ROOT / "tests" / "cases" / "explain" / "unknown-attributed-trl-grpo.log"

# curated messages (a prefix of their text) not in the index, and why
NOT_INDEXED: Dict[str, str] = {
    # printed with print() or logged at info level (the index holds warnings and errors)
    "Detected `DS_SKIP_CUDA_CHECK=1`": "DeepSpeed builder.py print()",
    "{op} cuda is missing or is incompatible": "DeepSpeed builder.py print()",
    "Detected {env}={devices} but ignoring": "DeepSpeed runner.py print()",
    "fp16 dynamic loss scale overflow!": "DeepSpeed fp16 optimizers print()",
    "OVERFLOW! Rank {rank} Skipping step.": "DeepSpeed stage_1_and_2.py / loss_scaler logger.info",
    "Not using the DeepSpeed or dist launchers": "DeepSpeed comm.py logger.info",
    "Killing subprocess {pid}": "DeepSpeed launch.py logger.info",
    "[Torch] Loading checkpoint from": "DeepSpeed torch_checkpoint_engine.py logger.info",
    "successfully read {n} ZeRO state_dicts": "DeepSpeed engine.py logger.info",
    "Did not save the model {path}": "DeepSpeed engine.py logger.info",
    "CPU Virtual Memory:": "DeepSpeed see_memory_usage logger.info",
    # DeepSpeed's setup.py: releases.py keeps the deepspeed/ package only
    "Unable to pre-compile": "DeepSpeed setup.py (not kept)",
    "Unable to import torch, pre-compiling ops": "DeepSpeed setup.py (not kept)",
    # Python's own messages about a library's code, not the library's text
    "No module named 'deepspeed.ops.op_builder'": "Python's ModuleNotFoundError",
    "hipify() got an unexpected keyword argument": "Python's TypeError on torch's hipify()",
    "'>' not supported between instances": "Python's TypeError in DeepSpeed's _batch_assertion",
    "free variable 'kill_cmd'": "Python's NameError in DeepSpeed's runner.py",
    "zip() argument 2 is longer": "Python's zip(strict=True) ValueError in torch's lr_scheduler",
    "deepspeed: error: unrecognized arguments": "argparse's error for DeepSpeed's launcher",
    "Command '['which'": "subprocess.CalledProcessError text (torch runs `which`)",
    # torch's C++ (ATen / c10 / c10d / autograd) and headers: not Python sources
    "output tensor must have the same type": "torch c10d C++",
    "'weight' must be 2-D": "torch ATen C++ (embedding)",
    "tensors must be 2-D": "torch ATen C++ (addmm)",
    "element 0 of tensors does not require grad": "torch autograd C++",
    "CUDA out of memory. Tried to allocate": "torch c10 CUDA allocator C++",
    "[enforce fail at inline_container.cc": "torch caffe2 serialize C++",
    "trying to build PyTorch with a too old version of GCC": "torch c10 header #error",
    "C++20 or later compatible compiler is required": "torch C++ header #error",
    # built in ways the derivation does not follow
    "Weights only load failed.": "torch serialization.py: the nested helper _get_wo_message returns the text",
    "insufficient shared memory (shm)": "torch's DataLoader worker C++ (not in torch/utils/data's Python)",
    # pydantic's own validation texts about DeepSpeed's config models
    "extra fields not permitted": "pydantic v1",
    "Extra inputs are not permitted": "pydantic v2",
    "Input should be a valid integer": "pydantic v2",
    "value is not a valid {type}": "pydantic v1",
    "Error building extension '{op}'": "torch cpp_extension.py: the caller passes the text as error_prefix",
    "Error compiling objects for extension": "torch cpp_extension.py: the caller passes the text as error_prefix",
    "torch.distributed.elastic.multiprocessing.errors.ChildFailedError": "the exception's class name, not a message",
    "copying a param with shape torch.Size([0])": "a value (torch.Size([0])) written into torch's template",
    "the shape in current model is torch.Size([0]).": "a value (torch.Size([0])) written into torch's template",
    "recomputed metadata: {'shape': torch.Size([0])": "a value written into torch's template",
}


def test_lookup_names_the_raising_function() -> None:
    got = MI.lookup("AssertionError: zero stage 1 requires an optimizer")
    assert got and not got[0].cut
    assert {(m.message.package, m.message.module, m.message.function) for m in got} == {
        ("deepspeed", "deepspeed.runtime.engine", "DeepSpeedEngine._configure_zero_optimizer")}
    assert any(m.message.template == "zero stage {} requires an optimizer" and m.message.span.has("0.14.2") for m in got)
    att = attribute("AssertionError: zero stage 1 requires an optimizer")
    assert att is not None and att.message.span.has("0.19.8") and att.message.span.has("0.9.0")
    assert att.message.where().startswith("DeepSpeed's deepspeed.runtime.engine DeepSpeedEngine._configure_zero_optimizer "
                                          "(deepspeed ")


def test_a_line_cut_mid_message_still_matches() -> None:
    line = "ValueError: The effective train batch size (1 x 2 x 4) must be evenly divisible by the number of gen"
    got = MI.lookup(line, frozenset(["trl"]))
    assert got and all(m.message.package == "trl" and m.cut for m in got)
    assert "GRPOTrainer.__init__" in {m.message.function for m in got}


def test_short_or_unrelated_lines_match_nothing() -> None:
    assert MI.lookup("ValueError: x") == []
    assert MI.lookup("the quick brown fox jumps over the lazy dog") == []


def test_lookup_is_fast() -> None:
    MI.lookup("warm up the index")
    lines = ["AssertionError: zero stage 1 requires an optimizer",
             "RuntimeError: Error building extension 'cpu_adam': [1/3] c++ -MMD -MF cpu_adam.o.d -DTORCH_EXTENSION_NAME",
             "[rank0]: ValueError: Please correct the following DeepSpeed config values that mismatch TrainingArguments "
             "values:\n- ds train_micro_batch_size_per_gpu=4 vs hf per_device_train_batch_size=8"] * 20
    start = time.perf_counter()
    for line in lines:
        MI.lookup(line)
    assert (time.perf_counter() - start) / len(lines) < 0.005


def test_provenance_says_what_was_read() -> None:
    prov = MI.provenance()
    assert prov["script"] == "scripts/upstream/derive_messages.py"
    assert "derive_messages.py" in prov["refresh"]
    for pkg in ("deepspeed", "transformers", "torch"):
        rows = prov["packages"][pkg]
        assert rows and all(r["sha256"] and r["file"] and r["version"] for r in rows)


def test_explain_attributes_a_library_message_no_cause_names() -> None:
    out = subprocess.run([sys.executable, "-m", "dsdoctor", "explain", str(CASE), "--format", "json"],
                         capture_output=True, text=True, timeout=120)
    data = json.loads(out.stdout)
    first = data["diagnoses"][0]
    assert first["name"] == "unknown"
    text = json.dumps(first)
    assert "TRL's trl.trainer.grpo_trainer GRPOTrainer.__init__ (trl " in text
    assert "grpo_train.py" in text  # the user's frame that led there


def test_attribution_follows_the_raising_frame_and_the_versions() -> None:
    line = "AssertionError: zero stage 1 requires an optimizer"
    ds = [("/home/u/train.py", 9, "<module>"), ("/venv/lib/python3.11/site-packages/deepspeed/runtime/engine.py", 1508,
                                                "_configure_zero_optimizer")]
    att = attribute(line, ds)
    assert att is not None and att.message.package == "deepspeed" and att.text == "zero stage 1 requires an optimizer"
    # raised in a library the index does not read: it says nothing (failure.raised_by names the library)
    assert attribute(line, [("/venv/lib/python3.11/site-packages/bitsandbytes/nn.py", 3, "f")]) is None
    # a version the log prints that lacks the message rules the template out
    assert attribute(line, ds, {"deepspeed": "0.9.0"}) is not None
    first = att.message.span.first()
    assert first is not None and attribute(line, ds, {"deepspeed": "0.1.0"}) is not None  # outside the releases read


def test_no_attribution_from_a_few_shared_words() -> None:
    # torch's "{}.{} does not exist" (distributed/_spmd/config.py) shares 16 characters with this C++ message
    assert attribute("RuntimeError: Parent directory ../out/pytorch_model.bin does not exist.") is None
    # torch's Module.__getattr__ copies Python's own text: only its frame says the line is torch's
    line = "AttributeError: 'LlamaModel' object has no attribute 'foo_bar'"
    assert attribute(line) is None
    got = attribute(line, [("/venv/lib/python3.11/site-packages/torch/nn/modules/module.py", 1729, "__getattr__")])
    assert got is not None and got.message.function == "Module.__getattr__"


def test_the_fix_a_message_states() -> None:
    assert fix_sentence("Tokenizer class X does not exist. Please use `AutoTokenizer` instead.") == (
        "Please use `AutoTokenizer` instead.")
    assert fix_sentence("zero stage 1 requires an optimizer") == ""


# ------------------------------------------------------------------------------------ curated messages

_PACKAGE = re.compile(r"^(?:the\s)?(deepspeed|transformers|accelerate|peft|trl|torch)(?:/|\b)", re.I)
_RANGE = re.compile(r"(\d+\.[\dx]+(?:\.\d+)?)(\+)?(?:\s*-\s*(\d+\.[\dx]+(?:\.\d+)?))?")


_OTHER = re.compile(r"pydantic|LLaMA-Factory|ms-swift|\bgcc\b|nvcc|ninja|\bpip\b|bash|NCCL|CPython|libstdc|glibc")


def _package(source: str, default: str = "") -> str:
    """The indexed package a curated source names first ("" when another: pydantic, gcc, nvcc, LLaMA-Factory)."""
    s = source.strip()
    if s.startswith("torch/csrc") or "(C++" in s or _OTHER.match(s):
        return ""  # torch's C++ sources are not read
    m = _PACKAGE.match(s)
    if m:
        return m.group(1).lower()
    return default if not re.match(r"^[\w.-]+/", s) else ""


def _signatures() -> Iterator[Tuple[str, str, str]]:
    """(cause name, template, source) of every message signature."""
    for c in CAUSES:
        for sig in c.signatures:
            if sig.template:
                yield c.name, sig.template, sig.source


def _constants() -> Iterator[Tuple[str, str, str]]:
    """(module:NAME, template, source comment) of each ``MSG_*`` string constant in the knowledge modules."""
    defaults = {"ds_": "deepspeed", "transformers": "transformers", "trl": "trl"}
    for path in sorted(KNOWLEDGE.glob("*.py")):
        text = path.read_text()
        lines = text.splitlines()
        default = next((v for k, v in defaults.items() if path.stem.startswith(k)), "")
        for node in ast.parse(text).body:
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                    and node.targets[0].id.startswith("MSG_")):
                continue
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                continue
            for tmpl in (value if isinstance(value, tuple) else (value,)):
                if isinstance(tmpl, str):
                    yield f"{path.stem}:{node.targets[0].id}", tmpl, _comment(lines, node.lineno, default)


def _comment(lines: List[str], lineno: int, default: str) -> str:
    """The comment beside a constant's line, else the comment lines just above it; prefixed with the module's
    package when it names no path."""
    beside = lines[lineno - 1].split("  # ", 1)
    text = beside[1] if len(beside) > 1 else ""
    i = lineno - 2
    above: List[str] = []
    while not text and i >= 0 and lines[i].startswith("#"):
        above.insert(0, lines[i].lstrip("# "))
        i -= 1
    text = text or " ".join(above)
    if _OTHER.search(text.split("(")[0]):
        return text  # another library's message (pydantic's, LLaMA-Factory's)
    return text if _package(text) or not default else f"{default} {text}"


def _filled(template: str) -> str:
    return re.sub(r"\{[a-z_]+\}", "X", template)


def _found(template: str, pkg: str) -> List[MI.Match]:
    """Index templates of ``pkg`` that the curated template shows (or that hold its literal text)."""
    got = MI.lookup(_filled(template), frozenset([pkg]))
    pieces = [p for p in re.split(r"\{[a-z_]+\}", template) if p.strip()]
    idx = MI._index()
    out = list(got)
    for i, (p, _, row) in enumerate(idx.rows):  # a template with a literal value (or "{line}") where ours has a field
        if p == pkg and all(x.replace("{", "{{").replace("}", "}}") in row[3] or x in row[3] for x in pieces):
            out.append(MI.Match(idx.get(i)[0], sum(map(len, pieces)), False))
    return out


def _bound(text: str, upper: bool) -> Optional[str]:
    """A curated bound as a version: ``4.3x`` as a lower bound is 4.40 (some 4.3x release), as an upper 4.30."""
    if "x" not in text:
        return text
    head = text.split("x")[0].rstrip(".")
    if not head.replace(".", "").isdigit():
        return None
    if head.endswith(tuple("0123456789")) and "." in head and text.endswith("x") and not text.endswith(".x"):
        major, minor = head.rsplit(".", 1)
        return f"{major}.{int(minor) * 10}" if upper else f"{major}.{int(minor) * 10 + 10}"
    return f"{head}.0" if upper else f"{int(head) + 1}.0"


def _claimed(source: str, read: Tuple[str, ...]) -> List[str]:
    """The releases read inside the first release range the source names ("(0.9-0.19.8)", "(4.x-5.24)",
    "0.19.5+"; a lone "(0.19.8)")."""
    from packaging.version import Version
    m = _RANGE.search(source.split(" and ")[0])
    if m is None or source[:m.start()].endswith("not "):
        return []
    lo = _bound(m.group(1), False)
    hi = None if m.group(2) else _bound(m.group(3) or m.group(1), True)
    if lo is None or (hi is None and not m.group(2)):
        return []
    out = []
    for ver in read:
        v = Version(ver)
        hi_ok = hi is None or v <= Version(hi) or (Version(hi).release[2:] == () and v.release[:2] <= Version(hi).release[:2])
        if Version(lo) <= v and hi_ok:
            out.append(ver)
    return out


def _before(source: str, read: Tuple[str, ...]) -> bool:
    from packaging.version import Version
    m = _RANGE.search(source.split(" and ")[0])
    hi = _bound(m.group(3) or m.group(1), True) if m and not m.group(2) else None
    return hi is not None and Version(hi).release[:2] < Version(read[0]).release[:2]


def _curated() -> List[Tuple[str, str, str, str]]:
    seen: Set[str] = set()
    out = []
    for label, tmpl, source in list(_signatures()) + list(_constants()):
        pkg = _package(source)
        if pkg and tmpl not in seen and len(re.sub(r"\{[a-z_]+\}|\s", "", tmpl)) >= 12:  # the index's minimum
            seen.add(tmpl)
            out.append((label, tmpl, source, pkg))
    return out


def test_curated_messages_are_in_the_index() -> None:
    missing, wrong_releases = [], []
    for label, tmpl, source, pkg in _curated():
        if any(tmpl.startswith(k) for k in NOT_INDEXED):
            continue
        found = _found(tmpl, pkg)
        if not found and _before(source, tuple(MI.provenance()["packages"][pkg][i]["version"] for i in (0,))):
            continue
        if not found:
            missing.append(f"{label}: {tmpl!r} ({source})")
            continue
        read = found[0].message.span.read
        if _before(source, read):
            continue  # the releases it names are all older than the first release read
        lacking = [v for v in _claimed(source, read) if not any(m.message.span.has(v) for m in found)]
        if lacking:
            wrong_releases.append(f"{label}: {tmpl!r} ({source}): not in {pkg} {', '.join(lacking)}")
    assert not missing, "curated messages not in the index:\n" + "\n".join(missing)
    assert not wrong_releases, "curated messages not in releases their source names:\n" + "\n".join(wrong_releases)


@pytest.mark.parametrize("prefix", sorted(NOT_INDEXED))
def test_each_exception_is_still_needed(prefix: str) -> None:
    hits = [(t, p) for _, t, _, p in _curated() if t.startswith(prefix)]
    assert hits, f"{prefix!r} is no curated message any more"
    assert not any(_found(t, p) for t, p in hits), f"{prefix!r} is in the index now: drop it from NOT_INDEXED"
