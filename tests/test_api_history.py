"""The API history shipped in src/dsdoctor/knowledge/data/api.json.gz (made by scripts/upstream/derive_api.py from
the released sources): facts read there, the answers built on them, and that unknown stays unknown."""

from __future__ import annotations

from pathlib import Path

import pytest

from dsdoctor.explain.causes import api_answer as A
from dsdoctor.knowledge import api_history as H
from dsdoctor.knowledge.release_spans import Span


def _need(*packages: str) -> None:
    missing = [p for p in packages if not H.releases(p)]
    if missing:
        pytest.fail(f"no release of {missing} in the API history: re-run scripts/upstream/derive_api.py")


def test_provenance_lists_every_release_read() -> None:
    prov = H.provenance()
    assert prov["made_by"].startswith("scripts/upstream/derive_api.py") and "refresh" in prov
    for pkg in H.packages():
        rows = prov["packages"][pkg]["releases"]
        assert [r["version"] for r in rows] == list(H.releases(pkg))
        assert all(len(r["sha256"]) == 64 and r["file"] for r in rows)


def test_accelerate_removed_dispatch_batches_in_1_0_0() -> None:
    _need("accelerate")
    assert ("accelerate.accelerator", "Accelerator.__init__") in H.callables_named("Accelerator.__init__")
    span = H.param_span("accelerate", "Accelerator.__init__", "dispatch_batches")  # through the re-export
    assert span is not None and span.has("0.34.2") is True and span.has("1.0.0") is False
    change = H.change_near(span, "1.0.0")
    assert change is not None and (change.kind, change.before, change.after, change.exact) == ("removed", "0.34.2", "1.0.0", True)


def test_incompatible_finds_the_trainer_keyword() -> None:
    _need("transformers", "accelerate")
    found = H.incompatible({"transformers": "4.36.2", "accelerate": "1.0.0"})
    kw = [i for i in found if i.kind == "keyword" and i.keyword == "dispatch_batches"]
    assert kw, found
    assert kw[0].name == "Accelerator" and kw[0].at == "transformers.trainer"
    assert "accelerate<1.0.0" in kw[0].pins()
    assert "removed in accelerate 1.0.0" in kw[0].missing


def test_a_compatible_pair_and_unknown_versions_say_nothing() -> None:
    _need("transformers", "accelerate")
    assert [i for i in H.incompatible({"transformers": "4.46.3", "accelerate": "1.1.1"})
            if i.provider == "accelerate"] == []
    # versions outside the releases read: no answer, never a guess
    assert H.incompatible({"transformers": "3.0.0", "accelerate": "1.0.0"}) == []
    assert H.incompatible({"transformers": "4.36.2", "accelerate": "99.0.0"}) == []


def test_deepspeed_elastic_agent_log_import() -> None:
    """DeepSpeed before 0.14.1 imports `log` from torch's elastic agent, which torch 2.4 renamed."""
    _need("deepspeed")
    uses = H.uses("deepspeed")["torch"]["imports"]["torch.distributed.elastic.agent.server.api:log"]
    span = Span.of("deepspeed", H.releases("deepspeed"), uses["u"])
    assert span.has("0.14.0") is True and span.has("0.14.1") is False


def test_open_modules_never_lack_a_name() -> None:
    _need("torch")
    # torch/__init__.py star-imports torch._C (not read): a name missing there is unknown
    span = H.name_span("torch", "surely_not_a_torch_name")
    assert span is not None and not span.ranges
    assert H.lacks(span, H.releases("torch")[-1], "torch") is None


def test_uncovered_modules_are_unknown() -> None:
    assert H.module_span("torch.fx.passes") is None  # torch/fx is not read
    assert H.module_span("transformers.models.llama.modeling_llama") is None  # models/* not read
    assert H.module_span("vllm.model_executor.models.llama") is None  # vllm: engine, config, entrypoints only
    assert H.module_span("xformers.ops") is None  # not a package read


def test_answer_with_and_without_the_installed_version() -> None:
    _need("accelerate")
    g = {"caller": "transformers", "kind": "keyword", "module": "Accelerator.__init__", "name": "dispatch_batches"}
    got = A.answer(g, {"accelerate": "1.0.1", "transformers": "4.36.2"})
    assert got is not None and got.pins[0] == "accelerate<1.0.0"
    assert "accelerate removed `dispatch_batches`" in got.facts and "accelerate 1.0.1" in got.facts
    assert A.answer(g, {"accelerate": "0.30.0"}) is None  # the installed release has it: the data does not explain it
    bare = A.answer(g, {})
    assert bare is not None and bare.pins[0].startswith("accelerate") and "<" in bare.pins[0]
    assert A.answer(dict(g, name="no_such_keyword_anywhere"), {}) is None


def test_vllm_removed_worker_use_ray_in_0_7_0() -> None:
    """vLLM's EngineArgs is a dataclass: its __init__ is read from its fields (sdists 0.6.6.post1 and 0.7.0)."""
    _need("vllm")
    g = {"caller": "", "kind": "keyword", "module": "EngineArgs.__init__", "name": "worker_use_ray"}
    got = A.answer(g, {})
    assert got is not None and got.pins == ("vllm<0.7.0",)
    assert "removed `worker_use_ray`" in got.how and "0.6.6.post1" in got.how
    assert A.answer(g, {"vllm": "0.6.6.post1"}) is None  # that release takes it: not what failed


def test_a_skipped_minor_series_is_not_an_exact_step() -> None:
    _need("vllm")
    assert H.exact_step("vllm", "0.6.6.post1", "0.7.0")
    assert not H.exact_step("vllm", "0.14.1", "0.16.0")  # 0.15 has no sdist: not read


def test_numpy_2_removed_names() -> None:
    from dsdoctor.knowledge import numpy as NP

    if NP.removed("BUFSIZE") is None:
        pytest.skip("numpy2.json.gz not derived")
    assert NP.removed("NaN") is not None and NP.removed("nan") is None and NP.removed("in1d") is None  # 2.0 kept in1d
    got = A.answer({"kind": "import", "module": "numpy", "name": "BUFSIZE"}, {})
    assert got is not None and got.pins == ("numpy<2.0.0", "deepspeed>=0.14.4")
    assert A.answer({"kind": "import", "module": "numpy", "name": "BUFSIZE"}, {"numpy": "1.26.4"}) is None
    with_ds = A.answer({"kind": "import", "module": "numpy", "name": "BUFSIZE"}, {"deepspeed": "0.15.1"})
    assert with_ds is not None and with_ds.pins == ("numpy<2.0.0",)  # that DeepSpeed no longer imports it


def test_a_packages_own_test_scripts_are_not_its_calls() -> None:
    """accelerate 1.15.0's test_utils/scripts import a torch module torch 2.5 removed; training never runs them. The
    same installed pair still reports accelerate's own (tensor-parallel) call, so the filter is not an empty answer."""
    found = H.incompatible({"accelerate": "1.15.0", "torch": "2.11.0", "transformers": "5.17.0"})
    assert found and not [i for i in found if "test_utils" in i.at or ".tests." in i.at], [i.at for i in found]
    assert any(i.at == "accelerate.accelerator" for i in found), [i.at for i in found]



def test_lints_part_holds_the_full_historys_rows() -> None:
    """``api_lint.json.gz`` (what every lint asks: TrainingArguments' fields) answers as the whole history does."""
    from dsdoctor.knowledge import training_args as T

    _need("transformers")
    small = T._lint_data()
    assert set(small["provenance"]["packages"]) == {"transformers"}
    assert small["provenance"]["packages"]["transformers"] == H.provenance()["packages"]["transformers"]
    rows = [(m, q) for m, quals in small["params"].items() for q in quals]
    assert (T.MODULE, T.INIT) in rows
    for row in rows:
        got = T.lint_params(*row)
        assert got is not None and got == H.params(*row), row


def test_a_lint_run_does_not_read_the_whole_history(tmp_path: Path) -> None:
    """In a fresh process, a whole-project lint with a Trainer launch (its options judged against TrainingArguments'
    fields) reads lint's part of the history, never the whole ``api.json.gz``."""
    import subprocess
    import sys

    root = tmp_path / "proj"
    root.mkdir()
    (root / "train.py").write_text("from transformers import Trainer, TrainingArguments\n"
                                   "args = TrainingArguments(output_dir='o')\nTrainer(args=args).train()\n")
    (root / "run.sh").write_text("deepspeed train.py --deepspeed ds.json --evaluation_strategy steps\n")
    (root / "ds.json").write_text('{"zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": "auto"}\n')
    code = ("import sys\nfrom dsdoctor.knowledge import api_history as H, training_args as T\n"
            "from dsdoctor.lint import lint\nlint([sys.argv[1]])\n"
            "print(H._data.cache_info().currsize, T._lint_data.cache_info().currsize, T.fields.cache_info().currsize)\n")
    out = subprocess.run([sys.executable, "-c", code, str(root)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["0", "1", "1"]
