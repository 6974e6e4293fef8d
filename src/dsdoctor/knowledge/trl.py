"""What TRL's model-loading helpers return (read in trl v0.9.6 and main 2026-11, ``trl/trainer/utils.py``)."""

# ``get_kbit_device_map()``: ``{"": PartialState().local_process_index}`` on CUDA (``{"": "xpu:N"}`` on XPU), a
# non-None device_map whenever a GPU is there.
KBIT_DEVICE_MAP = "get_kbit_device_map"
# ``get_quantization_config(model_args)``: ``BitsAndBytesConfig(load_in_8bit=True)`` when ``--load_in_8bit``,
# 4-bit when ``--load_in_4bit`` (with ``bnb_4bit_quant_storage`` only from trl 0.12), else None.
QUANTIZATION_CONFIG = "get_quantization_config"
QUANTIZATION_OPTIONS = frozenset({"load_in_4bit", "load_in_8bit"})  # its result is None unless one is passed

# GRPO's (and RLOO's) check that a generation batch holds whole groups of ``num_generations`` completions per prompt
# (read in the trl 0.14.0, 0.15.0, 0.17.0, 0.19.1 and 0.20.0 wheels; the releases are the message index's). From 0.15.0
# ``per_device_train_batch_size`` counts completions, not prompts (0.14 repeated each prompt num_generations times).
GRPO_BATCH_SINCE = "0.15.0"
# grpo_trainer.py GRPOTrainer.__init__ (0.15.0-0.16.1): num_processes x per_device_train_batch_size
MSG_GRPO_GLOBAL_TRAIN = ("The global train batch size ({procs} x {batch}) must be evenly divisible by the number of "
                         "generations per prompt ({gens}).")
# GRPOTrainer.__init__ (0.17.0: x gradient_accumulation_steps), grpo_config.py GRPOConfig.__post_init__ (0.18.0-0.19.1:
# x steps_per_generation)
MSG_GRPO_EFFECTIVE_TRAIN = ("The effective train batch size ({procs} x {batch} x {steps}) must be evenly divisible by the "
                            "number of generations per prompt ({gens}).")
# the eval batch: "global" (0.15.0-0.16.1, 0.18.0-0.19.1), "effective" (0.17.0)
MSG_GRPO_GLOBAL_EVAL = ("The global eval batch size ({procs} x {batch}) must be evenly divisible by the number of "
                        "generations per prompt ({gens}).")
MSG_GRPO_EFFECTIVE_EVAL = ("The effective eval batch size ({procs} x {batch}) must be evenly divisible by the number of "
                           "generations per prompt ({gens}).")
# GRPOConfig.__post_init__ (0.20.0-1.16.0), RLOOConfig (0.22.0-1.16.0), experimental configs (MiniLLM, SDFT, SDPO, ...):
# generation_batch_size = per_device_train_batch_size x num_processes x steps_per_generation (default: the accumulation)
MSG_GEN_BATCH = "generation_batch_size ({size}) must be divisible by num_generations ({gens})."
# GRPOConfig / RLOOConfig (0.22.0-0.26.0; 0.26.2-1.16.0: "... by the number of generations used for evaluation (N)."
# with num_generations_eval)
# (per_device_eval_batch_size first here, num_processes second: read in trl 0.22.0 and 0.26.2)
MSG_GRPO_EVAL_022 = "The global eval batch size ({batch} * {procs}) must be divisible by num_generations ({gens})."
MSG_GRPO_EVAL_026 = ("The global eval batch size ({batch} * {procs}) must be divisible by the number of generations used "
                     "for evaluation ({gens}).")
EVAL_GENERATIONS_KNOB = "num_generations_eval"  # 0.26.2 on: the eval groups' own size (else num_generations)

# Every TRL *Config (SFT, DPO, GRPO, KTO, ORPO, CPO, BCO, PRM, reward, online DPO, iterative SFT) turns bf16 on
# when it is not given and fp16 is off: ``self.bf16 = not (self.fp16) if self.bf16 is None else self.bf16`` in
# ``__post_init__`` (read in the 0.19.0, 0.19.1, 0.20.0 and 0.21.0 wheels; 0.18.2's SFTConfig has no such line:
# TrainingArguments' False). A launch under TRL that passes no --bf16 trains in bf16 from this release.
BF16_ON_BY_DEFAULT_SINCE = "0.19.0"
