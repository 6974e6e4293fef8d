"""The model-type history (``knowledge/model_types``, from ``scripts/upstream/derive_model_types.py``) and explain's
two version answers that read the derived data: a model type the installed Transformers predates, and the asker of
an import when the log shows none of its frames (the API history's uses)."""

from __future__ import annotations

from dsdoctor import names as N
from dsdoctor.explain import diagnose_log
from dsdoctor.explain.causes import api_answer as A
from dsdoctor.explain.causes import model_types as MC
from dsdoctor.knowledge import model_types as MT

AUTO = "/venv/lib/python3.10/site-packages/transformers/models/auto/configuration_auto.py"


def test_data_spans_and_provenance() -> None:
    rel = MT.releases()
    assert rel[0] == "4.10.0" and len(rel) >= 125  # releases before 4.10.0 have no CONFIG_MAPPING_NAMES
    qwen2 = MT.span("qwen2")
    assert qwen2 is not None and qwen2.added_in() == "4.37.0" and qwen2.removed_in() is None
    bert = MT.span("bert")
    assert bert is not None and bert.added_in() is None  # in every release read
    assert MT.span("chatglm") is None  # remote code: no release maps it
    prov = MT.provenance()
    assert prov["script"].endswith("derive_model_types.py") and len(prov["releases"]) == len(rel)
    assert all(r["sha256"] for r in prov["releases"])


def test_model_type_unknown_rules() -> None:
    frames = [(AUTO, "raise KeyError(key)")]
    got = MC.model_type_unknown("KeyError: 'qwen2'", frames, "")
    assert got == {"type": "qwen2", "added": "4.37.0", "before": "4.36.2"}
    assert MC.model_type_unknown("KeyError: 'qwen2'", frames, "4.36.2") is not None
    assert MC.model_type_unknown("KeyError: 'qwen2'", frames, "4.37.0") is None  # installed release has it
    assert MC.model_type_unknown("KeyError: 'qwen2'", [("/work/train.py", "cfg[k]")], "") is None  # not AutoConfig's
    assert MC.model_type_unknown("KeyError: 'bert'", frames, "") is None  # every release read maps it
    assert MC.model_type_unknown("KeyError: 'chatglm'", frames, "") is None
    gone = MT.span("granitevision")  # added, then dropped again by a later release read
    assert gone is not None and gone.added_in() and gone.removed_in()
    assert MC.model_type_unknown("KeyError: 'granitevision'", frames, "") is None
    assert MC.model_type_unknown("KeyError: 'granitevision'", frames, str(gone.removed_in())) is None
    msg = ("ValueError: The checkpoint you are trying to load has model type `gemma3` but Transformers does not "
           "recognize this architecture. This could be because of an issue with the checkpoint, or because your "
           "version of Transformers is out of date.")
    assert (MC.model_type_unknown(msg, [], "") or {}).get("added") == "4.50.0"


def test_explain_names_release() -> None:
    log = ("transformers==4.45.2\nTraceback (most recent call last):\n"
           f"  File \"{AUTO}\", line 725, in __getitem__\n    raise KeyError(key)\nKeyError: 'qwen3'\n")
    first = diagnose_log(log).findings[0]
    assert first.name == N.TRANSFORMERS_TOO_OLD_FOR_MODEL
    assert "4.51.0" in first.title and "4.45.2" in first.explanation
    assert any("transformers>=4.51.0" in c for fx in first.fixes for c in fx.commands)


def test_sole_consumer_from_uses() -> None:
    # DeepSpeed's elastic agent is the one package read that imports torch's elastic `log`
    assert A._sole_consumer("torch", "import", "torch.distributed.elastic.agent.server.api", "log") == "deepspeed"
    assert A._sole_consumer("torch", "attribute", "torch.distributed.elastic.agent.server.api", "log") == ""
    got = A.answer({"kind": "import", "module": "torch.distributed.elastic.agent.server.api", "name": "log"}, {})
    assert got is not None and got.pins[0] == "torch<2.4.0" and got.pins[1].startswith("deepspeed>=0.14")


def test_sole_consumer_needs_every_consumer_recorded() -> None:
    # PEFT's uses of DeepSpeed are not recorded: no asker is inferred for a DeepSpeed name
    assert A._sole_consumer("deepspeed", "import", "deepspeed", "get_accelerator") == ""
