"""DeepSpeed's config schema (ds_config): keys per version, deprecated / removed keys, defaults, and the
config messages."""

from __future__ import annotations

from typing import Dict, FrozenSet, NamedTuple, Optional, Tuple

from packaging.version import Version

from .versions import Span, lookup, v

__all__ = ["CPU_OFFLOAD_OPTIMIZERS", "Z3_LEAF_API_SINCE", "Z3_LEAF_CONFIG_SINCE", "Z3_LEAF_DEFAULT_CLASSES",
    "PEFT_NONREENTRANT_SINCE", "ConfigKey", "ZERO_KEYS", "ZERO3_ONLY_KEYS", "OFFLOAD_PARAM_KEYS", "OFFLOAD_OPTIMIZER_KEYS", "PRECISION_MODELS_SINCE",
    "FP16_KEYS", "BF16_KEYS", "VALIDATED_BLOCKS", "TOP_LEVEL_KEYS", "INTEGRATION_TOP_KEYS", "REMOVED_TOP_LEVEL", "REMOVED_ZERO",
    "config_keys_for", "block_validated", "removed_top_level", "removed_zero", "OFFLOAD_DEVICES", "ZERO_STAGES",
    "ZERO_INT_FIELDS", "AUTO_DROPPED_SINCE", "auto_dropped", "PYDANTIC_V2_SINCE", "PYDANTIC_V1_MODELS",
    "FP16_MIN_LOSS_SCALE", "COMM_DATA_TYPE_KEYS", "MSG_COMM_DATA_TYPE",
    "comm_data_types", "gradient_clipping_default", "MSG_DUPLICATE_KEYS", "MSG_BATCH", "MSG_BATCH_CUT",
    "MSG_BATCH_NONE", "MSG_FP16_BF16", "MSG_FP16_UNSUPPORTED", "MSG_PARTIAL_OFFLOAD", "MSG_CLIENT_OPTIMIZER",
    "MSG_SAVE_16BIT", "batch_sizes", "BLOCK_KEY_DEFAULTS", "MODEL_PARALLEL_FLAGS"]

# ---------------------------------------------------------------------------------------------------
# 6. Config schema (ds_config): keys per version, deprecated / removed keys, defaults
#    Pydantic-validated blocks reject unknown keys (extra="forbid"); the top level ignores them.
#    Field sets read from the real models (0.15.4 / 0.19.7 / 0.19.8: tests/oracle/test_lint_oracle.py) and
#    from the class bodies of every sdist in .cache/oracle/sdist; ``since`` is the first sampled release
#    that has the key (the previous sample lacks it), ``until`` the last one.
# ---------------------------------------------------------------------------------------------------


class ConfigKey(NamedTuple):
    name: str
    since: Optional[str] = None
    until: Optional[str] = None
    alias_of: Optional[str] = None  # the pydantic field this alias (``stage3_*``) fills
    deprecated_to: Optional[str] = None  # "Config parameter X is deprecated use Y instead"
    carried: bool = True  # a deprecated key whose value DeepSpeed sets on ``deprecated_to`` (False: it is dropped)


def _keys(*names: str, since: Optional[str] = None, until: Optional[str] = None) -> Tuple[ConfigKey, ...]:
    return tuple(ConfigKey(n, since, until) for n in names)


def _s3(name: str, since: Optional[str] = None) -> Tuple[ConfigKey, ...]:
    return (ConfigKey(name, since), ConfigKey("stage3_" + name, since, alias_of=name))


ZERO_KEYS: Tuple[ConfigKey, ...] = (
    *_keys("stage", "contiguous_gradients", "reduce_scatter", "reduce_bucket_size", "allgather_partitions",
           "allgather_bucket_size", "overlap_comm", "load_from_fp32_weights", "elastic_checkpoint", "offload_param",
           "offload_optimizer", "sub_group_size", "ignore_unused_parameters", "legacy_stage1",
           "round_robin_gradients", "memory_efficient_linear"),
    ConfigKey("cpu_offload", deprecated_to="offload_optimizer"),
    ConfigKey("cpu_offload_param", deprecated_to="offload_param"),
    # set_new_param=False: its value is not carried over (deepspeed 0.8.3 runtime/zero/config.py, the sdist on PyPI;
    # the other deprecated keys have new_param / new_param_fn, which config_utils.py applies)
    ConfigKey("cpu_offload_use_pin_memory", deprecated_to="offload_param or offload_optimizer", carried=False),
    ConfigKey("stage3_gather_fp16_weights_on_model_save", deprecated_to="gather_16bit_weights_on_model_save"),
    *_s3("prefetch_bucket_size"), *_s3("param_persistence_threshold"), *_s3("model_persistence_threshold"),
    *_s3("max_live_parameters"), *_s3("max_reuse_distance"), *_s3("gather_16bit_weights_on_model_save"),
    *_keys("mics_shard_size", "mics_hierarchical_params_gather", until="0.19.5"),
    *_keys("override_module_apply", "pipeline_loading_checkpoint", "zero_hpz_partition_size", "zero_quantized_gradients",
           "zero_quantized_nontrainable_weights", "zero_quantized_weights", since="0.12.0"),
    *_keys("use_multi_rank_bucket_allreduce", since="0.12.4"),
    *_s3("use_all_reduce_for_fetch_params", since="0.14.3"),
    *_s3("module_granularity_threshold", since="0.16.3"),
    *_keys("zeropp_loco_param", since="0.16.3", until="0.19.7"),
    *_keys("log_trace_cache_warnings", since="0.16.4"),
    *_keys("enable_sanity_checks", "leaf_module", "zenflow", since="0.18.2"),
    *_keys("save_muon_momentum_buffer_in_memory", since="0.19.4"), *_s3("allgather_sequential", since="0.19.4"),
    *_keys("compute_grad_norm", "parameter_alignment", since="0.19.7"),
)
# the zero_optimization keys only stage 3 reads: each ``stage3_*`` alias and the field it fills (DeepSpeed's
# DeepSpeedZeroConfig names them for stage 3; stages 1 and 2 never read them)
ZERO3_ONLY_KEYS: FrozenSet[str] = frozenset(n for k in ZERO_KEYS if k.alias_of for n in (k.name, k.alias_of))
OFFLOAD_PARAM_KEYS: Tuple[ConfigKey, ...] = _keys("device", "nvme_path", "buffer_count", "buffer_size", "max_in_cpu",
                                                   "pin_memory")
OFFLOAD_OPTIMIZER_KEYS: Tuple[ConfigKey, ...] = (
    *_keys("device", "nvme_path", "buffer_count", "pin_memory", "pipeline_read", "pipeline_write", "fast_init"),
    *_keys("ratio", since="0.12.3"), *_keys("super_offload", "cpuadam_cores_perc", since="0.18.2"),
)
# the defaults of block keys a misspelling loses (``bf16.enable``): a misspelt key set to its key's default loses
# nothing. DeepSpeed <=0.17.0 runtime/config.py get_fp16_enabled / get_bfloat16_enabled (FP16_ENABLED_DEFAULT,
# BFLOAT16_ENABLED_DEFAULT: False); 0.17.1+ precision_config.py ``enabled: bool = False`` (checked against the real
# DeepSpeedConfig by tests/oracle/test_lint_key_tables.py)
BLOCK_KEY_DEFAULTS: Dict[Tuple[str, str], object] = {("fp16", "enabled"): False, ("bf16", "enabled"): False}
# fp16 / bf16 became pydantic models (unknown keys rejected) in 0.17.1; before, unknown keys were ignored
PRECISION_MODELS_SINCE = "0.17.1"
# Config blocks the engine never reads: only deepspeed.checkpointing.configure(deepspeed_config=...) does
# (runtime/activation_checkpointing/checkpointing.py; DeepSpeedEngine builds the object and leaves it, read in
# 0.19.8), for models that call deepspeed.checkpointing.checkpoint (Megatron-style): a Transformers model's gradient
# checkpointing never consults it.
CHECKPOINTING_API_BLOCKS: Tuple[str, ...] = ("activation_checkpointing",)
FP16_KEYS: Tuple[ConfigKey, ...] = _keys("enabled", "auto_cast", "loss_scale", "initial_scale_power", "loss_scale_window",
                                         "hysteresis", "consecutive_hysteresis", "min_loss_scale",
                                         "fp16_master_weights_and_grads")
BF16_KEYS: Tuple[ConfigKey, ...] = (*_keys("enabled", "immediate_grad_update", "check_grad_overflow"),
                                    *_keys("bf16_master_weights_and_grads", "bf16_optimizer_states", since="0.18.3"))

# Blocks validated by a pydantic model (extra="forbid"): an unknown key there is a ValidationError.
VALIDATED_BLOCKS: Dict[Tuple[str, ...], Tuple[Tuple[ConfigKey, ...], Optional[str]]] = {
    ("zero_optimization",): (ZERO_KEYS, None),
    ("zero_optimization", "offload_param"): (OFFLOAD_PARAM_KEYS, None),
    ("zero_optimization", "offload_optimizer"): (OFFLOAD_OPTIMIZER_KEYS, None),
    ("fp16",): (FP16_KEYS, PRECISION_MODELS_SINCE),
    ("bf16",): (BF16_KEYS, PRECISION_MODELS_SINCE),
}

# Top-level keys DeepSpeedConfig reads (recorded with a key-tracking dict on 0.15.4 / 0.19.7 / 0.19.8, plus
# keys read only conditionally). Anything else at the top level is silently ignored.
TOP_LEVEL_KEYS: Tuple[str, ...] = (
    "activation_checkpointing", "aio", "amp", "autotuning", "bf16", "bfloat16", "checkpoint", "comet", "comms_logger",
    "communication_data_type", "compile", "compression_training", "csv_monitor", "curriculum_learning",
    "data_efficiency", "data_types", "dataloader_drop_last", "datastates_ckpt", "disable_allgather",
    "disable_python_gc", "dump_state", "eigenvalue", "elasticity", "expert_parallel", "flops_profiler", "fp16",
    "gradient_accumulation_steps", "gradient_allreduce_op", "gradient_clipping", "gradient_predivide_factor",
    "graph_harvesting", "hybrid_engine", "log_level", "managed_gradient_accumulation", "memory_breakdown", "nebula",
    "optimizer", "pipeline", "prescale_gradients", "progressive_layer_drop", "quantize_training", "scheduler",
    "seq_parallel_comm_data_type", "seq_parallel_communication_data_type", "sequence_parallel_size",
    "sparse_attention", "sparse_gradients", "steps_per_print", "tensor_parallel", "tensorboard", "timers",
    "torch_autocast", "train_batch_size", "train_micro_batch_size_per_gpu", "use_data_before_expert_parallelism",
    "vocabulary_size", "wall_clock_breakdown", "wandb", "weight_quantization", "zero_allow_untested_optimizer",
    "zero_force_ds_cpu_optimizer", "zero_optimization",
)

# Top-level keys an integration writes for a DeepSpeed build of its own, which stock DeepSpeed ignores: not misspelt
# keys. accelerate's FP8 "msamp" backend writes "msamp" (accelerate/utils/dataclasses.py DeepSpeedPlugin, read by
# tests/oracle/test_lint_accelerate_oracle.py) for MS-AMP's patched DeepSpeed.
INTEGRATION_TOP_KEYS: Dict[str, str] = {
    "msamp": "MS-AMP's block (accelerate writes it for its FP8 msamp backend; MS-AMP's patched DeepSpeed reads it)",
}

# DeepSpeedConfig raises DeepSpeedConfigError for these (``_reject_removed_config_keys``): 0.19.7 and 0.19.8
# lists (tests/oracle compares them with the real dicts).
REMOVED_TOP_LEVEL: Tuple[Span[Tuple[str, ...]], ...] = (
    Span("0.19.7", "0.19.7", ("compression_training", "nebula", "quantize_training", "sparse_attention")),
    Span("0.19.8", None, ("amp", "compression_training", "curriculum_learning", "eigenvalue", "elasticity",
                          "graph_harvesting", "nebula", "progressive_layer_drop", "quantize_training",
                          "sparse_attention", "sparse_gradients")),
)
REMOVED_ZERO: Tuple[Span[Tuple[str, ...]], ...] = (
    Span("0.19.7", "0.19.7", ("mics_hierarchical_params_gather", "mics_shard_size")),
    Span("0.19.8", None, ("mics_hierarchical_params_gather", "mics_shard_size", "zeropp_loco_param")),
)


def config_keys_for(keys: Tuple[ConfigKey, ...], ds: Version) -> Dict[str, ConfigKey]:
    """The keys of a validated block that ``ds`` accepts (names and aliases)."""
    return {k.name: k for k in keys if (k.since is None or ds >= v(k.since)) and (k.until is None or ds <= v(k.until))}


def block_validated(path: Tuple[str, ...], ds: Version) -> bool:
    spec = VALIDATED_BLOCKS.get(path)
    return spec is not None and (spec[1] is None or ds >= v(spec[1]))


def removed_top_level(ds: Version) -> Tuple[str, ...]:
    return lookup(REMOVED_TOP_LEVEL, ds, ())


def removed_zero(ds: Version) -> Tuple[str, ...]:
    return lookup(REMOVED_ZERO, ds, ())


OFFLOAD_DEVICES = ("none", "cpu", "nvme")
ZERO_STAGES = (0, 1, 2, 3)
# Integer fields (pydantic int): a fractional float is rejected from 0.15 (pydantic v2, int_from_float);
# pydantic v1 (<= 0.14) truncated it silently.
ZERO_INT_FIELDS = ("reduce_bucket_size", "allgather_bucket_size", "sub_group_size", "prefetch_bucket_size",
                   "param_persistence_threshold", "model_persistence_threshold", "max_live_parameters",
                   "max_reuse_distance", "module_granularity_threshold", "zero_hpz_partition_size")
PYDANTIC_V2_SINCE = "0.15.0"
# (first, last, fixed): the releases whose config models (deepspeed/runtime/config_utils.py DeepSpeedConfigModel and
# the models built on it) import BaseModel from pydantic itself with a pydantic-v1 ``class Config`` (validate_all,
# allow_population_by_field_name): under pydantic 2 ``import deepspeed`` fails while those classes are defined.
# 0.11.2 imports them from its deepspeed/pydantic_v1.py shim (pydantic.v1 under pydantic 2); 0.15.0 moves to
# pydantic 2 (PYDANTIC_V2_SINCE). Read in the sdists' deepspeed/runtime/config_utils.py (0.6.7 has no such models).
PYDANTIC_V1_MODELS = ("0.7.0", "0.11.1", "0.11.2")
# "auto" left in a config DeepSpeed reads (nothing filled it): DeepSpeedConfigModel.__init__ (runtime/config_utils.py)
# drops every key whose value is "auto", so the field's default applies, silently. Per block, the first release whose
# block is such a model: zero_optimization (and its offload blocks) from 0.7.0 (#2004: 0.6.7 has no such model),
# fp16 / bf16 / bfloat16 (the old name, read by the same model) from PRECISION_MODELS_SINCE (0.17.0's config.py still
# reads them with get_scalar_param). Before, get_scalar_param hands the string on: an "enabled": "auto" is truthy, so
# that precision is ON. Read in the 0.6.7, 0.7.0, 0.16.4, 0.17.0, 0.17.1 and 0.19.8 sdists; run on 0.15.4 and 0.19.8
# by tests/oracle/test_auto_not_filled_oracle.py.
AUTO_DROPPED_SINCE: Dict[str, str] = {"zero_optimization": "0.7.0", "fp16": PRECISION_MODELS_SINCE,
                                      "bf16": PRECISION_MODELS_SINCE, "bfloat16": PRECISION_MODELS_SINCE}


def auto_dropped(block: str, ds: Version) -> Optional[bool]:
    """Does DeepSpeed ``ds`` drop an "auto" value inside top-level ``block`` (True), keep the string (False)?
    None for a block not read here."""
    since = AUTO_DROPPED_SINCE.get(block)
    return None if since is None else ds >= Version(since)


# fp16 integer fields: DeepSpeedFP16Config (precision_config.py, pydantic, from PRECISION_MODELS_SINCE) types
# min_loss_scale as int, so a fractional value (1e-4) is rejected; before, DeepSpeed passed it on as given.
FP16_MIN_LOSS_SCALE = "min_loss_scale"
# communication_data_type (and seq_parallel_communication_data_type): get_communication_data_type lowercases the
# value and accepts these; the bfloat16 spelling changed from "bfp16" to "bf16" in 0.14.1.
COMM_DATA_TYPE_KEYS = ("communication_data_type", "seq_parallel_communication_data_type")
_COMM_DATA_TYPES: Tuple[Span[Tuple[str, ...]], ...] = (
    Span(None, "0.14.0", ("fp16", "bfp16", "fp32")),
    Span("0.14.1", None, ("fp16", "bf16", "fp32")),
)
MSG_COMM_DATA_TYPE = "Invalid communication_data_type. Supported data types: {types}. Got: {val}"
# gradient_clipping when the config does not set it (constants.py GRADIENT_CLIPPING_DEFAULT; #8068 in 0.19.3).
_GRADIENT_CLIPPING_DEFAULT: Tuple[Span[float], ...] = (Span(None, "0.19.2", 0.0), Span("0.19.3", None, 1.0))


def comm_data_types(ds: Version) -> Tuple[str, ...]:
    """The values get_communication_data_type accepts (lowercased) in ``ds``."""
    return lookup(_COMM_DATA_TYPES, ds, ())


def gradient_clipping_default(ds: Version) -> float:
    """DeepSpeed's gradient_clipping when the config leaves it out (0.0 = no clipping)."""
    return lookup(_GRADIENT_CLIPPING_DEFAULT, ds, 0.0)

MSG_DUPLICATE_KEYS = "Duplicate keys in DeepSpeed config: {keys}"
MSG_BATCH = ("Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step "
             "* world_size {tb} != {mb} * {ga} * {ws}")
MSG_BATCH_CUT = MSG_BATCH.split(" equal")[0]  # the assertion as a narrow terminal wraps it
MSG_BATCH_NONE = "Either train_batch_size or train_micro_batch_size_per_gpu needs to be provided"
MSG_FP16_BF16 = "bfloat16 and fp16 modes cannot be simultaneously enabled"
MSG_FP16_UNSUPPORTED = "Type fp16 is not supported on your device."
MSG_PARTIAL_OFFLOAD = "Partial offloading only supported for ZeRO Stage 3."
MSG_CLIENT_OPTIMIZER = ("You are using ZeRO-Offload with a client provided optimizer ({type}) which in most cases will "
                        "yield poor performance. Please either use deepspeed.ops.adam.DeepSpeedCPUAdam or set an optimizer "
                        "in your ds-config (https://www.deepspeed.ai/docs/config-json/#optimizer-parameters). If you "
                        "really want to use a custom optimizer w. ZeRO-Offload and understand the performance impacts you "
                        "can also set <\"zero_force_ds_cpu_optimizer\": false> in your configuration file.")
# The CPU optimizer DeepSpeed builds for a config "optimizer" type when offload_optimizer's device is cpu/nvme,
# whatever the ZeRO stage (runtime/engine.py _configure_basic_optimizer under zero_cpu_offload() /
# zero_use_cpu_optimizer(), read in 0.5.10, 0.8.3, 0.10.0, 0.12.0, 0.19.8; Lion since 0.11.0; Adam / AdamW only where
# its params leave torch_adam unset). Each one's step asserts its parameters are on the CPU
# (MSG_CPU_ADAM_PARAM_DEVICE), which only ZeRO stages 1-3 with the offload arrange.
CPU_OFFLOAD_OPTIMIZERS = {"adam": "DeepSpeedCPUAdam", "adamw": "DeepSpeedCPUAdam", "adagrad": "DeepSpeedCPUAdagrad",
                          "lion": "DeepSpeedCPULion"}
MSG_SAVE_16BIT = "Did not save the model {path} because stage3_gather_16bit_weights_on_model_save is False"


# Megatron-DeepSpeed's (and Megatron-LM's) model-parallel sizes (megatron/arguments.py _add_distributed_args): its
# deepspeed.initialize gets the mpu (or a PipelineModule's topology), so the batch assertion's world size is the
# data-parallel size, the world over their product
MODEL_PARALLEL_FLAGS = ("--tensor-model-parallel-size", "--pipeline-model-parallel-size", "--model-parallel-size",
                        "--ds-sequence-parallel-size")


def batch_sizes(tb: Optional[int], mb: Optional[int], ga: Optional[int], ws: int) -> Tuple[int, int, int]:
    """``_set_batch_related_parameters``: fill the missing batch values like DeepSpeed (integer division).
    Raises ValueError(MSG_BATCH_NONE) when neither train_batch_size nor the micro batch is given."""
    if tb is not None and mb is not None and ga is not None:
        return tb, mb, ga
    if tb is not None and mb is not None:
        return tb, mb, (tb // mb) // ws
    if tb is not None and ga is not None:
        return tb, (tb // ws) // ga, ga
    if mb is not None and ga is not None:
        return mb * ga * ws, mb, ga
    if tb is not None:
        return tb, tb // ws, 1
    if mb is not None:
        return mb * ws, mb, 1
    raise ValueError(MSG_BATCH_NONE)

# Non-reentrant gradient checkpointing of PEFT models under ZeRO-3 works from this release [reference D12]
# (before it: torch's CheckpointError; lint's and explain's peft-reentrant).
PEFT_NONREENTRANT_SINCE = "0.19.3"

# ZeRO-3 leaf modules (a module ZeRO-3 gathers whole, with no hooks inside it: an MoE block whose ranks route tokens to
# different experts): deepspeed.utils.set_z3_leaf_modules(model, [cls]) since 0.13.0 (utils/z3_leaf_module.py, absent
# in 0.12.6); ds_config zero_optimization.leaf_module {classes, names, name_suffixes} since 0.18.0
# (runtime/zero/leaf_module_config.py, applied by engine.py), whose default classes make these blocks leaves in every
# ZeRO-3 engine (0.18.0-0.19.8)
Z3_LEAF_API_SINCE = "0.13.0"
Z3_LEAF_CONFIG_SINCE = "0.18.0"
Z3_LEAF_DEFAULT_CLASSES = ("MixtralSparseMoeBlock", "Qwen2MoeSparseMoeBlock", "Qwen3MoeSparseMoeBlock")
