"""The general versions rule (explain/causes/versions.py api_mismatch): an import / attribute / keyword one installed
package's code asks of another is a versions disagreement; the user's own code asking, or a package's own state, is not."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from dsdoctor.explain import diagnose_log
from dsdoctor.explain.causes.versions import api_mismatch
from dsdoctor.explain.logfiles import explain_paths
from dsdoctor.knowledge import regressions as R
from dsdoctor.knowledge.versions import parse

SITE = "/venv/lib/python3.11/site-packages/"


def test_a_package_asking_another() -> None:
    g = api_mismatch("ImportError: cannot import name 'BUFSIZE' from 'numpy' (/venv/numpy/__init__.py)",
                     [(SITE + "deepspeed/autotuning/scheduler.py", "from numpy import BUFSIZE")])
    assert g is not None and (g["caller"], g["module"], g["name"]) == ("deepspeed", "numpy", "BUFSIZE")
    g = api_mismatch("TypeError: DeepSpeedEngine.load_checkpoint() got an unexpected keyword argument 'weights_only'",
                     [(SITE + "accelerate/accelerator.py", "model.load_checkpoint(input_dir, weights_only=False)")])
    assert g is not None and (g["caller"], g["kind"], g["name"]) == ("accelerate", "keyword", "weights_only")


def test_not_two_packages() -> None:
    user = [("/home/user/proj/train.py", "import deepspeed.foo")]
    assert api_mismatch("ModuleNotFoundError: No module named 'deepspeed.foo'", user) is None
    own = [(SITE + "deepspeed/runtime/zero/stage_1_and_2.py", "self.ipg_buffer[self.ipg_index].narrow(")]
    assert api_mismatch("AttributeError: 'DeepSpeedZeroOptimizer' object has no attribute 'ipg_index'", own) is None
    wrong_type = [(SITE + "transformers/trainer.py", "model.config")]
    assert api_mismatch("AttributeError: 'NoneType' object has no attribute 'config'", wrong_type) is None
    same = [(SITE + "torch/__init__.py", "from torch._C import *")]
    assert api_mismatch("ImportError: cannot import name 'x' from 'torch._C'", same) is None


def test_regressions_need_the_release() -> None:
    text = "AttributeError: module 'torch.compiler' has no attribute 'is_compiling'"
    assert R.deepspeed_bug(text, parse("0.15.3")) is R.DS_TORCH_IS_COMPILING
    assert R.deepspeed_bug(text, parse("0.15.4")) is None and R.deepspeed_bug(text, None) is None


def test_an_attribute_lookup_is_not_a_version_incompatibility() -> None:
    """nn.Module.__getattr__ (and a wrapper's __getattr__ handing down to it) raises for any name the model lacks:
    the frame that raised is the lookup, not a package asking another for its API, so it says nothing of versions."""
    log = ("Traceback (most recent call last):\n"
           '  File "/venv/lib/python3.10/site-packages/peft/peft_model.py", line 737, in __getattr__\n'
           "    return super().__getattr__(name)  # defer to nn.Module's logic\n"
           '  File "/venv/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1729, in __getattr__\n'
           "    raise AttributeError(f\"'{type(self).__name__}' object has no attribute '{name}'\")\n"
           "AttributeError: 'PeftModelForCausalLM' object has no attribute 'save_checkpoint'\n")
    assert diagnose_log(log).findings[0].name != "package-versions-incompatible"


def test_versions_from_install_paths() -> None:
    """A frame's path into an installed egg or dist-info names the release; a downloaded wheel's name does not."""
    egg = ('  File "/env/lib/python3.8/site-packages/transformers-4.4.2-py3.8.egg/transformers/trainer.py", line 903, '
           "in train\n")
    assert diagnose_log(egg).facts["versions"] == {"transformers": "4.4.2"}
    assert diagnose_log("accelerate-0.25.0.dist-info\n").facts["versions"] == {"accelerate": "0.25.0"}
    assert diagnose_log("Downloading transformers-4.36.0-py3-none-any.whl (8.2 MB)\n").facts["versions"] == {}


def test_a_stated_requirement_is_the_answer() -> None:
    """require_version's message names the requirement and the installed release: the summary says both, and the
    fixes are the requirement only (not the DeepSpeed / torch / Transformers catch-all)."""
    first = diagnose_log("ImportError: peft>=0.11.0 is required for a normal functioning of this module, but found "
                         "peft==0.10.0.\n").findings[0]
    assert first.name == "package-versions-incompatible"
    assert "peft>=0.11.0" in first.title and "peft==0.10.0 is installed" in first.title
    assert [c for fx in first.fixes for c in fx.commands] == ["python -m pip install 'peft>=0.11.0'"]


_PYD_WARN = ("/venv/lib/python3.10/site-packages/pydantic/_internal/_config.py:261: UserWarning: Valid config keys have "
             "changed in V2:\n* 'validate_all' has been renamed to 'validate_default'\n  warnings.warn(message, UserWarning)\n")
_DS_IMPORT = ("Traceback (most recent call last):\n  File \"/home/u/train.py\", line 3, in <module>\n    import deepspeed\n"
              "  File \"/venv/lib/python3.10/site-packages/deepspeed/__init__.py\", line 16, in <module>\n"
              "    from . import module_inject\n")


def test_pydantic_2_under_a_pydantic_v1_deepspeed() -> None:
    f = diagnose_log(_PYD_WARN + _DS_IMPORT).findings[0]
    assert f.name == "package-versions-incompatible" and "0.11.2" in f.title
    assert diagnose_log(_DS_IMPORT).findings[0].name != "package-versions-incompatible"  # no pydantic 2 shown
    other = _DS_IMPORT + "ImportError: libcudart.so.12: cannot open shared object file\n"
    assert diagnose_log(_PYD_WARN + other).findings[0].title.find("pydantic") < 0  # another failure
    newer = ("[2024-05-01 10:00:00,000] [INFO] [logging.py:96:log_dist] [Rank 0] DeepSpeed info: version=0.14.2, "
             "git-hash=unknown, git-branch=unknown\n" + _PYD_WARN + _DS_IMPORT)
    assert "pydantic 2" not in diagnose_log(newer).findings[0].title  # that release reads pydantic.v1


def test_numpy_2_expired_attribute() -> None:
    log = ("  File \"/venv/lib/python3.11/site-packages/somepkg/x.py\", line 3, in <module>\n    y = np.NaN\n"
           "AttributeError: `np.NaN` was removed in the NumPy 2.0 release. Use `np.nan` instead.\n")
    f = diagnose_log(log).findings[0]
    assert f.name == "package-versions-incompatible" and "numpy 2.0.0 removed `numpy.NaN`" in f.title


# a project's module importing what DeepSpeed 0.9.1 added to its namespace (written for this test)
_GET_ACCELERATOR = ("Traceback (most recent call last):\n"
                    '  File "/srv/proj/core/utils.py", line 13, in <module>\n'
                    "    from deepspeed import get_accelerator\n"
                    "ImportError: cannot import name 'get_accelerator' from 'deepspeed' "
                    "(/venv/lib/python3.10/site-packages/deepspeed/__init__.py)\n")


def test_the_environments_versions_answer_what_the_log_does_not_show(tmp_path: Path) -> None:
    """``explain --env``: a version the log does not show is read from the environment checked, and said so."""
    log = tmp_path / "train.log"
    log.write_text(_GET_ACCELERATOR)
    bare = explain_paths([str(log)]).findings[0]
    assert bare.name == "package-versions-incompatible" and "installed" not in bare.title
    older = explain_paths([str(log)], {"deepspeed": "0.8.3"}).findings[0]
    assert "added `get_accelerator` in `deepspeed` in 0.9.1; the installed deepspeed 0.8.3 is older" in older.title
    assert "`dsdoctor explain --env` found in the environment: deepspeed 0.8.3" in older.explanation
    assert any("deepspeed>=0.9.1" in c for fx in older.fixes for c in fx.commands)
    # the environment's release has it: the history does not explain this log (another environment ran it)
    newer = explain_paths([str(log)], {"deepspeed": "0.10.0"}).findings[0]
    assert "0.9.1" not in newer.title and not any("0.9.1" in c for fx in newer.fixes for c in fx.commands)
    assert "checked has deepspeed 0.10.0, which has `get_accelerator` in `deepspeed`" in newer.explanation
    # the log's own version wins over the environment's
    shown = log.read_text().replace("Traceback", "deepspeed==0.8.3\nTraceback", 1)
    log.write_text(shown)
    both = explain_paths([str(log)], {"deepspeed": "0.10.0"}).findings[0]
    assert "the installed deepspeed 0.8.3 is older" in both.title and "as the log shows: deepspeed 0.8.3" in both.explanation


def test_explain_env_reads_the_interpreters_packages(tmp_path: Path) -> None:
    """The command: ``--env --python`` reads the versions from that interpreter's installed metadata."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    dist = Path(site) / "deepspeed-0.8.3.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: deepspeed\nVersion: 0.8.3\n\n")
    (dist / "RECORD").write_text("")
    log = tmp_path / "train.log"
    log.write_text(_GET_ACCELERATOR)
    out = subprocess.run([sys.executable, "-m", "dsdoctor", "explain", "--env", "--python", str(py), str(log),
                          "--format", "json"], capture_output=True, text=True, check=False)
    first = json.loads(out.stdout)["diagnoses"][0]
    assert first["name"] == "package-versions-incompatible", out.stderr
    assert "the installed deepspeed 0.8.3 is older" in first["summary"]


def test_a_one_line_paste_of_a_package_class_method_or_keyword() -> None:
    """No frame says who asked: the API history answers for a class named after its package that only that package
    defines, when the releases read disagree and the versions shown lack it; otherwise unknown."""
    kw = "TypeError: Accelerator.__init__() got an unexpected keyword argument 'dispatch_batches'"
    g = api_mismatch(kw, [])
    assert g is not None and (g["kind"], g["unframed"]) == ("keyword", "1")
    first = diagnose_log(kw + "\n").findings[0]
    # Accelerate read from its first release: the history also says when it was added (0.5.0), after the removal
    assert first.name == "package-versions-incompatible" and "removed `dispatch_batches`" in first.title
    assert "in 1.0.0" in first.title and "added it in 0.5.0" in first.title
    assert "no frame" in first.explanation and "your code passes" not in first.explanation
    assert any("accelerate>=0.5.0,<1.0.0" in c for fx in first.fixes for c in fx.commands)
    # the log shows a release that takes it: the history does not explain it
    assert api_mismatch(kw, [], {"accelerate": "0.34.2"}) is None
    member = "AttributeError: 'DeepSpeedZeRoOffload' object has no attribute '_register_hooks_recursively'"
    assert api_mismatch(member, []) is not None
    # a keyword no release read takes, a bare function name, a generic class name, a class the releases never had
    for line in ("TypeError: Accelerator.__init__() got an unexpected keyword argument 'no_such_keyword'",
                 "TypeError: forward() got an unexpected keyword argument 'labels'",
                 "AttributeError: 'AdamW' object has no attribute 'train'",
                 "AttributeError: 'DeepSpeedZeroOptimizer' object has no attribute 'no_such_method'"):
        assert api_mismatch(line, []) is None, line
        assert diagnose_log(line + "\n").findings[0].name == "unknown", line


def test_a_member_only_another_package_s_wrapper_defines() -> None:
    """A DeepSpeed object asked for a method no DeepSpeed release read defines, which Accelerate's one wrapper of
    DeepSpeed's objects (``DeepSpeedOptimizerWrapper``) gained in 0.10.0 (Accelerate is read from its first release):
    the answer names Accelerate and the release; silent when the log shows an Accelerate that has it, or when the
    class's own package defines the method."""
    line = "AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'step_was_skipped'"  # a one-line paste
    assert api_mismatch(line, []) is not None
    first = diagnose_log(line + "\n").findings[0]
    assert first.name == "package-versions-incompatible"
    assert "`DeepSpeedOptimizerWrapper.step_was_skipped`" in first.title and "in 0.10.0" in first.title
    assert any("accelerate>=0.10.0" in c for fx in first.fixes for c in fx.commands)
    assert api_mismatch(line, [], {"accelerate": "0.12.0"}) is None  # that Accelerate has it: not this
    # a method DeepSpeed itself defines on some class: no wrapper answer
    assert api_mismatch("AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'save_checkpoint'", []) is None


def test_a_model_attribute_some_transformers_releases_set() -> None:
    """``'LlamaAttention' object has no attribute 'rope_theta'`` (knowledge.transformers MODEL_ATTRIBUTES): both
    boundaries without a release in the log; the side the log's release is on, and only its fix, with one."""
    from dsdoctor.knowledge.transformers import LLAMA_ROPE_THETA as ROW

    exc = "AttributeError: 'LlamaAttention' object has no attribute 'rope_theta'\n"
    hook = ('  File "/home/me/rlhf/engine.py", line 40, in build_actor\n    self.actor = self.init_actor(path)\n' + exc)
    f = diagnose_log(hook).findings[0]
    assert f.name == "package-versions-incompatible" and f"{ROW.first}-{ROW.last}" in f.title and ROW.before in f.title
    assert {fx.title.split(" ")[0] for fx in f.fixes} >= {"Upgrade", "With", "Or"}
    old = diagnose_log('  File "/venv/lib/python3.10/site-packages/transformers-4.31.0-py3.10.egg/transformers/'
                       'modeling_utils.py", line 10, in post_init\n    x = 1\n' + exc).findings[0]
    assert old.name == "package-versions-incompatible" and [fx.title.split(" ")[0] for fx in old.fixes] == ["Upgrade"]
    new = diagnose_log('  File "/venv/lib/python3.10/site-packages/transformers-4.52.0-py3.10.egg/transformers/'
                       'modeling_utils.py", line 10, in post_init\n    x = 1\n' + exc).findings[0]
    assert [fx.title.split(" ")[0] for fx in new.fixes] == ["With", "Or"]
    # another class's or another attribute's message is not this row's
    assert diagnose_log("AttributeError: 'MistralAttention' object has no attribute 'rope_theta'\n").findings[0].name \
        != "package-versions-incompatible"
