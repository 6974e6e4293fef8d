"""Causes in starting a distributed run: no launcher, a launcher the shell cannot find, a launch script the shell
misreads, the master address, ranks sharing a GPU, a barrier outlived by rank 0's preprocessing. The messages live
in ``knowledge/distributed.py``."""

from __future__ import annotations

from typing import Tuple

from ... import names as N
from ...knowledge import distributed as K
from ...model import Severity
from .cause import Advice, Cause, Docs, LogFacts, Seen, cause, code_fix, form, frame, log, msg, rx

_LAUNCHER = "(?P<launcher>%s)" % "|".join(K.LAUNCHERS).replace(".", r"\.")
_TIMEOUT = r"[Tt]imed? ?out|Timeout|got error"  # a store / socket / collective wait that ran out


def _launcher_missing(s: Seen, f: LogFacts) -> Advice:
    if "save_checkpoint" in s.text or "DummyOptim" in s.text:  # the Trainer's engine calls on a model never wrapped
        return Advice("The Trainer ran with a DeepSpeed config in a plain `python` process: Accelerate (< 1.0) enabled "
                      "DeepSpeed without a launcher's environment and never wrapped the model in its engine, so the "
                      "engine's own call failed", "",
                      [code_fix("Start it with a launcher, also for one GPU",
                                "deepspeed --num_gpus 1 train.py ...   # or: torchrun --nproc-per-node 1 train.py ...",
                                reason="the launcher sets LOCAL_RANK / RANK / WORLD_SIZE, and only then does Accelerate "
                                       "initialize DeepSpeed and hand the Trainer a DeepSpeedEngine"),
                       code_fix("Or set the variables a launcher would for one process",
                                "RANK=0 LOCAL_RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=29500 python train.py ...")],
                      "Training can run like this until the first checkpoint (save_checkpoint) or optimizer step.")
    if "FORCE_TORCHRUN" in s.text:  # llamafactory-cli ran the training in its own process (one GPU visible)
        return Advice("llamafactory-cli ran a DeepSpeed training in its own process: it starts torchrun only when it "
                      "sees more than one GPU or FORCE_TORCHRUN is set", "",
                      [code_fix("Let llamafactory-cli start torchrun", "FORCE_TORCHRUN=1 llamafactory-cli train config.yaml",
                                reason="also for one GPU: DeepSpeed needs the distributed environment torchrun sets")])
    return Advice("The script was started as a plain process: no launcher set RANK / WORLD_SIZE / MASTER_ADDR", "",
                  [code_fix("Start it with a launcher, one process per GPU (also for one GPU under DeepSpeed)",
                            "deepspeed --num_gpus N train.py ...   # or: torchrun --nproc-per-node N train.py ...",
                            reason="llamafactory-cli train starts torchrun itself when several GPUs are visible"),
                   code_fix("Or, for one process on one GPU, make that GPU the only visible one and set the variables",
                            "CUDA_VISIBLE_DEVICES=0 RANK=0 LOCAL_RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 "
                            "MASTER_PORT=29500 python train.py ...")])


def _not_on_path(s: Seen, f: LogFacts) -> Advice:
    name = s.groups.get("launcher", "the launcher")
    return Advice(f"The shell that runs the launch cannot find `{name}`: it is not on that shell's PATH", "",
                  [code_fix("Install it in the environment the launch runs in, and run from that environment",
                            f"conda activate <env>   # or: source <venv>/bin/activate; then: which {name}",
                            reason="deepspeed: `pip install deepspeed`; torchrun comes with torch; accelerate: "
                                   "`pip install accelerate`"),
                   code_fix("Under sudo, ssh or a job script, pass the environment's PATH (or call it by full path)",
                            f"sudo env PATH=\"$PATH\" ...   # or: python -m torch.distributed.run / "
                            f"python -m deepspeed.launcher.runner instead of {name}",
                            reason="sudo resets PATH to secure_path; a non-interactive ssh shell reads no .bashrc")])


def _crlf(s: Seen, f: LogFacts) -> Advice:
    return Advice("The launch script has Windows (CRLF) line endings: bash runs each line's trailing \\r", "",
                  [code_fix("Convert the script to Unix line endings", "sed -i 's/\\r$//' run.sh   # or: dos2unix run.sh",
                            reason="and set your editor / git (core.autocrlf=input) to keep LF")])


def _continuation(s: Seen, f: LogFacts) -> Advice:
    arg = s.groups.get("arg", "--option")
    return Advice(f"A line continuation in the launch script is broken: `{arg}` ran as a command of its own", "",
                  [code_fix("Find a `\\` followed by a space (or another character) before the line end",
                            "grep -n '\\\\[[:space:]]\\+$' run.sh   # then delete what follows the backslash",
                            reason="a backslash continues the line only when it is the last character; the options "
                                   "after the break never reached the launcher")])


def _master_addr(s: Seen, f: LogFacts) -> Advice:
    return Advice("The deepspeed launcher derived no usable master address from the first host", "",
                  [code_fix("Pass the master address explicitly: the first node's IP or a name every node resolves",
                            "deepspeed --hostfile hostfile --master_addr 10.0.0.1 train.py ...   "
                            "# accelerate: main_process_ip"),
                   code_fix("See what the launcher read: the first host's `hostname -I` over ssh",
                            "ssh <first host> hostname -I   # must print only addresses: no echo/banners from "
                            ".bashrc in a non-interactive shell")])


def _preprocessing(s: Seen, f: LogFacts) -> Advice:
    return Advice("The other ranks waited in main_process_first's barrier longer than the process-group timeout "
                  "while the main process preprocessed the dataset", "",
                  [code_fix("Preprocess (tokenize) once in a single process first, then train from the cache",
                            "python train.py ... (one process, stop after the dataset map)   # axolotl: "
                            "`axolotl preprocess config.yml`",
                            reason="datasets caches the map: the distributed run then loads it in seconds"),
                   code_fix("Or raise the process-group timeout above the preprocessing time",
                            "TrainingArguments(ddp_timeout=7200)   # deepspeed.init_distributed(timeout=timedelta(hours=2))",
                            reason="the default is 30 minutes (1800000 ms)")])


def _device_not_set(s: Seen, f: LogFacts) -> Advice:
    return Advice("Two ranks of the job use one GPU: a rank did not select its own GPU before its first collective", "",
                  [code_fix("Select the rank's GPU before deepspeed.initialize / zero.Init / the model load",
                            "torch.cuda.set_device(int(os.environ['LOCAL_RANK']))   # or get_accelerator().set_device(...)",
                            reason="a launcher sets LOCAL_RANK; every rank otherwise stays on cuda:0"),
                   code_fix("And do not narrow CUDA_VISIBLE_DEVICES per rank to one GPU under a launcher that "
                            "also passes the local rank", "unset CUDA_VISIBLE_DEVICES   # choose GPUs with --include")])


def _addr_mismatch(s: Seen, f: LogFacts) -> Advice:
    g = s.groups
    shown = (f"Node rank {g['node']} was started with {g['addr']}, node rank {g['node2']} with {g['addr2']}."
             if g.get("addr2") else "")
    first = next((g[a] for n, a in (("node", "addr"), ("node2", "addr2")) if g.get(n) == "0"), "<node rank 0's address>")
    return Advice("Two nodes of one job were started with different rendezvous addresses (MASTER_ADDR): they never meet",
                  "", [code_fix("Start every node with the same MASTER_ADDR and MASTER_PORT: the address of the node "
                                "that runs node rank 0; only the node rank differs between the nodes",
                                f"MASTER_ADDR={first} MASTER_PORT=29500 NNODES=2 NODE_RANK=<0 or 1> ...   # the same "
                                "address on every node (torchrun: --master-addr / --rdzv-endpoint; accelerate: "
                                "main_process_ip)"),
                       code_fix("Check that address on the node of rank 0, and that the other nodes reach it",
                                "hostname -I   # on node rank 0", f"nc -zv {first} 29500   # from each other node, "
                                "while node rank 0 waits")], shown)


SPECS: Tuple[Cause, ...] = (
    cause(
    N.DISTRIBUTED_LAUNCHER_MISSING,
    Severity.ERROR,
    "A distributed (DeepSpeed / multi-GPU) run was started as a plain `python` process",
    _launcher_missing,
    Docs(
        what="A script that needs a distributed launcher was started with plain `python`: `Error initializing "
              "torch.distributed using env:// rendezvous: environment variable RANK expected, but not set`, "
              "LLaMA-Factory's `Please launch distributed training with llamafactory-cli or torchrun` (or, with a "
              "DeepSpeed config, `Please use FORCE_TORCHRUN=1 to launch DeepSpeed training`), or (in a log "
              "that shows no launcher) `Default process group has not been initialized`; under the HF Trainer with "
              "Accelerate < 1.0, `'<Model>' object has no attribute 'save_checkpoint'` at the first checkpoint or "
              "`'DummyOptim' object has no attribute 'step'`.",
        why="`init_process_group` (env://) reads RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT, which a launcher "
              "(deepspeed, torchrun, accelerate launch) sets for every process it starts; a plain process has none. "
              "Trainers that refuse single-process multi-GPU (DataParallel) say so when several GPUs are visible.",
        fix="Start it with a launcher (`deepspeed --num_gpus N train.py`, `torchrun --nproc-per-node N train.py`, "
              "`llamafactory-cli train ...`; `FORCE_TORCHRUN=1 llamafactory-cli train ...` with one GPU), also for one GPU "
              "under DeepSpeed; or make one GPU visible "
              "(`CUDA_VISIBLE_DEVICES=0`) and set RANK=0 WORLD_SIZE=1 MASTER_ADDR MASTER_PORT for one process.",
        examples=(log(N.DISTRIBUTED_LAUNCHER_MISSING, "`python train.py` of a script calling init_process_group:",
                   "ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable "
                   "RANK expected, but not set\n"),),
        reads="log"),
    signatures=(
              msg(K.MSG_ENV_NOT_SET, "torch/distributed/rendezvous.py _env_rendezvous_handler (torch 1.x-2.14)",
                  "ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable "
                  "RANK expected, but not set"),
              msg(K.MSG_LLAMAFACTORY_LAUNCH, "LLaMA-Factory src/llamafactory/hparams/parser.py get_train_args "
                  "(0.8-0.9): several GPUs visible to one process",
                  "ValueError: Please launch distributed training with `llamafactory-cli` or `torchrun`."),
              msg(K.MSG_LLAMAFACTORY_FORCE_TORCHRUN, "LLaMA-Factory src/llamafactory/hparams/parser.py "
                  "get_train_args (0.8.3-0.9.3): a DeepSpeed config without a launcher",
                  "ValueError: Please use `FORCE_TORCHRUN=1` to launch DeepSpeed training."),
              # named only when the log shows no launcher (explain/context.py): a launched script that calls
              # torch.distributed before initializing it raises it too
              msg(K.MSG_NO_DEFAULT_PG, "torch/distributed/distributed_c10d.py _get_default_group (torch 2.0-2.14)",
                  "RuntimeError: Default process group has not been initialized, please make sure to call "
                  "init_process_group."),
              # named only when the log shows no launcher, no Accelerate >= 1.0.0 and no call of the user's own
              # (explain/context.py)
              msg(K.MSG_NO_ENGINE_SAVE, "transformers/trainer.py _save_checkpoint -> model_wrapped.save_checkpoint with "
                  "Accelerate < 1.0.0 in a process no launcher started (Transformers 4.41.2 + Accelerate 0.30.1 run "
                  "here), torch/nn/modules/module.py __getattr__",
                  "AttributeError: 'LlamaForCausalLM' object has no attribute 'save_checkpoint'"),
              msg(K.MSG_DUMMY_OPTIM_STEP, "transformers/trainer.py _inner_training_loop -> optimizer.step on accelerate's "
                  "DummyOptim (a ds_config optimizer) with Accelerate < 1.0.0 in a process no launcher started "
                  "(Transformers 4.41.2 + Accelerate 0.30.1 run here)",
                  "AttributeError: 'DummyOptim' object has no attribute 'step'"))),
    cause(
    N.LAUNCHER_NOT_ON_PATH,
    Severity.ERROR,
    "The shell cannot find the launcher (deepspeed / torchrun / accelerate) on its PATH",
    _not_on_path,
    Docs(
        what="The shell that runs the launch cannot find the launcher: `deepspeed: command not found`, "
              "`/bin/sh: 1: torchrun: not found`, `zsh: command not found: accelerate`.",
        why="The launcher is a console script in the environment's bin directory: it is missing when the package "
              "is not installed in that environment, or the shell does not search it (the environment is not "
              "activated, sudo resets PATH to secure_path, a non-interactive ssh shell or job script reads no "
              ".bashrc). A tool that starts the launcher itself (llamafactory-cli starts torchrun) fails the same way.",
        fix="Install the package in the environment the launch runs in (`pip install deepspeed`; torchrun comes "
              "with torch) and run from it (`which deepspeed`); under sudo pass PATH (`sudo env PATH=\"$PATH\" "
              "...`) or call the launcher by full path / `python -m torch.distributed.run`.",
        examples=(log(N.LAUNCHER_NOT_ON_PATH, "A job script run before activating the environment:",
                   "run_sft.sh: line 4: deepspeed: command not found\n"),),
        reads="log"),
    signatures=(
              rx(r"(?:^|\s|\]|:|-)(?:\S{0,200}: line \d{1,6}: |bash: |sh: )" + _LAUNCHER + r": command not found",
                 K.SH_NOT_FOUND, "bash (4.x-5.x) command lookup, interactive or a script's line",
                 "run_sft.sh: line 4: deepspeed: command not found", "-bash: torchrun: command not found"),
              rx(r"(?:^|\s)" + K.DASH_PREFIX + _LAUNCHER + K.DASH_NOT_FOUND, K.DASH_NOT_FOUND,
                 "dash as /bin/sh (os.system / subprocess shell=True, Debian / Ubuntu), or running a script (`sh run.sh`)",
                 "/bin/sh: 1: torchrun: not found", "run.sh: 3: deepspeed: not found",
                 "run.sh: 3: run.sh: deepspeed: not found"),
              rx(r"zsh: command not found: " + _LAUNCHER + r"\b", "zsh: command not found: ", "zsh command lookup",
                 "zsh: command not found: accelerate"))),
    cause(
    N.LAUNCH_SCRIPT_CRLF_LINE_ENDINGS,
    Severity.ERROR,
    "The launch script has Windows (CRLF) line endings",
    _crlf,
    Docs(
        what="bash runs the launch script line by line and fails with `$'\\r': command not found` (and options "
              "with a trailing `\\r`).",
        why="A script saved with Windows line endings (an editor on Windows, a git checkout with core.autocrlf) "
              "keeps a carriage return at each line's end; bash takes it as part of the last word, so a blank "
              "line runs the command `\\r` and a `\\` before the CR no longer continues the line.",
        fix="Convert it to Unix line endings: `sed -i 's/\\r$//' run.sh` (or `dos2unix run.sh`), and keep LF "
              "(git `core.autocrlf=input`).",
        examples=(log(N.LAUNCH_SCRIPT_CRLF_LINE_ENDINGS, "A run.sh saved on Windows:",
                   "run.sh: line 2: $'\\r': command not found\n"),),
        reads="log"),
    signatures=(
              msg(K.MSG_CR_COMMAND, "bash (4.x-5.x) on a script line that is a lone carriage return",
                  "run.sh: line 2: $'\\r': command not found"),
              rx(r"line \d{1,6}: \$'[^'\s]{1,200}\\r': command not found", "\\r': command not found",
                 "bash (4.x-5.x) on a script line whose last word keeps the carriage return",
                 "run.sh: line 3: $'--deepspeed\\r': command not found"))),
    form(N.LAUNCH_SCRIPT_LINE_CONTINUATION_BROKEN, _continuation, log_examples=(
              log(N.LAUNCH_SCRIPT_LINE_CONTINUATION_BROKEN, "A space after `\\` on the launcher line:",
                  "run.sh: line 7: --deepspeed: command not found\n"),),
    signatures=(
              rx(r"line \d{1,6}: (?P<arg>--[A-Za-z][\w.-]{0,80}): command not found", K.SH_NOT_FOUND,
                 "bash (4.x-5.x) command lookup of a script line that starts with an option",
                 "run.sh: line 7: --deepspeed: command not found"),
              rx(r"(?:^|\s)" + K.DASH_PREFIX + r"(?P<arg>--[A-Za-z][\w.-]{0,80})" + K.DASH_NOT_FOUND, K.DASH_NOT_FOUND,
                 "dash (Debian / Ubuntu's /bin/sh: `sh run.sh`) on a script line that starts with an option: "
                 "0.5.12 prints the script's name once, older releases twice",
                 "run.sh: 7: --deepspeed: not found", "run.sh: 7: run.sh: --deepspeed: not found"),)),
    cause(
    N.MASTER_ADDR_UNRESOLVED,
    Severity.ERROR,
    "The deepspeed launcher's master address is empty or not an address",
    _master_addr,
    Docs(
        what="The multi-node deepspeed launcher starts the nodes with an empty or garbled master address: `Using IP "
              "address of  for node worker-1`, `--master_addr= --master_port=29500`, or a word of shell output such "
              "as `--master_addr=/root/.bashrc`.",
        why="Without --master_addr the launcher runs `hostname -I` on the first hostfile host over ssh and takes the "
              "first word it prints: nothing in some containers (Kubernetes pods), or whatever the remote shell's "
              "startup files echo. The ranks then cannot rendezvous.",
        fix="Pass the master address explicitly (`deepspeed --master_addr <first node IP>`; accelerate: "
              "`main_process_ip`), and keep the nodes' shell startup files silent for non-interactive ssh.",
        examples=(log(N.MASTER_ADDR_UNRESOLVED, "A pod whose `hostname -I` prints nothing:",
                   "[2025-03-04 10:12:01,113] [INFO] [runner.py:472:main] Using IP address of  for node worker-0\n"),),
        reads="log"),
    signatures=(
              rx(r"Using IP address of (?P<addr>(?:[^\w\s\[:$'\"{%<]\S{0,200})?) for node (?P<host>\S{1,200})",
                 "Using IP address of ", "deepspeed/launcher/runner.py main (0.3-0.19.8): the address is empty or "
                 "starts with no address character",
                 "[2025-03-04 10:12:01,113] [INFO] [runner.py:472:main] Using IP address of  for node worker-0"),
              rx(r"--master_addr=(?P<addr>(?:[^\w\s\[:$'\"{%<]\S{0,200})?)(?:\s|$)", "--master_addr=",
                 "deepspeed/launcher/multinode_runner.py get_cmd (0.3-0.19.8): the per-node launch command line",
                 "cmd = pdsh -S -f 1024 -w worker-0,worker-1 cd /home/user/proj; /usr/bin/python -u -m "
                 "deepspeed.launcher.launch --world_info=eyJ3In0= --node_rank=%n --master_addr= --master_port=29500 "
                 "train.py"))),
    cause(
    N.PREPROCESSING_EXCEEDS_DIST_TIMEOUT,
    Severity.ERROR,
    "Rank 0's dataset preprocessing outlasted the process-group timeout (main_process_first)",
    _preprocessing,
    Docs(
        what="A rank waiting in Transformers' `main_process_first` barrier timed out while the main process was "
              "still preprocessing (tokenizing / `dataset.map`): a store or socket timeout under "
              "`training_args.py ... main_process_first` / `torch.distributed.barrier()`.",
        why="`main_process_first` lets the main process run the dataset map first and holds the others in a "
              "barrier; the barrier waits at most the process-group timeout (30 minutes by default). A large "
              "dataset tokenized in the distributed run takes longer, and the waiting ranks fail.",
        fix="Preprocess once in a single process (the map is cached; axolotl: `axolotl preprocess`), then train; "
              "or raise the timeout above the preprocessing time (`TrainingArguments(ddp_timeout=7200)`).",
        examples=(log(N.PREPROCESSING_EXCEEDS_DIST_TIMEOUT, "Rank 1 waiting while rank 0 tokenizes for 30 minutes:",
                   "[rank1]: Traceback (most recent call last):\n"
                   "[rank1]:   File \"/venv/lib/python3.11/site-packages/transformers/training_args.py\", line 2457, in "
                   "main_process_first\n"
                   "[rank1]:     dist.barrier()\n"
                   "[rank1]: torch.distributed.DistBackendError: [1] is setting up NCCL communicator and retrieving "
                   "ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: wait "
                   "timeout after 1800000ms, keys: /default_pg/0//cuda//0\n"),),
        reads="log"),
    signatures=(
              frame("transformers/training_args.py", "main_process_first", "transformers/training_args.py "
                    "TrainingArguments.main_process_first (4.x-5.x): its torch.distributed.barrier() timing out",
                    "Traceback (most recent call last):\n"
                    "  File \"/home/user/proj/train.py\", line 88, in main\n"
                    "    with training_args.main_process_first(desc=\"dataset map pre-processing\"):\n"
                    "  File \"/venv/lib/python3.11/site-packages/transformers/training_args.py\", line 2457, in "
                    "main_process_first\n"
                    "    dist.barrier()\n"
                    "torch.distributed.DistStoreError: wait timeout after 1800000ms, keys: /default_pg/0//cuda//0\n",
                    exc=_TIMEOUT, anywhere=True),
              # a waiting rank's c10d store-socket timeout printed into the main process's preprocessing progress bar
              rx(r"(?:[Tt]okeniz|Map|Filter|Running tokenizer|Grouping texts|Packing|Dropping|[Pp]re-?process)[^|\n]{0,120}"
                 r"\d{1,3}%\|[^\n]{0,400}?\[c10d\][^\n]{0,300}?(?:timed out after|likely a timeout)", "[c10d]",
                 "torch/csrc/distributed/c10d/socket.cpp waitForInput warning (torch 2.2-2.14) on the line of a datasets "
                 "map / tokenizer tqdm bar (the barrier's ranks print while the main process preprocesses)",
                 "Map (num_proc=32):  97%|█████████▋| 194000/200000 [29:59<00:55, 108.1 examples/s][rank3]:[W311 "
                 "09:12:44.118022311 socket.cpp:489] [c10d] waitForInput: socket SocketImpl(fd=41, addr=[localhost]:50112, "
                 "remote=[localhost]:29500) timed out after 1800000ms"))),
    cause(
    N.CUDA_DEVICE_NOT_SET_PER_RANK,
    Severity.ERROR,
    "Two ranks on one GPU: a rank did not select its GPU (NCCL: Duplicate GPU detected)",
    _device_not_set,
    Docs(
        what="NCCL refuses to build a communicator: `NCCL WARN Duplicate GPU detected : rank 0 and rank 1 both on "
              "CUDA device ...`, then `ncclInvalidUsage`.",
        why="Every rank starts on cuda:0; a rank that does not call `torch.cuda.set_device(local_rank)` before its "
              "first collective (deepspeed.initialize, zero.Init under from_pretrained, a barrier) shares that GPU "
              "with rank 0, and NCCL allows one rank per GPU.",
        fix="Call `torch.cuda.set_device(int(os.environ['LOCAL_RANK']))` (or `get_accelerator().set_device`) at "
              "the start of the script, before the model is built or loaded.",
        examples=(log(N.CUDA_DEVICE_NOT_SET_PER_RANK, "A ZeRO-3 script that never calls set_device:",
                   "worker-0:4005:4041 [0] init.cc:521 NCCL WARN Duplicate GPU detected : rank 1 and rank 0 both on "
                   "CUDA device 1a000\n"),),
        reads="log"),
    signatures=(
              msg(K.MSG_DUPLICATE_GPU, "NCCL src/init.cc (2.7-2.2x) communicator init",
                  "worker-0:4005:4041 [0] init.cc:521 NCCL WARN Duplicate GPU detected : rank 1 and rank 0 both on "
                  "CUDA device 1a000"),)),
    cause(
    N.MASTER_ADDR_MISMATCH,
    Severity.ERROR,
    "The nodes of one job were started with different MASTER_ADDR values: the rendezvous never completes",
    _addr_mismatch,
    Docs(
        what="The launch commands of two nodes of one job (different node ranks) name different rendezvous "
              "addresses (`MASTER_ADDR=`, `--master_addr`, `--main_process_ip`, `--rdzv_endpoint`); the run then "
              "sits after the launcher's banner, or times out setting up torch.distributed.",
        why="Every node connects to the store at MASTER_ADDR:MASTER_PORT, which the node of rank 0 serves; a node "
              "given another address waits at a store the others never join (or serves one itself), so the world "
              "never assembles. The launch parameters must be identical on every node except the node rank.",
        fix="Start every node with the same MASTER_ADDR and MASTER_PORT: the address of the node that runs node "
              "rank 0 (check it there with `hostname -I`, and that the other nodes reach its port).",
        examples=(log(N.MASTER_ADDR_MISMATCH, "Two nodes' torchrun commands; node rank 1 is given its own name as the "
                      "master's:",
                   "node-a$ torchrun --nnodes 2 --node_rank 0 --nproc-per-node 8 --master_addr 10.20.0.5 --master_port "
                   "29400 train.py --deepspeed ds_z2.json\n"
                   "node-b$ torchrun --nnodes 2 --node_rank 1 --nproc-per-node 8 --master_addr node-b.cluster.local "
                   "--master_port 29400 train.py --deepspeed ds_z2.json\n"),),
        reads="log")),
)
