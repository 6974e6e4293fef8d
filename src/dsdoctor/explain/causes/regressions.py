"""Release regressions that the failure line alone does not name: the rows of ``knowledge/regressions.py`` whose
text other failures print too (torch's "process group twice", ZeRO-3's INFLIGHT assertion, Transformers'
ZeRO-inference ValueError), named only when the log shows an affected release of the package (and the row's
frame). :func:`released` decides; the cause here is Transformers' (DeepSpeed's is ``versions.py``'s
deepspeed-release-regression, whose advice reads the same rows; its signatures, one per row with a message or
frame of its own, are :data:`DS_SIGNATURES` here)."""

from __future__ import annotations

import re
from typing import List, Optional, Sequence, Tuple

from packaging.version import Version

from ... import fixes as F
from ... import names as N
from ...knowledge import regressions as R
from ...knowledge.versions import parse
from ...model import Fix, Severity
from .cause import Advice, Cause, Docs, LogFacts, Seen, cause, frame, log, msg, rx

# the cause that explains a row's bug, by package (a row with its own cause: by key)
_BY_KEY = {R.TF_TMP_CHECKPOINT.key: N.TRANSFORMERS_TMP_CHECKPOINT_RENAME}
_OWN_CAUSE = ("deepspeed", "transformers")  # packages whose rows have a cause of their own
_BY_PACKAGE = {"deepspeed": N.DEEPSPEED_RELEASE_REGRESSION, "transformers": N.TRANSFORMERS_RELEASE_REGRESSION,
               "accelerate": N.PACKAGE_VERSIONS_INCOMPATIBLE, "vllm": N.PACKAGE_VERSIONS_INCOMPATIBLE}


def released(text: str, facts: LogFacts, funcs: Sequence[str] = (), codes: Sequence[str] = ()) -> Optional[Tuple[str, str]]:
    """The release-regression cause a failure line (``text``; ``funcs`` / ``codes``: its traceback's functions and
    source lines) shows in the releases the log shows, and the row's key (the advice's ``row`` group), or None (no
    row's text, or the log shows no affected release)."""
    versions = {"deepspeed": facts.ds, "transformers": parse(facts.transformers),
                **{p: parse(facts.versions.get(p)) for p in ("accelerate", "vllm")}}
    reg = R.shown(text, versions, funcs, codes)
    if reg is None:
        return None
    name = _BY_KEY.get(reg.key) or _BY_PACKAGE.get(reg.package)
    return (name, reg.key) if name else None


def package_bug(text: str, f: LogFacts, caller: str = "", func: str = "", row: str = "") -> Optional[Advice]:
    """The answer for a row of another package (Accelerate, vLLM): the raising package's (``caller``, its function
    ``func``: ``R.caller_bug``, whose traceback shows the range), or the ``row`` :func:`released` named."""
    bug = (R.caller_bug(text, caller, func, parse(f.versions.get(caller))) if caller else
           next((r for r in R.ALL if r.key == row and r.package not in _OWN_CAUSE), None))
    if bug is None or caller and bug.package != caller:
        return None
    ver = parse(f.versions.get(bug.package))
    shown = (f"{bug.package} {f.versions.get(bug.package)} is one of them. " if bug.affects(ver) else
             unshown(bug.package, bug.package) if ver is None and not caller else "")
    return Advice(f"A bug of {bug.package} {bug.releases}, fixed in {bug.fixed}: {bug.key}", "",
                  [F.pip_fix(f"{bug.package}>={bug.fixed}", f"Upgrade {bug.package} to {bug.fixed} or later"),
                   F.pip_fix(f"{bug.package}<{bug.first}", f"Or pin {bug.package} below {bug.first}")],
                  facts=f"{shown}{bug.what[0].upper()}{bug.what[1:]}.")


def maybe_fix(key: str) -> List[Fix]:
    """For an ``unknown`` answer whose line a row's text is in, though the log does not tie it to the row (no
    affected release shown, no frame; ``attribute.unknown_groups``' ``maybe_bug``): the row's fix, conditionally."""
    bug = next((r for r in R.ALL if r.key == key), None) if key else None
    if bug is None:
        return []
    return [F.pip_fix(f"{bug.package}>={bug.fixed}", f"Only if your {bug.package} is {bug.releases}: upgrade to {bug.fixed}",
                      reason=f"{bug.package} {bug.releases} print this line for a known bug ({bug.key}, fixed in "
                             f"{bug.fixed}): {bug.what}. The log does not show that it is this one (no affected release "
                             f"or the bug's frame): check `pip show {bug.package}`; another release's same line has "
                             "another cause")]


def unshown(package: str, dist: str) -> str:
    """The conditional answer's words for a log that shows no release of the package."""
    return (f"The log does not show your {package} release (`pip show {dist}`): the answer holds if it is in that "
            "range. ")


def vetoed(text: str, ds: Optional[Version]) -> bool:
    """A DeepSpeed row's text (or frame) named by a line that a release the log shows does not have: the log's
    release (``ds``) is outside the row's range, so the line shows something else."""
    reg = R.deepspeed_bug(text, any_version=True)
    return reg is not None and reg.vetoed(ds)


def _tf_regression(s: Seen, f: LogFacts) -> Advice:
    ver = parse(f.transformers)
    bug = next((r for r in R.ALL if r.package == "transformers" and r.text in s.text and r.affects(ver)),
               R.TF_EVAL_DEEPSPEED_INIT)
    shown = (f"Transformers {f.transformers} is one of them. " if bug.affects(ver) else
             unshown("Transformers", "transformers") if ver is None else "")
    return Advice(f"A bug of Transformers {bug.releases}, fixed in {bug.fixed}: {bug.key}", "",
                  [F.pip_fix(f"transformers>={bug.fixed}", f"Upgrade Transformers to {bug.fixed} or later"),
                   F.pip_fix(f"transformers<{bug.first}", f"Or pin Transformers below {bug.first}")],
                  facts=f"{shown}{bug.what[0].upper()}{bug.what[1:]}.")


# pip building an archive it downloaded from an index (not a git checkout or a local tree: pip-req-build-)
_PIP_INDEX_BUILD = re.compile(r"[/\\]pip-install-[\w.-]{1,100}[/\\](?P<dist>[A-Za-z][\w.-]{0,60}?)(?:_[0-9a-f]{32})?[/\\]")


def withdrawn(paths: Sequence[str], ver: Optional[Version]) -> Optional[Tuple[str, str, str]]:
    """(package, the release read before ``ver``, the one after) when a build failed in an archive pip downloaded
    (``paths``: the traceback's files, one under ``pip-install-*/<dist>[_<hash>]/``) of a release its index withdrew
    (``R.WITHDRAWN``: tagged upstream, published, no longer listed). None otherwise (a listed release, a git build)."""
    dist = next((m.group("dist").lower() for m in map(_PIP_INDEX_BUILD.search, paths) if m), "")
    if ver is None or str(ver) not in R.WITHDRAWN.get(dist, ()):
        return None
    from ...knowledge import api_history as H  # read only for a failed build of a withdrawn release

    read = [Version(v) for v in H.releases(dist)]
    before, after = [v for v in read if v < ver], [v for v in read if v > ver]
    return dist, str(max(before)) if before else "", str(min(after)) if after else ""


def withdrawn_advice(dist: str, ver: str, before: str, after: str) -> Advice:
    """The answer for a failed build of a release its index withdrew (``before`` / ``after``: the releases read
    around it, "" when none)."""
    fixes = ([F.pip_fix(f"{dist}=={before}", f"Install the release before it ({before})")] if before else []) + (
        [F.pip_fix(f"{dist}>={after}", f"Or the next release ({after}) or later")] if after else [])
    return Advice(f"DeepSpeed {ver} is a withdrawn release (no longer on PyPI): its archive's build failed", "", fixes,
                  facts=f"pip downloaded DeepSpeed {ver}'s archive and its setup.py failed. The release is tagged "
                        f"upstream, was published (pip fetched it), and PyPI no longer lists it ({before or '?'} then "
                        f"{after or '?'}): maintainers pull a broken release; a pin to it no longer resolves.")


_CIRCULAR = R.DS_TRITON_CIRCULAR_IMPORT
CIRCULAR_SAMPLE = ("ImportError: cannot import name 'DeepSpeedTransformerInference' from partially initialized module "
                   "'deepspeed.model_implementations.transformers.ds_transformer' (most likely due to a circular "
                   "import) (/venv/lib/python3.12/site-packages/deepspeed/model_implementations/transformers/"
                    "ds_transformer.py)")

# deepspeed-release-regression's signatures (the cause is versions.py's): each a row's own text or frame
DS_SIGNATURES = (
    rx(r"cannot import name '\w{1,100}' " + re.escape(_CIRCULAR.text), _CIRCULAR.text,
       _CIRCULAR.source, CIRCULAR_SAMPLE),
    msg(f"async_io {R.DS_LIBAIO_DPKG.text}", R.DS_LIBAIO_DPKG.source + ": only these releases print it",
        " [WARNING]  async_io requires the libraries: ['libaio-dev'] but are missing. Can be fixed by: "
        "`apt install libaio-dev`."),
    msg(R.DS_ZERO0_BF16_LOAD.text, R.DS_ZERO0_BF16_LOAD.source + ": only that path calls it on an "
        "FP16_Optimizer", "AttributeError: 'FP16_Optimizer' object has no attribute '_restore_from_bit16_weights'"),
    frame("deepspeed/runtime/utils.py", "count_used_parameters_in_backward", R.DS_ZERO3_GRAD_FN_NO_GRAD.source,
          "  File \"/venv/lib/python3.10/site-packages/deepspeed/runtime/utils.py\", line 1458, in "
          "count_used_parameters_in_backward\n    grad_fn = _get_grad_fn_or_grad_acc(param)\n"
          "AttributeError: 'NoneType' object has no attribute 'next_functions'\n",
          exc=re.escape(R.DS_ZERO3_GRAD_FN_NO_GRAD.text), anywhere=True),
    frame("deepspeed/utils/torch.py", "jit_script_compat", R.DS_JIT_COMPAT_PY312.source,
          "  File \"/opt/py312/lib/python3.12/site-packages/deepspeed/utils/torch.py\", line 36, in "
          "jit_script_compat\n    return torch.compile(fn)\n"
          "  File \"/opt/py312/lib/python3.12/site-packages/torch/__init__.py\", line 1868, in compile\n"
          "    raise RuntimeError(\"Dynamo is not supported on Python 3.12+\")\n"
          "RuntimeError: Dynamo is not supported on Python 3.12+\n",
          exc=re.escape(R.DS_JIT_COMPAT_PY312.text), anywhere=True, code=r"return torch\.compile\(fn\)"),
    frame("deepspeed/comm/torch.py", "init_process_group", R.DS_COMM_DOUBLE_INIT.source,
          "  File \"/venv/lib/python3.9/site-packages/deepspeed/comm/torch.py\", line 38, in init_process_group\n"
          "    return torch.distributed.init_process_group(backend,\n"
          "RuntimeError: trying to initialize the default process group twice!\n",
          exc=re.escape(R.DS_COMM_DOUBLE_INIT.text), anywhere=True,
          code=r"return torch\.distributed\.init_process_group\("))


_EVAL = R.TF_EVAL_DEEPSPEED_INIT

SPECS: Tuple[Cause, ...] = (
    cause(
    N.TRANSFORMERS_RELEASE_REGRESSION,
    Severity.ERROR,
    "A known bug of the installed Transformers release (fixed in a later one)",
    _tf_regression,
    Docs(
        what=f"A failure that a Transformers release introduced and a later one fixed, named from a row of "
              f"`knowledge/regressions.py`: e.g. evaluating during a ZeRO-1/2 run with Transformers {_EVAL.first}-{_EVAL.last} "
              "fails in `_maybe_log_save_evaluate` with `ZeRO inference only makes sense with ZeRO Stage 3 - please "
              "adjust your config`.",
        why="The installed Transformers has the bug: the same message from another release means something else "
              "(a `predict()` before training under ZeRO-2 is a real ZeRO-3-only limit), so explain names it only "
              "from a row of `knowledge/regressions.py` read in the released wheels, in the row's frame, for a "
              "release the log shows (`transformers==X`, `transformers version: X`) or, where only the affected "
              "releases can print the message there, for a log that shows none (then the answer is conditional: "
              "check `pip show transformers`). A release outside the range vetoes it.",
        fix="Upgrade Transformers to the release that fixed it (the summary names it), or pin the last release "
              "before it.",
        examples=(log(N.TRANSFORMERS_RELEASE_REGRESSION, "Evaluation during a ZeRO-2 run, Transformers 4.30.0 (the "
                      "pip list shows it):",
                   "transformers==4.30.0\n"
                   "Traceback (most recent call last):\n"
                   "  File \"/opt/venv/lib/python3.10/site-packages/transformers/trainer.py\", line 2312, in "
                   "_maybe_log_save_evaluate\n"
                   "    metrics = self.evaluate(ignore_keys=ignore_keys_for_eval)\n"
                   "ValueError: ZeRO inference only makes sense with ZeRO Stage 3 - please adjust your config\n"),),
        reads="log")),
)
