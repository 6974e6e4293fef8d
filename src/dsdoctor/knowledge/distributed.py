"""Messages of launching a distributed run: shells running a launch script, torch.distributed's env://
rendezvous, the deepspeed launcher's master address and GPU selection, NCCL's device check. No I/O."""

from __future__ import annotations

# the launchers a shell is asked to run (a "command not found" for one of them is a PATH problem)
LAUNCHERS = ("deepspeed", "torchrun", "accelerate", "llamafactory-cli", "ds_report")

# bash (4.x-5.x) for a command it cannot find: "bash: deepspeed: command not found",
# "run.sh: line 3: deepspeed: command not found"; dash (/bin/sh): "/bin/sh: 1: torchrun: not found", a script's
# "run.sh: 3: deepspeed: not found";
# zsh: "zsh: command not found: deepspeed"
SH_NOT_FOUND = ": command not found"
# dash's prefix of an error (src/error.c exvwarning2: "%s: %d: " arg0, line; older releases add "%s: " commandname when
# a script runs: "run.sh: 42: run.sh: --deepspeed: not found", 0.5.12 prints "run.sh: 42: --deepspeed: not found");
# a regex: the name it was started as (/bin/sh, sh, a script's path), the line, the script's name again (optional);
# the name may already be gone at the line's start: the log reader takes a dotted "run.sh: " for a pdsh host's prefix
DASH_PREFIX = r"(?:[^\s:]{1,200}: |^)\d{1,6}: (?:[^\s:]{1,200}: )?"
DASH_NOT_FOUND = ": not found"
# bash on a script saved with CRLF line endings: the \r left at a line's end is run as a command
MSG_CR_COMMAND = "$'\\r': command not found"

# torch/distributed/rendezvous.py _env_rendezvous_handler (torch 1.x-2.14): init_process_group(init_method="env://")
# in a process no launcher started
MSG_ENV_NOT_SET = "Error initializing torch.distributed using env:// rendezvous: environment variable {var} expected, but not set"
# torch/distributed/distributed_c10d.py _get_default_group (torch 2.0-2.14): a collective or get_rank/get_world_size
# before init_process_group; a plain `python` start of a script that only initializes when a launcher set the variables
MSG_NO_DEFAULT_PG = "Default process group has not been initialized, please make sure to call init_process_group."
# LLaMA-Factory src/llamafactory/hparams/parser.py get_train_args (0.8-0.9): more than one GPU visible, no launcher
MSG_LLAMAFACTORY_LAUNCH = "Please launch distributed training with `llamafactory-cli` or `torchrun`."
# LLaMA-Factory src/llamafactory/hparams/parser.py get_train_args (0.8.3-0.9.3, read in the released wheels): a
# DeepSpeed config in a process no launcher started (llamafactory-cli runs torchrun itself only when it sees more
# than one GPU or FORCE_TORCHRUN is set)
MSG_LLAMAFACTORY_FORCE_TORCHRUN = "Please use `FORCE_TORCHRUN=1` to launch DeepSpeed training."

# The HF Trainer with a DeepSpeed config in a process no launcher started (no LOCAL_RANK), with Accelerate < 1.0.0:
# PartialState initializes DeepSpeed only under a launcher (accelerate/state.py, "if LOCAL_RANK != -1"), and
# AcceleratorState keeps the deepspeed_plugin (so Trainer.is_deepspeed_enabled) but leaves distributed_type NO, so
# Accelerator.prepare never calls deepspeed.initialize: the model stays a bare module. The Trainer then calls the
# engine's methods on it: save_checkpoint at the first checkpoint (trainer.py _save_optimizer_and_scheduler /
# _save_checkpoint: model_wrapped.save_checkpoint), or steps accelerate's placeholder optimizer (DummyOptim, created
# for a ds_config "optimizer" section) that only deepspeed.initialize replaces. Run here: Transformers 4.41.2 with
# Accelerate 0.30.1 under plain `python` (both messages, torch 2.14.1's nn.Module.__getattr__ for the first); 0.31.0-
# 0.34.2's AcceleratorState read the same; 1.0.0 sets distributed_type DEEPSPEED there (1.1.1 run: the process goes on
# to deepspeed.initialize, whose init_distributed then tries MPI discovery).
MSG_NO_ENGINE_SAVE = "'{cls}' object has no attribute 'save_checkpoint'"
MSG_DUMMY_OPTIM_STEP = "'DummyOptim' object has no attribute 'step'"
ACCELERATE_WRAPS_PLAIN_PROCESS = "1.0.0"  # from this release a plain process goes on to deepspeed.initialize

# deepspeed/launcher/runner.py main (0.3-0.19.8) logs the master address it read from `ssh <first host> hostname -I`
# as "Using IP address of {addr} for node {host}" (matched by a regex: the address may be empty)
# deepspeed/launcher/runner.py main (0.6-0.19.8): CUDA_VISIBLE_DEVICES dropped because GPUs were chosen on the
# command line ("Detected VISIBLE_DEVICES=..." from 0.15, "Detected CUDA_VISIBLE_DEVICES=..." before)
MSG_VISIBLE_IGNORED = ("Detected {env}={devices} but ignoring it because one or several of "
                       "--include/--exclude/--num_gpus/--num_nodes cl args were used.")

# NCCL src/init.cc (2.7-2.2x): two ranks of one communicator on one GPU
MSG_DUPLICATE_GPU = "Duplicate GPU detected : rank {a} and rank {b} both on CUDA device {dev}"

# `hostname -I` (all addresses: Debian's / net-tools' hostname) where the system's hostname has no -I (GNU inetutils'
# hostname, busybox on some images): getopt's message on stderr, then the caller's CalledProcessError
MSG_HOSTNAME_NO_I = "hostname: invalid option -- 'I'"
RX_HOSTNAME_I_FAILED = r"Command '\['hostname(?: -I'|', '-I')\]' returned non-zero exit status"

# torch.distributed's blocking collectives (torch/distributed/distributed_c10d.py, the same module-level functions in
# torch 2.0.0-2.15.0, read in the released sources: .cache/upstream/torch/<v>/): a stack dump (py-spy, faulthandler)
# whose frame is one of them shows a rank waiting for the others in that collective. Not the init rendezvous
# (_store_based_barrier) nor the non-blocking isend / irecv.
C10D_COLLECTIVES = ("broadcast", "all_reduce", "all_reduce_coalesced", "reduce", "all_gather", "all_gather_into_tensor",
                    "_all_gather_base", "all_gather_coalesced", "all_gather_object", "gather", "gather_object", "scatter",
                    "scatter_object_list", "broadcast_object_list", "reduce_scatter", "reduce_scatter_tensor",
                    "_reduce_scatter_base", "all_to_all", "all_to_all_single", "barrier", "monitored_barrier")
C10D_FILE = "torch/distributed/distributed_c10d.py"
