"""lint/script/quiet.py: a file left to the stdlib parser (no libcst analysis) is one no script rule fires on.

Every Python rule's examples and every script fixture, in each context a project can give a file (none, a ZeRO-3
project, a launch that is on / off, a test file, a project without DeepSpeed, a module a ZeRO-3 launch imports, a
user-given stage), linted with the prefilter and with every file analysed: the same findings."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Dict, List, Tuple

import pytest
from packaging.version import Version

from dsdoctor.lint import lint_target, make_target
from dsdoctor.lint.all_rules import REGISTRY, SCRIPT_RULES
from dsdoctor.lint.script import quiet as Q
from dsdoctor.lint.target import Usage

FAILED = "lint-analysis-failed"
CASES = Path(__file__).parent / "cases" / "lint-scripts"
TEXTS: List[Tuple[str, str, Tuple[Tuple[str, object], ...]]] = [
    (f"{name}-{kind}{i}", ex.text, ex.options) for name, r in sorted(REGISTRY.items()) if r.kind == "python"
    for kind, exs in (("valid", r.valid), ("invalid", r.invalid)) for i, ex in enumerate(exs)]
TEXTS += [(f.stem, f.read_text(), ()) for f in sorted(CASES.glob("*.py"))]

Context = Callable[[Usage, str], None]


def _zero3(u: Usage, p: str) -> None:
    u.zero3, u.zero3_source = True, "ds_z3.json"


def _asked(u: Usage, p: str) -> None:
    u.zero3, u.zero3_source = True, "--zero-stage 3"


CONTEXTS: Dict[str, Context] = {
    "none": lambda u, p: None,
    "zero3-project": _zero3,
    "asked": _asked,
    "launch-on": lambda u, p: u.launches.update({p: (True, "run.sh")}),
    "launch-off": lambda u, p: u.launches.update({p: (False, "no DeepSpeed launch of the project reaches it")}),
    "test-file": lambda u, p: u.never_zero3.update({p: "a test file"}),
    "no-deepspeed": lambda u, p: u.no_deepspeed.update({p: "no DeepSpeed"}),
    "imported": lambda u, p: (_zero3(u, p), u.imported.update({p: None})),
}


def _findings(text: str, options: Tuple[Tuple[str, object], ...], context: Context, tmp: Path,
              skip_failed: bool) -> List[str]:
    path = tmp / "train.py"
    path.write_text(text)
    usage = Usage(memlock=None)
    for key, val in options:
        setattr(usage, key, Version(str(val)) if key == "ds" else val)
    context(usage, str(path))
    return sorted(f"{h.finding.name}@{h.finding.line}:{h.finding.severity.value}:{h.finding.title}"
                  for h in lint_target(make_target(str(path), "python", usage))
                  if not (h.finding.name == FAILED and skip_failed))


@pytest.mark.parametrize("ctx", sorted(CONTEXTS))
def test_prefilter_changes_no_finding(ctx: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, text, options in TEXTS:
        fast = _findings(text, options, CONTEXTS[ctx], tmp_path, False)
        with monkeypatch.context() as m:
            m.setattr(Q, "quiet", lambda *a: False)
            # the one difference: a file no rule can fire on is not analysed, so its analysis cannot fail
            full = _findings(text, options, CONTEXTS[ctx], tmp_path, not any(f.startswith(FAILED) for f in fast))
        assert fast == full, name


def test_quiet_only_when_no_rule_can_fire() -> None:
    u = Usage()
    u.never_zero3["t.py"] = "a test file"
    assert Q.quiet("t.py", "m = AutoModelForCausalLM.from_pretrained('x', device_map='auto')\n", u, None, "")
    assert not Q.quiet("t.py", "m = M.from_pretrained('x', device_map='auto', low_cpu_mem_usage=False)\n", u, None, "")
    assert not Q.quiet("t.py", "from transformers.deepspeed import HfDeepSpeedConfig\n", u, None, "")
    assert not Q.quiet("t.py", "from transformers import (\n    Trainer,\n    deepspeed,\n)\n", u, None, "")
    assert not Q.quiet("t.py", "import deepspeed\nengine, *_ = deepspeed.initialize(model=m, config=c)\n", u, None, "")
    assert Q.quiet("t.py", "from transformers import AutoModel\n# not for deepspeed\nm = AutoModel.from_pretrained('x')\n",
                   u, None, "")
    helper = "def load(p):\n    return AutoModelForCausalLM.from_pretrained(p, device_map='auto')\n"
    assert Q.quiet("h.py", helper.replace(", device_map='auto'", ""), Usage(), True, "--zero-stage 3")  # no rule's words
    assert Q.quiet("h.py", helper, Usage(), True, "ds_z3.json")  # it does not train: off in a ZeRO-3 project
    assert not Q.quiet("h.py", helper, Usage(), True, "--zero-stage 3")  # the user's stage holds for every file
    assert not Q.quiet("h.py", helper + "t = Trainer(model=load('m'))\n", Usage(), True, "ds_z3.json")
    assert not Q.quiet("h.py", helper + "a = TrainingArguments('o', config='z3.json')\n", Usage(), False, "run.sh")
    assert not Q.quiet("h.py", helper + "p.add_argument('--deepspeed', default='z3.json')\n", Usage(), False, "run.sh")
    assert Q.quiet("h.py", helper + "# see the deepspeed docs\n", Usage(), False, "run.sh")


def test_unparsable_quiet_file_reports_libcst_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "t.py"
    p.write_text("m = AutoModelForCausalLM.from_pretrained('x')\nprint 'py2'\n")
    usage = Usage()
    usage.never_zero3[str(p)] = "a test file"
    assert Q.quiet(str(p), p.read_text(), usage, None, "")
    got = [h.finding.title for h in lint_target(make_target(str(p), "python", usage))]
    monkeypatch.setattr(Q, "quiet", lambda *a: False)
    assert got == [h.finding.title for h in lint_target(make_target(str(p), "python", usage))]
    assert len(got) == 1 and "Python 2 syntax" in got[0]


def test_every_script_rule_has_a_trigger() -> None:
    """A script rule is either one :func:`ungated` stands for or has its necessary words in ``GATED``."""
    python = {r.name for r in SCRIPT_RULES}
    assert python == set(Q.GATED) | set(Q.UNGATED_RULES)
    assert not set(Q.GATED) & set(Q.UNGATED_RULES)


def test_gated_words_per_rule() -> None:
    """A file in a ZeRO-3 context is still quiet when no rule's words are in it; one rule's words are enough."""
    u = Usage()
    u.zero3, u.zero3_source = True, "--zero-stage 3"  # the user's stage: every file's context is on
    plain = "import torch\nfrom transformers import AutoTokenizer\ntok = AutoTokenizer.from_pretrained('m')\n"
    assert Q.quiet("t.py", plain, u, True, "--zero-stage 3")
    for text in ("model.save_pretrained('out')\n", "if args.local_rank == 0:\n    trainer.save_model('out')\n",
                 "from peft import get_peft_model\nargs.gradient_checkpointing = True\n",
                 "q = BitsAndBytesConfig(load_in_4bit=True)\n", "m = LlamaForCausalLM(cfg)\nTrainingArguments('o')\n",
                 "m = A.from_pretrained('m', device_map='auto')\n", "m = A.from_pretrained('m', quantization_config=GPTQConfig(bits=4))\n"):
        assert not Q.quiet("t.py", text, u, True, "--zero-stage 3"), text


@pytest.mark.parametrize("text", ["import torch\n", "from TRL import x\n", "# 训练 with DeepSpeed\n", "# 说明\nx = 1\n",
                                  "x = 'deepſpeed'\n", "HfArgumentParser\u212a\n", "Trainer = 1\n", "parse_dict(x)\n",
                                  "# 说明\nTrainingArguments('o')\n", "class A: pass\n"])
def test_trains_is_the_regex(text: str) -> None:
    """The lower-cased lookup answers what ``TRAINS.search`` answers, with characters re.IGNORECASE folds to ASCII
    letters (the long s, the Kelvin sign) too."""
    assert Q.trains(text) == (Q.TRAINS.search(text) is not None)
