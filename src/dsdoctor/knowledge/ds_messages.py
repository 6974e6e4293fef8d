"""DeepSpeed's messages (log signatures): ``explain`` matches these, ``check`` quotes them. Op-build and
install messages are in :mod:`.ds_ops`, config ones in :mod:`.ds_config`, launcher ones in :mod:`.ds_launcher`."""

from __future__ import annotations

from packaging.version import Version

from .versions import v

__all__ = ["MSG_MISMATCH_CORE", "MSG_MISMATCH", "MSG_SKIP_WARNING", "MSG_COMPATIBLE", "MSG_SWALLOWED",
    "MSG_MISSING_CUDA_HOME", "MSG_NINJA", "MSG_DS_OPT_ADAM", "MSG_CPU_ADAM_WRAPPED", "CPU_ADAM_WRAPPED_SINCE",
    "MSG_ACCEL_INVALID", "MSG_PREBUILT_TORCH", "MSG_PREBUILT_CUDA", "MSG_LIBAIO", "MSG_NVCC_UNRUNNABLE",
    "MSG_OP_WRAPPED", "MSG_NOT_COMPATIBLE", "MSG_NO_COMPUTE_CAPS", "MSG_FORK_ARCH", "MSG_AUTO_COMPARE",
    "MSG_FORCE_DS_CPU_OPTIMIZER", "MSG_INT_FROM_FLOAT", "MSG_NO_SYNC", "MSG_LAUNCH_EXIT", "MSG_LAUNCH_KILL", "MSG_HOST_MEMORY",
    "MSG_CKPT_LOADING", "MSG_ZERO_SD_READ", "MSG_SSH_UNREACHABLE",
    "MSG_HOSTFILE_BAD_TEXT", "MSG_HOSTFILE_ERRORS", "MSG_MPI_DISCOVERY_MODULE", "MSG_MPI_DISCOVERY_INFO",
    "MPI_HOSTNAME_FALLBACK_SINCE",
    "MSG_NO_HOSTFILE", "MSG_NO_SLOT", "RX_NO_SLOT_RETYPED",
    "MSG_ZERO_CKPT_MISSING", "ZERO_SHARD_FILE", "SRC_PARSE_INCLUSION", "MSG_KILL_CMD", "MSG_ZERO_NEEDS_OPTIMIZER",
    "MSG_UNTESTED_OPTIMIZER", "ALLOW_UNTESTED_OPTIMIZER", "MSG_DP_WORLD_SIZE", "MSG_HPZ_GROUP", "MSG_UNIQUE_ITEM",
    "SRC_UNIQUE_DTYPE", "MSG_DTYPE_UNSUPPORTED", "MSG_MICRO_BATCH_ZERO", "MSG_NVME_PATH_NONE", "SRC_VALIDATE_REMOTE",
    "MSG_CONFIG_NOT_FOUND", "MSG_ACCELERATE_CONFIG_NOT_FOUND", "MSG_CONFIG_TWICE", "CONFIG_TWICE_SINCE",
    "SRC_CONFIG_NOT_A_FILE", "SRC_UNSCALE_GRADS", "MSG_PYDANTIC_EXTRA_V1",
    "MSG_PYDANTIC_EXTRA_V2", "MSG_PYDANTIC_INT_STR", "MSG_PYDANTIC_TYPE_V1", "UNSCALE_DEVICE_BUG",
    "cpu_adam_failure_tail", "MSG_LOSS_SCALE_MIN", "MSG_OVERFLOW_AT_MIN", "FP16_MIN_LOSS_SCALE_DEFAULT", "MSG_NO_IPG_INDEX", "MSG_REDUCED_TWICE",
    "MSG_PIPE_ZERO23", "SRC_DEFRAGMENT_DTYPE", "MSG_FP16_OVERFLOW",
    "SRC_CLIENT_OPTIMIZER", "MSG_BF16_ZERO_ONLY", "SRC_WARMUP_MAX", "FP32_OUTPUT_DIR_SINCE", "FP32_OUTPUT_DIR_CREATED",
    "MSG_CPU_ADAM_PARAM_DEVICE", "SRC_BWC_DEPRECATED_RANK", "BWC_DEPRECATED_RANK_LINE", "SP_MPU", "SP_MPU_SINCE"]

# ---------------------------------------------------------------------------------------------------
# 5. Messages (log signatures; ``explain`` matches these, ``check`` quotes them)
# ---------------------------------------------------------------------------------------------------

MSG_MISMATCH_CORE = "Installed CUDA version {sys} does not match the version torch was compiled with {torch}"
MSG_MISMATCH = (
    ">- DeepSpeed Op Builder: " + MSG_MISMATCH_CORE + ", unable to compile cuda/cpp extensions without a "
    "matching cuda version."
)
MSG_SKIP_WARNING = (
    "DeepSpeed Op Builder: " + MSG_MISMATCH_CORE + ".Detected `DS_SKIP_CUDA_CHECK=1`: Allowing this "
    "combination of CUDA, but it may result in unexpected behavior."
)
MSG_COMPATIBLE = MSG_MISMATCH_CORE + " but since the APIs are compatible, accepting this combination"
MSG_SWALLOWED = "{op} cuda is missing or is incompatible with installed torch, only cpu ops can be compiled!"
MSG_MISSING_CUDA_HOME = "CUDA_HOME does not exist, unable to compile CUDA op(s)"
MSG_NINJA = "Unable to JIT load the {op} op due to ninja not being installed."
MSG_DS_OPT_ADAM = "AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'"
MSG_CPU_ADAM_WRAPPED = "DeepSpeedCPUAdam requires the cpu_adam op, which failed to build/load."
CPU_ADAM_WRAPPED_SINCE = "0.19.8"  # DeepSpeedCPUAdam.__init__ raises MSG_CPU_ADAM_WRAPPED (before: MSG_DS_OPT_ADAM at GC)
MSG_ACCEL_INVALID = 'DS_ACCELERATOR must be one of {allowed}. Value "{value}" is not supported'
MSG_PREBUILT_TORCH = "PyTorch version mismatch! DeepSpeed ops were compiled and installed with a different version"
MSG_PREBUILT_CUDA = "CUDA version mismatch! DeepSpeed ops were compiled and installed with a different version"
MSG_LIBAIO = "async_io requires the dev libaio .so object and headers but these were not found."
MSG_NVCC_UNRUNNABLE = "Unable to run {nvcc}, unable to compile CUDA op(s)"  # 0.19.5+ (PR #8216)
MSG_OP_WRAPPED = "requires the {op} op, which failed to build/load."  # 0.19.8: cpu_adam, cpu_adagrad, cpu_lion
MSG_NOT_COMPATIBLE = "Unable to JIT load the {op} op due to it not being compatible due to hardware/software issue."
MSG_NO_COMPUTE_CAPS = "Unable to load {op} op due to no compute capabilities remaining after filtering"
MSG_FORK_ARCH = "cannot probe CUDA device capabilities in a forked subprocess where CUDA has already been initialized"
# runtime/config.py (same text 0.9.5-0.19.8)
# (the batch assertion is MSG_BATCH and the client-optimizer refusal MSG_CLIENT_OPTIMIZER, in ds_config.py)
MSG_AUTO_COMPARE = "'>' not supported between instances of 'str' and '{other}'"  # a top-level "auto" reached _batch_assertion
MSG_FORCE_DS_CPU_OPTIMIZER = '"zero_force_ds_cpu_optimizer": false'
MSG_INT_FROM_FLOAT = "Input should be a valid integer, got a number with a fractional part"  # pydantic v2 (0.15+)
MSG_NO_SYNC = "no_sync context manager is incompatible with gradient partitioning logic of ZeRO stage {stage}"
# launcher/ and comm/
MSG_LAUNCH_EXIT = "{cmd} exits with return code = {rc}"  # launcher/launch.py, logger.error
MSG_LAUNCH_KILL = "Killing subprocess {pid}"  # launcher/launch.py sigkill_handler, logger.info (0.3-0.19.8)
# runtime/utils.py see_memory_usage (0.3-0.19.8): host RAM, printed at each setup stage (ZeRO init, optimizer states)
# checkpoint loading, logger.info: every rank reads its shards (optimizer states included) into host RAM
MSG_CKPT_LOADING = "[Torch] Loading checkpoint from {path}..."  # checkpoint_engine/torch_checkpoint_engine.py load (0.9.2-0.19.8)
MSG_ZERO_SD_READ = "successfully read {n} ZeRO state_dicts for rank {rank}"  # runtime/engine.py (0.9.2-0.19.8)
MSG_HOST_MEMORY = "CPU Virtual Memory:  used = {used} GB, percent = {pct}%"
MSG_SSH_UNREACHABLE = "Using hostfile at {hostfile} but host={host} was not reachable via ssh."
MSG_HOSTFILE_BAD_TEXT = "Bad hostfile text: "  # logger.error before each ValueError below (0.15.4-0.19.8)
MSG_HOSTFILE_ERRORS = ("Hostfile contains multiple entries for {host}, unable to proceed with launching",
                       "Hostfile contains a bad entry: {line}, unable to proceed with launching",
                       "Hostfile is empty or not formatted correctly, unable to proceed with launching.")
MSG_MPI_DISCOVERY_MODULE = "mpi4py"  # init_distributed() without RANK/... imports mpi4py (mpi_discovery)
# comm/comm.py init_distributed (0.8.3-0.19.8)
MSG_MPI_DISCOVERY_INFO = "Not using the DeepSpeed or dist launchers, attempting to detect MPI environment"
# comm/comm.py mpi_discovery runs `hostname -I` for the master address (0.8.3-0.19.8, read in the sdists): a failure is
# fatal (subprocess.CalledProcessError) through 0.16.3; from 0.16.4 it falls back to socket.gethostbyname
MPI_HOSTNAME_FALLBACK_SINCE = "0.16.4"
MSG_NO_HOSTFILE = "Unable to find hostfile, will proceed with training with local resources only."  # runner.py fetch_hostfile (0.8.3-0.19.8)
# runtime/engine.py _get_all_zero_checkpoints (0.3.14-0.7.4): a warning, then load_checkpoint loads no ZeRO state
MSG_ZERO_CKPT_MISSING = "The following zero checkpoints paths are missing: {paths}"
# the per-rank ZeRO shard files (runtime/engine.py _get_rank_zero_ckpt_name, 0.3.x-0.19.8): each rank saves its own
ZERO_SHARD_FILE = r"(?:bf16_)?zero_pp_rank_\d{1,6}_mp_rank_\d{1,4}_(?:optim|model)_states\.pt"
MSG_NO_SLOT = "No slot '{slot}' specified on host '{host}'"  # runner.py parse_resource_filter (0.8.3-0.19.8)
# the same message retyped by a person: its fixed words, the quotes optional, "specified" misspelt ("specifed",
# "specificied"); the slots of a host are 0..n-1, n from its hostfile line (slots=n) or, without a hostfile, the
# local GPUs the launcher sees
RX_NO_SLOT_RETYPED = (r"\bNo slot '?(?P<slot>\d{1,4})'? speci[a-z]{0,6}ed on host '?(?P<host>[\w.@-]{1,200}?)'?"
                      r"(?:[.,;:)]|\s|$)")
# runner.py main turns CUDA_VISIBLE_DEVICES into --include (0.8.3-0.14: "Detected CUDA_VISIBLE_DEVICES=...";
# 0.15+: "Detected VISIBLE_DEVICES=..."), then parse_inclusion_exclusion maps the ids onto the local slots 0..n-1
SRC_PARSE_INCLUSION = "parse_inclusion_exclusion(resource_pool, args.include, args.exclude)"  # runner.py main's call line
# runner.py sigkill_handler uses kill_cmd, assigned only for a multi-node pdsh run (0.8-0.19.8): Python's NameError
# ("free variable 'kill_cmd' referenced before assignment" <= 3.10, "cannot access free variable 'kill_cmd'" 3.11+)
MSG_KILL_CMD = "free variable 'kill_cmd'"

# runtime/engine.py, runtime/zero/ and utils/ (same text 0.8.3-0.19.8 unless noted)
# engine.py _configure_zero_optimizer; accelerate's _prepare_deepspeed asserts the same text
MSG_ZERO_NEEDS_OPTIMIZER = "zero stage {stage} requires an optimizer"
# engine.py _configure_optimizer
MSG_UNTESTED_OPTIMIZER = "You are using an untested ZeRO Optimizer. Please add <\"zero_allow_untested_optimizer\": true>"
ALLOW_UNTESTED_OPTIMIZER = '"zero_allow_untested_optimizer": true'
# engine.py _load_zero_checkpoint
MSG_DP_WORLD_SIZE = "The checkpoint being loaded used a DP world size of {saved} but the current world size is {now}."
MSG_HPZ_GROUP = "ZeRO parameter intra parallel group is already initialized"  # utils/groups.py _create_zero_param_parallel_group (0.10-0.19.8)
MSG_UNIQUE_ITEM = "expected there to be only one unique element in"  # runtime/utils.py get_only_unique_item (ZeRO-3 all_gather_coalesced)
SRC_UNIQUE_DTYPE = "get_only_unique_item(p.dtype"  # partition_parameters.py all_gather_coalesced's source line
MSG_DTYPE_UNSUPPORTED = "Type {dtype} is not supported"  # engine.py _do_sanity_check (<= 0.14: "...supported.", 0.15+: "... on your device.")
MSG_MICRO_BATCH_ZERO = "Micro batch size per gpu: {mb} has to be greater than 0"  # config.py _batch_assertion
# (the f-string prints the enum: "... remote device is OffloadDeviceEnum.nvme" in 0.19.8 on Python 3.11)
MSG_NVME_PATH_NONE = '"nvme_path" in DeepSpeed Config cannot be None if remote device is'  # partition_parameters.py _validate_remote_device
SRC_VALIDATE_REMOTE = "_validate_remote_device(remote_device"  # zero.Init's call line: the traceback went into that assertion
MSG_CONFIG_NOT_FOUND = "Expected a string path to an existing deepspeed config"  # config.py (0.9-0.19.8) and accelerate's HfDeepSpeedConfig
# accelerate/commands/config/config_args.py load_config_from_file (0.21.0, 1.10.0 read): `accelerate launch
# --config_file X` with no file X raises FileNotFoundError with this text
MSG_ACCELERATE_CONFIG_NOT_FOUND = "The passed configuration file `{path}` does not exist."
# deepspeed.initialize with args carrying --deepspeed_config and a config= / config_params= argument: an assertion
# (deepspeed/__init__.py, 0.9.0-0.19.8 read; 0.8.3 and earlier took the argument and ignored the file)
MSG_CONFIG_TWICE = "we were given deepspeed configs in the deepspeed arguments and deepspeed.initialize() function call"
CONFIG_TWICE_SINCE = v("0.9.0")
# accelerate HfDeepSpeedConfig.__init__ (0.2x-1.15) tries these on a path that does not exist (a path that exists is json.load-ed)
SRC_CONFIG_NOT_A_FILE = ("base64.urlsafe_b64decode(config_file_or_dict)", "json.loads(config_file_or_dict)")
# ZeRO-3 + CPU offload: unscale_and_clip_grads multiplied the CPU fp32 grads by a GPU norm (0.14.1 PR #5256 /
# 0.14.3 PR #5493); 0.14.5 (PR #5504) moves the norm to the CPU
SRC_UNSCALE_GRADS = "grad.mul_(1. / combined_scale)"  # stage3.py unscale_and_clip_grads
# DeepSpeed's config models (runtime/config_utils.py DeepSpeedConfigModel, extra="forbid") validated by pydantic:
# v1 in DeepSpeed 0.7-0.14 ("extra fields not permitted"), v2 in 0.15-0.19.8 ("Extra inputs are not permitted")
MSG_PYDANTIC_EXTRA_V1 = "extra fields not permitted (type=value_error.extra)"
MSG_PYDANTIC_EXTRA_V2 = "Extra inputs are not permitted [type=extra_forbidden"
MSG_PYDANTIC_INT_STR = "Input should be a valid integer, unable to parse string as an integer"  # v2: a string such as '5e8'
MSG_PYDANTIC_TYPE_V1 = "value is not a valid {type} (type=type_error.{err})"  # v1: a value of the wrong type
UNSCALE_DEVICE_BUG = ("0.14.1", "0.14.4")


def cpu_adam_failure_tail(ds: Version) -> str:
    """The line a user sees last when cpu_adam fails: a pointer, never the cause."""
    return MSG_CPU_ADAM_WRAPPED if ds >= v(CPU_ADAM_WRAPPED_SINCE) else MSG_DS_OPT_ADAM

# Training-time messages (read in 0.16.4; the same text 0.6.5-0.19.8 unless noted)
# runtime/fp16/loss_scaler.py DynamicLossScaler.update_scale: an overflow with the scale already at min_loss_scale
MSG_LOSS_SCALE_MIN = "Current loss scale already at minimum - cannot decrease scale anymore. Exiting run."
# ... and its info line for each skipped step (fp16): "[deepspeed] OVERFLOW! Rank {rank} Skipping step. Attempted loss
# scale: {cur}, reducing to {next}" (stage2.py of 0.3-0.5 logged it with "[deepscale]")
MSG_OVERFLOW_AT_MIN = "OVERFLOW! Rank {rank} Skipping step. Attempted loss scale: {cur}, reducing to {next}"
# runtime/constants.py FP16_MIN_LOSS_SCALE_DEFAULT (0.5.0, 0.9.0, 0.16.4, the same in 0.19.5): the fp16 block's
# min_loss_scale when the config does not set it; an overflow at that scale raises MSG_LOSS_SCALE_MIN
FP16_MIN_LOSS_SCALE_DEFAULT = 1
# runtime/fp16/fused_optimizer.py / unfused_optimizer.py step (ZeRO-0 fp16), the same with the scales as floats
MSG_FP16_OVERFLOW = "fp16 dynamic loss scale overflow! Skipping step. Attempted loss scale: {prev}, reducing to {cur}"
# runtime/zero/stage_1_and_2.py reduce_independent_p_g_buckets_and_remove_grads: the grad hook fired outside
# engine.backward (which sets ipg_index up)
MSG_NO_IPG_INDEX = "'DeepSpeedZeroOptimizer' object has no attribute 'ipg_index'"
# runtime/zero/stage_1_and_2.py reduce_independent_p_g_buckets_and_remove_grads / reduce_ipg_grads (assert)
MSG_REDUCED_TWICE = "The parameter {param_id} has already been reduced."
# runtime/pipe/engine.py PipelineEngine.__init__ (assert, 0.3.16-0.19.8)
MSG_PIPE_ZERO23 = "ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism"
# runtime/zero/stage3.py DeepSpeedZeroOptimizer_Stage3.defragment's source line (0.6-0.19.8): trainable params of mixed dtypes
SRC_DEFRAGMENT_DTYPE = "assert len(set(t.dtype for t in tensors)) == 1"
# engine.py _load_checkpoint (0.5-0.19.8), run when load_optimizer_states=False and load_module_only=False: a
# checkpoint without optimizer state (model weights only) raises KeyError: 'optimizer' here
SRC_CLIENT_OPTIMIZER = "client_state['optimizer'] = optim_checkpoint['optimizer']"
# config.py's assert (gone after 0.6.1: bf16 without ZeRO became supported): "... for Zero2 currently" in
# 0.5.5-0.5.10, "... for Zero 1,2,3 currently. got {stage}" in 0.6.0-0.6.1
MSG_BF16_ZERO_ONLY = "bfloat16 mode is only enabled for Zero"
# lr_schedules.py WarmupLR.__init__ (0.3-0.19.8): max() of a warmup_num_steps that is a string ("auto") raises TypeError
SRC_WARMUP_MAX = "warmup_num_steps = max(2, warmup_num_steps)"
# utils/zero_to_fp32.py: the second argument is an output *directory* since 0.15.3 (a file before); 0.15.3-0.15.4 do
# not create it (torch.save then fails on <file>/<shard>), 0.16.0 on creates a directory of that name
FP32_OUTPUT_DIR_SINCE = "0.15.3"
FP32_OUTPUT_DIR_CREATED = "0.16.0"
# ops/adam/cpu_adam.py DeepSpeedCPUAdam.step's assert (0.5.10-0.19.8): a CPUAdam (built for optimizer offload) given
# parameters that stayed on the GPU
MSG_CPU_ADAM_PARAM_DEVICE = "CPUAdam param is on {device} and must be 'cpu', make sure you enabled 'offload_optimizer': 'cpu' in your ZeRO config."
# utils/bwc.py bwc_tensor_model_parallel_rank (the file since 0.14.1): an mpu with neither
# get_tensor_model_parallel_rank nor get_slice_parallel_rank falls through to this deprecated call, at line 42 in every
# release read (git tags v0.14.1-v0.19.5 of deepspeedai/DeepSpeed, the 0.19.8 sdist). Ulysses sequence parallelism's
# mpu, the module runtime/sequence_parallel/parallel_state_sp (added in 0.17.0, PR #7268), has none of the three:
# ZeRO 1-3 skip the call for it (stage_1_and_2.py / stage3.py: `hasattr(mpu, 'initialize_sequence_parallel')`, same
# PR), ZeRO stage 0's optimizers (bf16_optimizer.py get_grads_for_norm, fp16/fused_optimizer.py) and
# runtime/utils.py's norm helpers do not (unchanged in 0.19.8)
SRC_BWC_DEPRECATED_RANK = "return mpu.get_model_parallel_rank()"
BWC_DEPRECATED_RANK_LINE = 42
SP_MPU = "deepspeed.runtime.sequence_parallel.parallel_state_sp"
SP_MPU_SINCE = "0.17.0"
