"""Release regressions that the failure line alone does not name: the rows of ``knowledge/regressions.py`` whose
text other failures print too (torch's "process group twice", ZeRO-3's INFLIGHT assertion, Transformers'
ZeRO-inference ValueError), named only when the log shows an affected release of the package (and the row's
frame). :func:`released` decides; the cause here is Transformers' (DeepSpeed's is ``versions.py``'s
deepspeed-release-regression, whose advice reads the same rows)."""

from __future__ import annotations

from typing import Optional, Sequence, Tuple

from ... import fixes as F
from ... import names as N
from ...knowledge import regressions as R
from ...knowledge.versions import parse
from ...model import Severity
from .cause import Advice, Cause, Docs, LogFacts, Seen, cause, log

# the cause that explains a row's bug, by package (a row with its own cause: by key)
_BY_KEY = {R.TF_TMP_CHECKPOINT.key: N.TRANSFORMERS_TMP_CHECKPOINT_RENAME}
_BY_PACKAGE = {"deepspeed": N.DEEPSPEED_RELEASE_REGRESSION, "transformers": N.TRANSFORMERS_RELEASE_REGRESSION}


def released(text: str, facts: LogFacts, funcs: Sequence[str] = ()) -> Optional[str]:
    """The release-regression cause a failure line (``text``; ``funcs``: its traceback's functions) shows in the
    releases the log shows, or None (no row's text, or the log shows no affected release)."""
    reg = R.shown(text, {"deepspeed": facts.ds, "transformers": parse(facts.transformers)}, funcs)
    if reg is None:
        return None
    return _BY_KEY.get(reg.key) or _BY_PACKAGE.get(reg.package)


def _tf_regression(s: Seen, f: LogFacts) -> Advice:
    ver = parse(f.transformers)
    bug = next((r for r in R.ALL if r.package == "transformers" and r.text in s.text and r.affects(ver)),
               R.TF_EVAL_DEEPSPEED_INIT)
    shown = f"Transformers {f.transformers} is one of them. " if bug.affects(ver) else ""
    return Advice(f"A bug of Transformers {bug.releases}, fixed in {bug.fixed}: {bug.key}", "",
                  [F.pip_fix(f"transformers>={bug.fixed}", f"Upgrade Transformers to {bug.fixed} or later"),
                   F.pip_fix(f"transformers<{bug.first}", f"Or pin Transformers below {bug.first}")],
                  facts=f"{shown}{bug.what[0].upper()}{bug.what[1:]}.")


_EVAL = R.TF_EVAL_DEEPSPEED_INIT

SPECS: Tuple[Cause, ...] = (
    cause(
    N.TRANSFORMERS_RELEASE_REGRESSION,
    Severity.ERROR,
    "A known bug of the installed Transformers release (fixed in a later one)",
    _tf_regression,
    Docs(
        what=f"A failure that a Transformers release introduced and a later one fixed, named when the log shows "
              f"the release: e.g. evaluating during a ZeRO-1/2 run with Transformers {_EVAL.first}-{_EVAL.last} "
              "fails in `_maybe_log_save_evaluate` with `ZeRO inference only makes sense with ZeRO Stage 3 - please "
              "adjust your config`.",
        why="The installed Transformers has the bug: the same message from another release means something else "
              "(a `predict()` before training under ZeRO-2 is a real ZeRO-3-only limit), so explain names it only "
              "for a release the log shows (`transformers==X`, `transformers version: X`) and a row of "
              "`knowledge/regressions.py` read in the released wheels.",
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
