"""Imports every lint rule module once (registration happens at import)."""

from . import suppress  # noqa: F401  (unused-suppression; lint_target applies the suppressions)
from .config import (  # noqa: F401
    auto_without_trainer,
    batch_size_mismatch,
    bucket_size_float,
    deprecated_key,
    duplicate_key,
    fp16_bf16_both_enabled,
    fp16_on_cpu,
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
from .launch import (  # noqa: F401
    env_file_invalid,
    env_not_forwarded,
    export_flag,
    hostfile_invalid,
    launcher_args_conflict,
    omp_threads,
)
from .script import (  # noqa: F401
    device_map_low_mem,
    hfds_not_kept,
    inline_config,
    loaded_before_config,
    moved_before_initialize,
    parse_error,
    peft_reentrant,
    prepare_kbit,
    quant_storage,
    removed_import,
    skip_cuda_check,
    unsafe_save,
    unsupported_quant,
    zero3_device_map,
    zero3_low_cpu_mem,
)
