"""Pipelines by name; the legacy ones load only on the Transformers releases they were written for."""
from accelerate.utils import is_transformers_version

from pkg.pipelines.finetune import Finetune
from pkg.utils.versions import is_package_version_at_least

PIPELINES = {"finetune": Finetune}

if not is_package_version_at_least("transformers", "4.35.0"):
    from pkg.pipelines.legacy_aligner import LegacyAligner  # its trainer imports transformers.deepspeed

    PIPELINES["legacy_aligner"] = LegacyAligner

if is_transformers_version("<", "4.40.0"):
    from pkg.pipelines.old_ranker import OldRanker

    PIPELINES["old_ranker"] = OldRanker
