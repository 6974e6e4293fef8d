"""The ds_config lint rules, listed (importing this module registers nothing: it only reads each ``RULE``)."""

from __future__ import annotations

from typing import Tuple

from ..rule import Rule
from . import (
    auto_without_trainer,
    batch_size_mismatch,
    bucket_size_float,
    comm_data_type,
    deprecated_key,
    duplicate_key,
    fp16_bf16_both_enabled,
    fp16_min_loss_scale,
    fp16_on_cpu,
    gradient_clipping_unset,
    invalid,
    memlock_too_low,
    nvme_path_missing,
    offload_client_optimizer,
    offload_param_ignored,
    partial_offload,
    removed_feature,
    unknown_key,
    zero3_16bit_save,
)

RULES: Tuple[Rule, ...] = (
    auto_without_trainer.RULE,
    batch_size_mismatch.RULE,
    bucket_size_float.RULE,
    comm_data_type.RULE,
    deprecated_key.RULE,
    duplicate_key.RULE,
    fp16_bf16_both_enabled.RULE,
    fp16_min_loss_scale.RULE,
    fp16_on_cpu.RULE,
    gradient_clipping_unset.RULE,
    invalid.RULE,
    memlock_too_low.RULE,
    nvme_path_missing.RULE,
    offload_client_optimizer.RULE,
    offload_param_ignored.RULE,
    partial_offload.RULE,
    removed_feature.RULE,
    unknown_key.RULE,
    zero3_16bit_save.RULE,
)
