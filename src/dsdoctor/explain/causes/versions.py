"""Causes in package versions: installed packages that disagree on an API, and bugs of known releases (the
rows of ``knowledge/regressions.py``): torch 2.6's ``weights_only`` default, Transformers' ``tmp-checkpoint-N``
staging dir, DeepSpeed release regressions. Also the general rule :func:`api_mismatch`: an import or attribute or
keyword that one installed package's code asks of another and the other lacks."""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Tuple

from ... import fixes as F
from ... import names as N
from ...knowledge import deepspeed as KDS
from ...knowledge import regressions as R
from ...knowledge import transformers as TK
from ...knowledge.versions import parse
from ...model import Fix, Severity
from ..failure import site_package
from . import api_answer as A
from . import regressions as RG
from . import versions_model_attrs as MA
from . import versions_pydantic as PY
from .cause import Advice, Cause, Docs, LogFacts, Seen, cause, code_fix, form, frame, log, msg, rx

TORCH_SER = "torch/serialization.py load (torch 2.4-2.14; the default weights_only=True since 2.6)"
# torch/serialization.py UNSAFE_MESSAGE and the load error around it, torch/_weights_only_unpickler.py (2.6-2.14)
MSG_WO_FAILED = "Weights only load failed. This file can still be loaded, to do so you have two options"
MSG_WO_DEFAULT = ("In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
                  "from `False` to `True`.")
MSG_WO_GLOBAL = ("Unsupported global: GLOBAL {target} was not an allowed global by default. Please use "
                 "`torch.serialization.add_safe_globals([{name}])`")

# Packages whose code, installed, calls another package's API (a package of the user's project installed in
# site-packages is not one of them: its failing call is the user's code)
PACKAGES = ("deepspeed", "torch", "transformers", "accelerate", "peft", "trl", "vllm", "bitsandbytes", "datasets",
            "huggingface_hub", "safetensors", "diffusers", "lightning", "pytorch_lightning", "xformers", "flash_attn",
            "numpy", "pydantic", "triton", "tokenizers", "optimum", "swift", "llamafactory", "xtuner", "mmengine")
_BUILTIN_TYPES = ("NoneType", "Tensor", "Parameter", "Namespace", "PosixPath", "WindowsPath", "DataFrame", "ndarray")
# what the call in one package asks of another: (kind, regex); each names the missing name and where it was looked for
_ASKS: Tuple[Tuple[str, "re.Pattern[str]"], ...] = (
    ("import", re.compile(r"cannot import name '(?P<name>[\w.]{1,100})' from '(?P<module>\w{1,60}(?:\.\w{1,60}){0,8})'")),
    ("module", re.compile(r"No module named '(?P<module>\w{1,60}(?:\.\w{1,60}){1,8})'")),
    ("attribute", re.compile(r"module '(?P<module>\w{1,60}(?:\.\w{1,60}){0,8})' has no attribute '(?P<name>\w{1,100})'")),
    ("member", re.compile(r"'(?P<module>[A-Z]\w{1,80})' object has no attribute '(?P<name>\w{1,100})'")),
    ("keyword", re.compile(r"(?P<module>[\w.]{1,100})\(\) got an unexpected keyword argument '(?P<name>\w{1,100})'")),
)


_DELEGATES = re.compile(r"raise AttributeError\(|__getattr__\(")  # a frame that is an attribute lookup, not a use


def api_mismatch(exc: str, frames: Sequence[Tuple[str, str]],
                 versions: Optional[Dict[str, str]] = None) -> Optional[Dict[str, str]]:
    """The general rule: the exception is an import / attribute / keyword that the raising frame, in an installed
    package (``frames``: (path, code) outermost first), asks of another package, which lacks it. The groups
    ``caller``, ``kind``, ``module``, ``name`` and ``code``; None when the raising frame is not a known package's
    (the user's own code asking for it is not a versions problem) or the exception is not one of these. With no
    frame at all, :func:`_unframed` (``versions``: the installed ones, package -> version)."""
    if not exc:
        return None
    if not frames:
        return _unframed(exc, versions or {})
    if _DELEGATES.search(frames[-1][1]):
        # raised by an attribute lookup itself (nn.Module.__getattr__, a wrapper's __getattr__ handing down): the
        # one that asked is further out; only a frame that is not a lookup says whose API it expected
        frames = [fr for fr in frames if not _DELEGATES.search(fr[1])]
        if not frames:
            return None
    caller = site_package(frames[-1][0])
    if caller not in PACKAGES:
        return _own_code_asks(exc, frames[-1]) if not caller else None
    for kind, pattern in _ASKS:
        m = pattern.search(exc)
        if m is None:
            continue
        module = m.group("module")
        if kind in ("import", "module", "attribute") and module.split(".")[0] == caller:
            return None  # a package missing its own name: a broken or mixed install, not two packages
        if kind == "member" and module in _BUILTIN_TYPES:
            return None  # a value of the wrong type (often the user's argument), not an API
        if kind == "member" and (module.lower().startswith(caller.replace("_", "")) or f"self.{m.group('name')}" in frames[-1][1]
                                 or caller == "deepspeed" and m.group("name").startswith(KDS.OWN_ATTRIBUTE_PREFIX)):
            return None  # the package's own object or its own state on another's (not set up on this path), not an API
        name = m.group("name") if "name" in pattern.groupindex else module
        return {"caller": caller, "kind": kind, "module": module, "name": name, "code": frames[-1][1]}
    return None


def _unframed(exc: str, versions: Dict[str, str]) -> Optional[Dict[str, str]]:
    """A method or keyword missing and no frame says who asked (a one-line paste): the API history answers for a
    class named after its package (``DeepSpeedZeRoOffload``, ``Accelerator``, ``PeftModel``: a user's or unread
    package's class of that name is unlikely) that only that package defines, when the releases read disagree on
    it and the versions known lack it. Who asked stays unsaid (``unframed``)."""
    for kind, pattern in _ASKS[3:]:  # member, keyword (``Class.method`` only: a bare name may be anyone's)
        m = pattern.search(exc)
        mod = m.group("module") if m and (kind == "member" or "." in m.group("module")) else ""
        pkg = next((p for p in PACKAGES if mod.lower().startswith(p.replace("_", "").rstrip("es"))), "") if mod else ""
        if m and pkg and A.defined_only_in(kind, mod, pkg):
            g = {"caller": "", "kind": kind, "module": mod, "name": m.group("name"), "code": "", "unframed": "1"}
            return g if A.answer(g, versions) is not None else None
    return None


def _own_code_asks(exc: str, fr: Tuple[str, str]) -> Optional[Dict[str, str]]:
    """The user's own code asks a library for a module, name or keyword that some releases of it have and others
    do not (the API history says so): a versions problem, answered as the library's."""
    for kind, pattern in _ASKS:
        m = pattern.search(exc)
        if m is None or kind == "member":
            continue
        module = m.group("module")
        name = m.group("name") if "name" in pattern.groupindex else module
        g = {"caller": "", "kind": kind, "module": module, "name": name, "code": fr[1]}
        return g if A.answer(g, {}) is not None else None
    return None


def _package_named(g: Dict[str, str]) -> str:
    """The package the missing name was asked of: the module's, or the one a class name starts with."""
    if g["kind"] not in ("member", "keyword"):
        return g["module"].split(".")[0]
    low = g["module"].lower()
    return next((p for p in PACKAGES if low.startswith(p.replace("_", ""))), "")


def _versions_shown(f: LogFacts) -> str:
    shown = [f"{k} {v}" for k, v in (("DeepSpeed", f.ds), ("torch", f.torch), ("Transformers", f.transformers)) if v]
    return f"The log shows {', '.join(shown)}." if shown else ""


def _kind(s: Seen) -> Dict[str, str]:
    g = dict(s.groups)
    if "kind" not in g and g.get("module") and g.get("name"):
        g["kind"] = "attribute" if "has no attribute" in s.text else "import"
    return g


def _exact(s: Seen, f: LogFacts) -> Optional[A.Answer]:
    """The API history's answer (None when it cannot say): with the versions the log shows, else those of the
    environment ``explain --env`` checked (``f.installed``)."""
    g = _kind(s)
    env = {k: v for k, v in f.installed.items() if k not in f.versions}
    return A.answer(g, {**env, **f.versions}, env=tuple(env)) if g.get("kind") else None


def _versions_incompatible(s: Seen, f: LogFacts) -> Advice:
    g = s.groups
    if g.get("pydantic") or g.get("model_attr"):
        return PY.advice(f) if g.get("pydantic") else MA.advice(s, f)
    if not g.get("req") and (row := RG.package_bug(s.text, f, g.get("caller", ""), g.get("func", ""), g.get("row", ""))) is not None:
        return row  # a release bug of the raising package, or one regressions.released named from its frame
    fixes: List[Fix] = []
    exact = _exact(s, f)
    facts = [exact.facts if exact is not None else _versions_shown(f)]
    bug = R.deepspeed_bug(s.text, f.ds)
    if bug is not None:
        facts.insert(0, f"DeepSpeed {f.ds}: {bug.what} (fixed in {bug.fixed}).")
        fixes.append(F.pip_fix(f"{bug.package}>={bug.fixed}", f"Upgrade {bug.package} to {bug.fixed} or later"))
    if g.get("req"):
        req = g["req"].strip("'\"")
        fixes.append(F.pip_fix(req, f"Install what the module requires: {req}"))
    if exact is not None:
        fixes += [F.pip_fix(pin, f"Install {pin.split('<')[0].split('>')[0]} releases that fit: {pin}")
                  for pin in exact.pins]
    pkgs = (sorted({g["caller"], _package_named(g), exact.provider if exact is not None else ""} - {""})
            if "caller" in g else [])
    if "caller" in g:
        facts.insert(0, A.asked(g) + ".")
    if "caller" in g and pkgs:
        fixes.append(code_fix(f"Compare the installed versions of {' and '.join(pkgs)}",
                              "pip list 2>/dev/null | grep -i -E '" + "|".join(p.replace("_", "[-_]") for p in pkgs) + "'",
                              reason=f"{g['caller'] or 'your code'} calls an API of another release: install the versions its requirements "
                                     "or release notes name, or upgrade both together"))
    if exact is None and f.installed and "kind" in _kind(s):
        facts.append(A.environment_has(_kind(s), f.installed, f.versions))
    if exact is None and not g.get("req") and bug is None:
        fixes.append(code_fix("Move DeepSpeed / torch / Transformers to versions released together",
                              "pip install -U deepspeed   # or pin torch/transformers to the versions your DeepSpeed (or "
                              "project) was tested with",
                              reason="an API one package imports was renamed, added or removed in the other"))
    if exact is not None:
        return Advice(f"Installed packages disagree on an API: {exact.how}", "", fixes,
                      facts=" ".join(x for x in facts if x))
    m = re.search(r"but found (\S{1,60}?)\.?$", s.text)
    found = f" ({m.group(1)} is installed)" if m else ""
    summary = (f"Installed packages disagree on an API: {A.asked(g)}" if "caller" in g else
               f"A version requirement failed: the module requires {g['req'].strip(chr(39) + chr(34))}{found}"
               if g.get("req") else "Installed packages disagree on an API: an import or version requirement failed")
    return Advice(summary, "", fixes, facts=" ".join(x for x in facts if x))


def _weights_only(s: Seen, f: LogFacts) -> Advice:
    target = s.groups.get("name", "")
    fixes = []
    if target:
        fixes.append(code_fix(f"Allow the global the checkpoint needs ({target}), before it is loaded",
                              f"torch.serialization.add_safe_globals([{target}])   # import it first; "
                              f"or: with torch.serialization.safe_globals([{target}]): ...",
                              reason="only for a checkpoint from a source you trust"))
    fixes.append(F.pip_fix("deepspeed>=0.16.0", "DeepSpeed checkpoints: upgrade DeepSpeed (0.16.0+ loads its own "
                           "checkpoint files with weights_only=False)"))
    fixes.append(code_fix("For a checkpoint you trust: load it with weights_only=False",
                          "torch.load(path, weights_only=False)   # your own call",
                          "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD=1   # a library's call that does not pass weights_only (torch 2.6+)",
                          reason="unpickling runs code from the file: never for a file you did not make",
                          applicability="unsafe"))
    facts = f"The file needs `{target}`, which torch's weights-only unpickler does not allow by default." if target else ""
    return Advice("torch.load refused the checkpoint: weights_only=True (torch 2.6+ default) cannot unpickle it",
                  "", fixes, facts=facts)


def _tmp_checkpoint(s: Seen, f: LogFacts) -> Advice:
    reg = R.TF_TMP_CHECKPOINT
    ver = parse(f.transformers)
    facts = f"Transformers {f.transformers} is one of them." if reg.affects(ver) else ""
    return Advice(f"Trainer's tmp-checkpoint-N rename failed (Transformers {reg.first}-{reg.last}, fixed in {reg.fixed})",
                  "", [F.pip_fix(f"transformers>={reg.fixed}", f"Upgrade Transformers to {reg.fixed} or later"),
                       F.pip_fix(f"transformers<{reg.first}", f"Or pin Transformers below {reg.first}")], facts=facts)


def _ds_regression(s: Seen, f: LogFacts) -> Advice:
    bug = R.deepspeed_bug(s.text, any_version=True) or R.DS_TRITON_CIRCULAR_IMPORT
    shown = (f"DeepSpeed {f.ds} is one of them. " if bug.affects(f.ds) else
             RG.unshown("DeepSpeed", "deepspeed") if f.ds is None else "")
    return Advice(f"A bug of DeepSpeed {bug.releases}, fixed in {bug.fixed}: {bug.key}", "",
                  [F.pip_fix(f"deepspeed>={bug.fixed}", f"Upgrade DeepSpeed to {bug.fixed} or later")],
                  facts=f"{shown}{bug.what[0].upper()}{bug.what[1:]}.")


_TF_TRAINER = "transformers/trainer.py"

def _tf_deepspeed_module(s: Seen, f: LogFacts) -> Advice:
    gone = TK.TF_DEEPSPEED_MODULE_REMOVED
    return Advice(f"The code imports transformers.deepspeed, which Transformers {gone} removed", "",
                  [code_fix("Import from transformers.integrations.deepspeed (Transformers 4.33+)",
                            "from transformers.integrations.deepspeed import HfDeepSpeedConfig   # was: from transformers.deepspeed import ..."),
                   F.pip_fix(f"transformers<{gone}", "Or, for a project you cannot change, pin the last Transformers that has it")])


SPECS: Tuple[Cause, ...] = (
    form(N.REMOVED_TRANSFORMERS_DEEPSPEED_IMPORT, _tf_deepspeed_module, signatures=(
              rx(r"No module named '?transformers\.deepspeed\b", "No module named", "CPython's import system on "
                 f"transformers/deepspeed.py, gone in Transformers {TK.TF_DEEPSPEED_MODULE_REMOVED}",
                 "ModuleNotFoundError: No module named 'transformers.deepspeed'"),
              frame(".py", "*", "an import of it as the innermost frame, the exception line cut (Transformers 4.46+)",
                    "Traceback (most recent call last):\n  File \"/srv/app/src/models/hf_model.py\", line 33, in <module>\n"
                    "    from transformers.deepspeed import HfDeepSpeedConfig\n", exc=r"^(?:ModuleNotFoundError|ImportError|$)",
                    code=r"^\s{0,40}(?:from transformers\.deepspeed import|import transformers\.deepspeed\b)"))),
    cause(
    N.TORCH_WEIGHTS_ONLY_LOAD,
    Severity.ERROR,
    "torch.load refused a checkpoint: weights_only=True (the torch 2.6+ default) cannot unpickle it",
    _weights_only,
    Docs(
        what="Loading a checkpoint (DeepSpeed `load_checkpoint`, a Trainer resume, your own `torch.load`) fails: "
              "`_pickle.UnpicklingError: Weights only load failed ... WeightsUnpickler error: Unsupported global: "
              "GLOBAL numpy... was not an allowed global by default`.",
        why="torch 2.6 changed the default of `torch.load(weights_only=...)` from False to True: the unpickler "
              "then accepts tensors and a few allowed types only. A checkpoint that pickles other objects (numpy "
              "arrays or scalars, an argparse Namespace, a config class, DeepSpeed's own state of releases before "
              "0.16.0) is refused by any code that calls `torch.load` without `weights_only=False`.",
        fix="Allow the global the message names (`torch.serialization.add_safe_globals([...])`, or the "
              "`safe_globals` context manager) before loading; upgrade the library that calls `torch.load` "
              "(DeepSpeed 0.16.0+ passes `weights_only=False` for its checkpoint files); for a checkpoint you made "
              "yourself, `weights_only=False` (or `TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD=1` for a call that does not "
              "pass it).",
        examples=(log(N.TORCH_WEIGHTS_ONLY_LOAD, "Resuming with DeepSpeed 0.15.4 under torch 2.6:",
                   "_pickle.UnpicklingError: Weights only load failed. This file can still be loaded, to do so you "
                   "have two options, do those steps only if you trust the source of the checkpoint. \n"),),
        reads="log"),
    signatures=(
              msg(MSG_WO_FAILED, TORCH_SER + ": the UnpicklingError's first line",
                  "_pickle.UnpicklingError: Weights only load failed. This file can still be loaded, to do so you have "
                  "two options, \x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m."),
              msg(MSG_WO_GLOBAL, "torch/_weights_only_unpickler.py load (torch 2.5-2.14): the global it refused",
                  "\tWeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray._reconstruct was not an "
                  "allowed global by default. Please use `torch.serialization.add_safe_globals([numpy._core.multiarray."
                  "_reconstruct])` or the `torch.serialization.safe_globals([numpy._core.multiarray._reconstruct])` "
                  "context manager to allowlist this global if you trust this class/function."),
              rx(r"Unsupported global: GLOBAL (?P<name>[A-Za-z_][\w.]{0,200})", "Unsupported global: GLOBAL ",
                 "torch/_weights_only_unpickler.py load (torch 2.5-2.14): the refused global, the line cut after its name",
                 "Unsupported global: GLOBAL deepspeed.runtime.zero.config.ZeroStageEnum"),
              rx(r"Weights only load failed\b", "Weights only load failed", TORCH_SER + ": the UnpicklingError's "
                 "first sentence, the paste cut after it", "_pickle.UnpicklingError: Weights only load failed."),
              msg(MSG_WO_DEFAULT, "torch/serialization.py load (torch 2.6-2.14): UNSAFE_MESSAGE, the error's option (1)",
                  "\t(1) In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
                  "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely "
                  "succeed, but it can result in arbitrary code execution."))),
    cause(
    N.TRANSFORMERS_TMP_CHECKPOINT_RENAME,
    Severity.ERROR,
    f"Trainer's tmp-checkpoint-N staging dir could not be renamed or removed (Transformers "
    f"{R.TF_TMP_CHECKPOINT.first}-{R.TF_TMP_CHECKPOINT.last})",
    _tmp_checkpoint,
    Docs(
        what="Saving a checkpoint in a multi-GPU or multi-node Trainer run fails in `_save_checkpoint`: "
              "`FileNotFoundError: [Errno 2] No such file or directory: '.../tmp-checkpoint-500' -> "
              "'.../checkpoint-500'`, `OSError: [Errno 39] Directory not empty`, or inside `shutil.rmtree("
              "staging_output_dir)`.",
        why=f"Transformers {R.TF_TMP_CHECKPOINT.first}-{R.TF_TMP_CHECKPOINT.last} save each checkpoint to a "
              "staging dir `tmp-checkpoint-N` and rename it to `checkpoint-N` afterwards (4.38 also removes it). "
              "When more than one process does that on one directory (ranks of several nodes on a shared "
              "filesystem, `save_on_each_node`), the second finds the staging dir already renamed or the target "
              f"not empty. {R.TF_TMP_CHECKPOINT.fixed} went back to writing `checkpoint-N` directly (a main-branch build of early "
              "2025 staged to `tmp-checkpoint-<random>` again; the 4.48.3 and 4.49.0 releases do not).",
        fix=f"Upgrade Transformers (`pip install 'transformers>={R.TF_TMP_CHECKPOINT.fixed}'`) or pin it below "
              f"{R.TF_TMP_CHECKPOINT.first}; remove leftover `tmp-checkpoint-*` dirs before resuming.",
        examples=(log(N.TRANSFORMERS_TMP_CHECKPOINT_RENAME, "A two-node Trainer run on a shared filesystem, Transformers "
                      "4.36.2:",
                   "FileNotFoundError: [Errno 2] No such file or directory: '/shared/out/tmp-checkpoint-500' -> "
                   "'/shared/out/checkpoint-500'"),),
        reads="log"),
    signatures=(
              rx(r"\[Errno \d{1,3}\] [\w ]{1,60}: '[^']{0,400}[/\\]tmp-checkpoint-[^'/\\]{1,40}'", "tmp-checkpoint-",
                 f"{R.TF_TMP_CHECKPOINT.source}: the OSError of os.rename / shutil.rmtree on the staging dir",
                 "FileNotFoundError: [Errno 2] No such file or directory: '/shared/out/tmp-checkpoint-500' -> "
                 "'/shared/out/checkpoint-500'",
                 "OSError: [Errno 39] Directory not empty: '/shared/out/tmp-checkpoint-500' -> '/shared/out/checkpoint-500'"),
              frame(_TF_TRAINER, "_save_checkpoint", f"{_TF_TRAINER} _save_checkpoint (4.36.0-4.38.2): the rename or "
                    "rmtree of the staging dir, the exception line cut",
                    "Traceback (most recent call last):\n"
                    "  File \"/venv/lib/python3.10/site-packages/transformers/trainer.py\", line 2555, in _save_checkpoint\n"
                    "    shutil.rmtree(staging_output_dir)\n"
                    "  File \"/usr/lib/python3.10/shutil.py\", line 724, in rmtree\n"
                    "    _rmtree_safe_fd(fd, path, onerror)\n",
                    anywhere=True, code=r"staging_output_dir"))),
    cause(
    N.DEEPSPEED_RELEASE_REGRESSION,
    Severity.ERROR,
    "A known bug of the installed DeepSpeed release (fixed in a later one)",
    _ds_regression,
    Docs(
        what="A failure that a DeepSpeed release introduced and a later one fixed, shown by the bug's own message: "
              "e.g. `cannot import name 'DeepSpeedTransformerInference' from partially initialized module "
              "'deepspeed.model_implementations.transformers.ds_transformer' (most likely due to a circular import)`.",
        why="The installed DeepSpeed has the bug: nothing in the script or config causes it. explain names only bugs read in the "
              "released sources (`knowledge/regressions.py`), or a withdrawn release (a failed build of one PyPI no longer lists).",
        fix="Upgrade DeepSpeed to the release that fixed it (the summary names it), or pin the release before it (withdrawn: before or after).",
        examples=(log(N.DEEPSPEED_RELEASE_REGRESSION, "`import deepspeed` with DeepSpeed 0.19.7 and triton installed:",
                   RG.CIRCULAR_SAMPLE + "\n"),),
        reads="log"),
    signatures=RG.DS_SIGNATURES),
    cause(
    N.PACKAGE_VERSIONS_INCOMPATIBLE,
    Severity.ERROR,
    "Installed packages disagree on an API (DeepSpeed / torch / Transformers)",
    _versions_incompatible,
    Docs(
        what="An import, attribute or keyword that one installed package asks of another failed: `cannot import "
              "name 'X' from 'deepspeed' / 'torch....'`, `module 'torch.compiler' has no attribute 'is_compiling'`, "
              "an AttributeError or unexpected keyword raised in one package's code calling another's, or "
              "`deepspeed>=X is required for a normal functioning of this module, but found deepspeed==Y`.",
        why="One package uses an API the installed version of another does not have: a newer torch or numpy "
              "removed a name DeepSpeed imports, a project needs a newer DeepSpeed (`get_accelerator`), a newer "
              "DeepSpeed renamed a method TRL or Accelerate call. The raising frame is in the calling package "
              "(site-packages/<package>/...), not in your code.",
        fix="Install what the message requires, or move the two packages to versions released together. For "
              "DeepSpeed, Transformers, Accelerate, PEFT, TRL and torch, explain reads the API history of their "
              "releases (docs/upstream-data.md): it names the release that removed or added the module, name, method "
              "or keyword, the installed versions the log shows, and the pins (`pip install 'accelerate<1.0.0'`, or "
              "the caller's first release that no longer asks for it). Otherwise compare them (`pip list | grep -E "
              "'deepspeed|torch|transformers|accelerate|trl'`) with the calling package's requirements, then "
              "upgrade the older one or pin the newer one.",
        examples=(log(N.PACKAGE_VERSIONS_INCOMPATIBLE, "A project importing get_accelerator with DeepSpeed 0.7:",
                   "ImportError: cannot import name 'get_accelerator' from 'deepspeed' "
                   "(/venv/lib/python3.11/site-packages/deepspeed/__init__.py)\n"),
                  log("package-versions-incompatible-trl", "TRL 0.15.1's PPO with DeepSpeed 0.16.4 (which renamed a "
                      "ZeRO-3 offload method):",
                      "  File \"/venv/lib/python3.11/site-packages/trl/models/utils.py\", line 174, in add_hooks\n"
                      "    optimizer_offload._register_hooks_recursively(optimizer_offload.module)\n"
                      "AttributeError: 'DeepSpeedZeRoOffload' object has no attribute '_register_hooks_recursively'\n"),
                  log("package-versions-incompatible-accelerate", "Building a Trainer with Transformers 4.36.2 and "
                      "Accelerate 1.0.0 (explain answers: Accelerate removed `dispatch_batches` in 1.0.0; "
                      "`pip install 'accelerate<1.0.0'`):",
                      "  File \"/venv/lib/python3.11/site-packages/transformers/trainer.py\", line 3882, in "
                      "create_accelerator_and_postprocess\n"
                      "    self.accelerator = Accelerator(\n"
                      "                       ^^^^^^^^^^^^\n"
                      "TypeError: Accelerator.__init__() got an unexpected keyword argument 'dispatch_batches'\n")),
        reads="log"),
    signatures=(
              msg(TK.MSG_REQUIRE_VERSION, "transformers/utils/versions.py require_version (4.x-5.24), e.g. the DeepSpeed "
                  "integration's deepspeed floor",
                  "ImportError: deepspeed>=0.9.3 is required for a normal functioning of this module, but found "
                  "deepspeed==0.9.0."),
              rx(r"cannot import name '(?P<name>\w{1,100})' from '(?P<module>(?:%s)(?:\.\w{1,60}){0,8})'" % "|".join(PACKAGES),
                 "cannot import name '", "Python's ImportError on an installed library's module (a name renamed, "
                 "added or removed between versions)",
                 "ImportError: cannot import name 'get_accelerator' from 'deepspeed' "
                 "(/venv/lib/python3.11/site-packages/deepspeed/__init__.py)",
                 "E   cannot import name 'BUFSIZE' from 'numpy' (/venv/lib/python3.11/site-packages/numpy/__init__.py)"),
              rx(r"`(?P<module>np)\.(?P<name>\w{1,60})` was removed in the NumPy 2\.0 release", "` was removed in the NumPy 2.0",
                 "numpy/__init__.py __getattr__ (numpy 2.x): the AttributeError of a name NumPy 2.0 expired",
                 "AttributeError: `np.NaN` was removed in the NumPy 2.0 release. Use `np.nan` instead."),
              rx(r"module '(?P<module>(?:torch|deepspeed|transformers|accelerate|peft|trl)(?:\.\w{1,60}){1,8})' has no "
                 r"attribute '(?P<name>\w{1,100})'", "' has no attribute '", "Python's AttributeError on a library's "
                 "submodule: an API the installed release does not have yet or any more (e.g. torch.compiler."
                 "is_compiling, called by DeepSpeed 0.15.3)",
                 "AttributeError: module 'torch.compiler' has no attribute 'is_compiling'"), *MA.SIGNATURES)),
)
