"""Log explanations (``dsdoctor explain``, DS3xx). Each example is an excerpt (lines kept in order) of a fixture log
under ``tests/cases/explain/``; ``tests/test_ruledocs.py`` checks that and runs ``dsdoctor explain`` on it. The fixes
quoted are the ones ``explain/advice.py`` builds (with ``fixes.py``). Lint names that explain also finds in a log
get their log example here as ``ALSO``."""

from __future__ import annotations

from typing import Tuple

from ..model import Severity
from .spec import Also, Entry, RuleExample

E, INFO = Severity.ERROR, Severity.INFO
LOGS = "tests/cases/explain/"


def log(name: str, situation: str, text: str) -> RuleExample:
    return RuleExample("log", situation, text, source=LOGS + name + ".log")


def entry(name: str, what: str, why: str, fix: str, *examples: RuleExample, severity: Severity = E,
          commands: Tuple[str, ...] = ("explain",)) -> Entry:
    return Entry(name, severity, commands, "log", what, why, fix, examples)


_CPU_ADAM_TAIL = ("  File \"/opt/envs/ds/0.19.8/deepspeed/ops/adam/cpu_adam.py\", line 95, in __init__\n"
                  "    raise RuntimeError(\"DeepSpeedCPUAdam requires the cpu_adam op, which failed to build/load.\") from e\n"
                  "RuntimeError: DeepSpeedCPUAdam requires the cpu_adam op, which failed to build/load.\n")

ENTRIES: Tuple[Entry, ...] = (
    entry("cuda-headers-missing",
          "The op build failed because a CUDA header (`cuda_runtime.h`, `cuda.h`, `cublas_v2.h`, `curand.h`, ...) is "
          "not found: CUDA_HOME points at a toolkit without its include/ directory (a runtime-only or nvcc-only "
          "install).",
          "CUDA ops (and cpu_adam's CUDA build before 0.19.8) compile against the toolkit's headers.",
          "Install the CUDA development headers matching torch's CUDA (`conda install -c nvidia cuda-cudart-dev "
          "cuda-libraries-dev`, or `apt install cuda-toolkit-X-Y`), then export CUDA_HOME to that toolkit.",
          log("cuda-headers-missing", "A fused_adam build on a toolkit without headers:",
              "FAILED: [code=127] fused_adam.o \n"
              "<command-line>: fatal error: cuda_runtime.h: No such file or directory\n"
              "compilation terminated.\n"
              "ninja: build stopped: subcommand failed.\n")),
    entry("compiler-killed",
          "The compiler was killed while building an op (`Killed signal terminated program cc1plus`, or an internal "
          "compiler error after a kill).",
          "ninja runs one compiler per core, and each cc1plus for DeepSpeed ops can take several GB: the host runs "
          "out of memory and the OOM killer stops the compiler. Almost always memory, not a code problem.",
          "Build with one compiler job at a time (`export MAX_JOBS=1`; every form of the variable is shown), or add "
          "memory / swap (check with `free -g; dmesg | grep -i 'killed process'`).",
          log("compiler-killed", "A cpu_adam build whose compilers were killed:",
              "FAILED: [code=127] cpu_adam.o \n"
              "c++: fatal error: Killed signal terminated program cc1plus\n"
              "compilation terminated.\n"
              "ninja: build stopped: subcommand failed.\n" + _CPU_ADAM_TAIL)),
    entry("op-build-failed-cause-not-in-log",
          "The log shows that an op failed to build or load (`ds_opt_adam` AttributeError, `failed to build/load`, "
          "`Error building extension`, `ninja: build stopped`) but not why: the compiler output or the first "
          "exception is not in it (a truncated log, or one rank's tail).",
          "Those lines are consequences only; guessing a cause from them would be wrong half the time, so explain "
          "says what to collect instead.",
          "Collect what shows the cause: `dsdoctor verify --op cpu_adam` (rebuilds the op in a fresh dir and shows "
          "the compiler output) and `dsdoctor check -v` (the environment the op is built in); keep the full build "
          "log (the lines between `Building extension module` and the error) and run explain on it.",
          log("op-build-cause-cut", "A log that kept only its last lines:",
              "Exception ignored in: <function DeepSpeedCPUAdam.__del__ at 0x7f5cd4f4a020>\n"
              "Traceback (most recent call last):\n"
              "  File \"/opt/envs/ds/0.19.7/deepspeed/ops/adam/cpu_adam.py\", line 99, in __del__\n"
              "    self.ds_opt_adam.destroy_adam(self.opt_id)\n"
              "AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'\n")),
    entry("windows-op-build-unsupported",
          "An op build failed on native Windows (MSVC required / not found, POSIX-only sources, link errors of the "
          "MSVC toolchain).",
          "DeepSpeed ops cannot be JIT-built on native Windows.",
          "Run training under WSL2 or Linux (`wsl --install`).",
          log("windows-msvc", "A cpu_adam build on Windows:",
              "error: Microsoft Visual C++ 14.0 or greater is required. Get it with \"Microsoft C++ Build Tools\"\n"
              "ninja: build stopped: subcommand failed.\n" + _CPU_ADAM_TAIL)),
    entry("nvcc-arch-unsupported",
          "nvcc refused a GPU architecture in the build's arch list (`Unsupported gpu architecture 'compute_60'`), "
          "or DeepSpeed found no compute capability left after filtering, or could not probe the GPUs in a forked "
          "child where CUDA was already initialised.",
          "CUDA 13's nvcc dropped compute_60/61/70, and DeepSpeed's default list still names them (a forked child "
          "cannot probe the GPUs to narrow it).",
          "List only your GPUs' architectures: `export TORCH_CUDA_ARCH_LIST=\"8.0;9.0\"` (`nvidia-smi "
          "--query-gpu=compute_cap --format=csv` gives them).",
          log("nvcc-arch-unsupported", "A fused_adam build with CUDA 13's nvcc:",
              "FAILED: [code=127] fused_adam.o \n"
              "nvcc fatal   : Unsupported gpu architecture 'compute_60'\n"
              "ninja: build stopped: subcommand failed.\n")),
    entry("libstdcxx-mismatch",
          "A freshly built op fails to import: `version `GLIBCXX_3.4.NN' not found (required by .../<op>.so)`.",
          "The op was compiled with a newer gcc than the libstdc++ the process loaded (often conda's, older than "
          "the system compiler).",
          "Give the environment a newer libstdc++ (`conda install -c conda-forge 'libstdcxx-ng>=13'`), or (unsafe: "
          "may clash with other libraries) load the system one first: `export "
          "LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libstdc++.so.6`.",
          log("libstdcxx-mismatch", "cpu_adam built, then its import failed:",
              "Loading extension module cpu_adam...\n"
              "Traceback (most recent call last):\n"
              "  File \"/opt/conda/envs/ft/lib/python3.10/site-packages/torch/utils/cpp_extension.py\", line 1746, in "
              "_import_module_from_library\n"
              "    module = importlib.util.module_from_spec(spec)\n"
              "ImportError: /opt/conda/envs/ft/lib/libstdc++.so.6: version `GLIBCXX_3.4.32' not found (required by "
              "/root/.cache/torch_extensions/py310_cu121/cpu_adam/cpu_adam.so)\n")),
    entry("zero3-quantized-model-conflict",
          "A quantized (bitsandbytes 4-bit) model under ZeRO-3 fails when DeepSpeed gathers its parameters: "
          "`output tensor must have the same type as input tensor` (mixed dtypes in one partition).",
          "ZeRO-3 flattens and all-gathers parameters of one dtype; 4-bit weights stored as uint8 next to bf16 ones "
          "break that.",
          "Store the 4-bit weights in the training dtype: `BitsAndBytesConfig(load_in_4bit=True, "
          "bnb_4bit_quant_storage=torch.bfloat16)` with `torch_dtype=torch.bfloat16` (needs bitsandbytes>=0.43.3, "
          "accelerate>=1.0.1, transformers>4.44.2, peft>0.13.0). `dsdoctor lint` finds this in the script "
          "(qlora-quant-storage-missing, DS506).",
          log("zero3-quantized-qlora",
              "QLoRA under ZeRO-3 without bnb_4bit_quant_storage:",
              "[rank1]:   File \"/venv/lib/python3.11/site-packages/deepspeed/runtime/zero/partition_parameters.py\", "
              "line 1152, in _all_gather_dtype\n"
              "[rank1]:     handle = _dist_allgather_fn(partitions[rank_in_group], flat_tensor, ds_process_group)\n"
              "[rank1]: TypeError: output tensor must have the same type as input tensor\n")),
    entry("zero3-partitioned-param-access",
          "A ZeRO-3 partitioned parameter (size 0 on this rank) was used outside a gather: e.g. the model called "
          "directly instead of through the engine, or a weight read in custom code (`'weight' must be 2-D`).",
          "Under ZeRO-3 each rank holds only its partition; the full tensor exists only inside the engine's "
          "forward or a `GatheredParameters` block.",
          "Gather the parameters around the code that reads them: `with "
          "deepspeed.zero.GatheredParameters(list(module.parameters()), modifier_rank=None): ...` (or run the "
          "model through the DeepSpeed engine).",
          log("zero3-partitioned-forward", "A model built under zero.Init, called outside the engine:",
              "[rank0]:   File \"/opt/envs/venv/lib/python3.11/site-packages/torch/nn/functional.py\", line 2621, in "
              "embedding\n"
              "[rank0]:     return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)\n"
              "[rank0]: RuntimeError: 'weight' must be 2-D\n")),
    entry("zero3-saved-partitioned-weights",
          "Weights saved from ZeRO-3 without gathering: loading them finds size-0 tensors (`copying a param with "
          "shape torch.Size([0])`), PEFT adapters saved empty, or accelerate/Trainer refusing to save without "
          "`stage3_gather_16bit_weights_on_model_save`.",
          "`model.save_pretrained()` / `state_dict()` on a ZeRO-3 model writes each rank's partition (size 0) "
          "unless the 16-bit weights are gathered on save.",
          "Gather 16-bit weights on save (ds_config `\"zero_optimization\": "
          "{\"stage3_gather_16bit_weights_on_model_save\": true}`), or save through the Trainer "
          "(`trainer.save_model(out)`) / consolidate the checkpoint (`python <checkpoint>/zero_to_fp32.py "
          "<checkpoint> <out_dir>`). `dsdoctor lint` finds the save in the script (zero3-unsafe-save, DS510).",
          log("zero3-saved-partitioned", "Loading a LoRA adapter that was saved under ZeRO-3:",
              "Traceback (most recent call last):\n"
              "  File \"/home/user/proj/infer.py\", line 9, in <module>\n"
              "    model = PeftModel.from_pretrained(base, \"out/adapter\")\n"
              "RuntimeError: Error(s) in loading state_dict for PeftModelForCausalLM:\n"
              "\tsize mismatch for base_model.model.model.layers.0.self_attn.q_proj.lora_B.default.weight: copying a "
              "param with shape torch.Size([0]) from checkpoint, the shape in current model is torch.Size([4096, "
              "16]).\n")),
    entry("ds-config-trainer-mismatch",
          "The HF Trainer refused the DeepSpeed config: values in it contradict TrainingArguments (`Please correct "
          "the following DeepSpeed config values that mismatch TrainingArguments values`, listing each pair).",
          "The Trainer fills or checks batch size, gradient accumulation, learning rate, optimizer/scheduler "
          "parameters and fp16/bf16 from its own arguments; an explicit different value in the config is ambiguous.",
          "Set the listed DeepSpeed keys to \"auto\" so the Trainer fills them (ds_config `\"<key>\": \"auto\"`).",
          log("ds-config-trainer-mismatch", "A Trainer run with train_micro_batch_size_per_gpu=4 and "
                                            "per_device_train_batch_size=8:",
              "ValueError: Please correct the following DeepSpeed config values that mismatch TrainingArguments "
              "values:\n"
              "- ds train_micro_batch_size_per_gpu=4 vs hf per_device_train_batch_size=8\n"
              "The easiest method is to set these DeepSpeed config values to 'auto'.\n")),
    entry("deepspeed-no-sync-incompat",
          "`engine.no_sync()` (or accelerate's accumulate with no_sync) was used with ZeRO stage 2 or 3.",
          "DeepSpeed asserts: `no_sync context manager is incompatible with gradient partitioning logic of ZeRO "
          "stage N` — ZeRO 2/3 reduce-scatter gradients as they are produced.",
          "Let DeepSpeed accumulate gradients: ds_config `\"gradient_accumulation_steps\": N`, and call "
          "engine.backward/step on every micro-batch, without no_sync().",
          log("no-sync-zero2", "A training loop using no_sync() under ZeRO-2:",
              "[rank0]:   File \"/opt/envs/ds/0.19.8/deepspeed/runtime/engine.py\", line 3227, in no_sync\n"
              "[rank0]:     assert not self.zero_optimization_partition_gradients(), \\\n"
              "[rank0]: AssertionError: no_sync context manager is incompatible with gradient partitioning logic of "
              "ZeRO stage 2\n")),
    entry("launcher-mpi-discovery",
          "The script was started without a launcher (no RANK / WORLD_SIZE / MASTER_ADDR): "
          "`deepspeed.init_distributed()` fell back to MPI discovery and failed (`No module named 'mpi4py'`).",
          "init_distributed() imports mpi4py when the launcher variables are missing.",
          "Start it with a launcher (`deepspeed --num_gpus N train.py` or `torchrun --nproc-per-node N train.py`), "
          "or set the variables for one process (`RANK=0 LOCAL_RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 "
          "MASTER_PORT=29500 python train.py`).",
          log("mpi-discovery-no-launcher", "`python train.py` of a script calling deepspeed.init_distributed():",
              "  File \"/opt/envs/ds/0.19.8/deepspeed/comm/comm.py\", line 917, in mpi_discovery\n"
              "    from mpi4py import MPI\n"
              "ModuleNotFoundError: No module named 'mpi4py'\n")),
    entry("port-in-use",
          "The rendezvous port (MASTER_PORT, default 29500) is already in use: `EADDRINUSE` / `The server socket "
          "has failed to listen`.",
          "Another run on the machine, or a leftover process of an earlier one, holds the port.",
          "Use a free port (`deepspeed --master_port 29600 train.py`; torchrun: `--master-port`; env: MASTER_PORT), "
          "or find what holds it (`ss -ltnp | grep ':<port>'`).",
          log("port-in-use", "A second run on the same port:",
              "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network "
              "address. port: 29745, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use\n")),
    entry("ssh-unreachable",
          "The multi-node `deepspeed` launcher could not reach a host of the hostfile over ssh (`host=... was not "
          "reachable via ssh`, `Could not resolve hostname`, `Permission denied (publickey)`).",
          "The launcher checks passwordless ssh to every host before starting ranks; without it nothing starts.",
          "Check passwordless ssh exactly as the launcher runs it (`ssh -o BatchMode=yes <host> true`), install "
          "your key on the host (`ssh-copy-id <host>`); on a single node, do not pass a hostfile (`mv hostfile "
          "hostfile.off`; /job/hostfile is read by default).",
          log("ssh-unreachable", "A hostfile naming a host that does not exist:",
              "subprocess.CalledProcessError: Command '['ssh', '-o', 'PasswordAuthentication=no', 'nohost-a1', "
              "'hostname']' returned non-zero exit status 255.\n"
              "RuntimeError: Using hostfile at hostfile but host=nohost-a1 was not reachable via ssh. If you are "
              "running with a single node please remove hostfile or setup passwordless ssh.\n")),
    entry("host-oom-killed",
          "A rank was killed with SIGKILL (`exits with return code = -9`, `exitcode: -9`, `Signal 9 (SIGKILL)`) "
          "and left no traceback.",
          "Almost always the host OOM killer: each rank loading the full model into host RAM (no zero.Init "
          "because the model was built before TrainingArguments/HfDeepSpeedConfig), or CPU offload buffers "
          "exceeding RAM.",
          "Confirm it (`dmesg -T | grep -i -E 'killed process|out of memory'`); load under zero.Init by creating "
          "`TrainingArguments(deepspeed=...)` before `from_pretrained` (`dsdoctor lint` finds that: "
          "model-loaded-before-ds-config); size it first (`dsdoctor estimate`).",
          log("sigkill-rank-launcher", "The deepspeed launcher's report of a rank killed by SIGKILL:",
              "[2026-11-29 16:36:04,986] [INFO] [launch.py:253:sigkill_handler] Killing subprocess 13229\n"
              "[2026-11-29 16:36:04,989] [INFO] [launch.py:253:sigkill_handler] Killing subprocess 13230\n"
              "[2026-11-29 16:36:04,989] [ERROR] [launch.py:259:sigkill_handler] ['/opt/envs/venv/bin/python', "
              "'-u', 'victim.py', '--local_rank=1'] exits with return code = -9\n")),
    entry("gpu-oom",
          "CUDA out of memory (`torch.OutOfMemoryError: CUDA out of memory`).",
          "The model states, activations and buffers on one GPU exceed its memory for this ZeRO stage, offload "
          "setting and micro batch.",
          "Offload or shrink: ds_config `\"offload_param\": {\"device\": \"cpu\"}`, a smaller "
          "train_micro_batch_size_per_gpu, `gradient_checkpointing=True`; size it first with `dsdoctor estimate`.",
          log("gpu-oom", "An OOM in a Trainer forward:",
              "[rank0]:   File \"/opt/conda/lib/python3.11/site-packages/torch/nn/modules/linear.py\", line 125, in "
              "forward\n"
              "[rank0]:     return F.linear(input, self.weight, self.bias)\n"
              "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
              "capacity of 79.19 GiB of which 1.06 GiB is free. Including non-PyTorch memory, this process has "
              "78.12 GiB memory in use. Of the allocated memory 75.02 GiB is allocated by PyTorch, and 1.54 GiB is "
              "reserved by PyTorch but unallocated.\n")),
    entry("disk-write-failed",
          "Writing a checkpoint or file failed: `No space left on device`, or torch's zip writer failing "
          "(`unexpected pos`, `iostream error`).",
          "The disk (or quota) is full, or the target cannot be written; checkpoints of large models are big and "
          "accumulate.",
          "Free space or write elsewhere (`df -h <output_dir>`); `save_total_limit` bounds the number of "
          "checkpoints the Trainer keeps.",
          log("disk-full-save", "torch.save to a full device:",
              "RuntimeError: basic_ios::clear: iostream error\n"
              "RuntimeError: [enforce fail at inline_container.cc:672] . unexpected pos 704 vs 598\n")),
    entry("no-failure",
          "The log shows no failure: no traceback and no known failure message. Notable warnings are listed "
          "(e.g. a CUDA mismatch allowed by DS_SKIP_CUDA_CHECK=1, CPU-only ops built silently).",
          "explain never invents a cause. If the run hung, the log cannot show why.",
          "Nothing to fix in the log. If the run hung, look for a stale torch-extensions lock (`dsdoctor check`, or "
          "`dsdoctor explain --env`).",
          log("no-failure-skip-check", "A run that went on with DS_SKIP_CUDA_CHECK=1:",
              "W1129 16:36:37.096000 14009 torch/utils/cpp_extension.py:183] No CUDA runtime is found, using "
              "CUDA_HOME='/opt/envs/nvcc/13.5/nvidia/cu13'\n"
              "constructed\n"),
          severity=INFO),
    entry("user-code-error",
          "The failure is an exception raised in the user's own code (the innermost frame of the traceback is in "
          "the training script, not in DeepSpeed/torch/Transformers).",
          "No environment or configuration cause: the evidence points at the file and line that raised.",
          "Fix the code at the reported file:line (explain shows the frame).",
          log("user-code-error", "A KeyError in the script's own batch building:",
              "Traceback (most recent call last):\n"
              "  File \"/home/user/proj/train.py\", line 7, in <module>\n"
              "    main()\n"
              "  File \"/home/user/proj/train.py\", line 3, in <listcomp>\n"
              "    return [r['input_ids'] for r in rows]\n"
              "KeyError: 'input_ids'\n")),
    entry("unknown",
          "A failure dsdoctor does not recognise: a traceback (or a launcher's failure report) with no known cause.",
          "explain never invents a cause; it shows the exception and the user's last frame.",
          "Run `dsdoctor check -v` and `dsdoctor verify --op cpu_adam`, and include the full log when asking for "
          "help.",
          log("unknown-nccl", "An NCCL error:",
              "[rank3]: Traceback (most recent call last):\n"
              "[rank3]:   File \"/home/user/proj/train.py\", line 91, in <module>\n"
              "[rank3]:     trainer.train()\n"
              "[rank3]:   File \"/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py\", line 3404, "
              "in all_reduce\n"
              "[rank3]:     work = group.allreduce([tensor], opts)\n")),
)

ALSO: Tuple[Also, ...] = (
    Also("zero3-low-cpu-mem-usage-conflict", "explain", (
        log("zero3-low-cpu-mem-tf4.46.3", "`dsdoctor explain` on the failed run (Transformers 4.46.3):",
            "  File \"/home/user/proj/train.py\", line 7, in <module>\n"
            "    m = LlamaForCausalLM.from_pretrained(d, low_cpu_mem_usage=True)\n"
            "  File \"/opt/envs/hf/tf4.46.3/transformers/modeling_utils.py\", line 3573, in from_pretrained\n"
            "    raise ValueError(\n"
            "ValueError: DeepSpeed Zero-3 is not compatible with `low_cpu_mem_usage=True` or with passing a "
            "`device_map`.\n"),
    )),
    Also("zero3-device-map-conflict", "explain", (
        log("zero3-device-map-tf5.24.0", "`dsdoctor explain` on the failed run (Transformers 5.24.0):",
            "  File \"/home/user/proj/train.py\", line 7, in <module>\n"
            "    m = LlamaForCausalLM.from_pretrained(d, device_map='auto')\n"
            "    raise ValueError(\"DeepSpeed Zero-3 is not compatible with passing a `device_map`.\")\n"
            "ValueError: DeepSpeed Zero-3 is not compatible with passing a `device_map`.\n"),
    )),
    Also("batch-size-mismatch", "explain", (
        log("batch-size-mismatch", "`dsdoctor explain` on the failed run (world size 1: see the fix for "
                                   "init_distributed):",
            "[rank0]:   File \"/opt/envs/ds/0.19.8/deepspeed/runtime/config.py\", line 602, in _batch_assertion\n"
            "[rank0]:     assert train_batch == micro_batch * grad_acc * self.world_size, (\n"
            "[rank0]: AssertionError: Check batch related parameters. train_batch_size is not equal to "
            "micro_batch_per_gpu * gradient_acc_step * world_size 16 != 8 * 1 * 1\n"),
    )),
    Also("ds-config-auto-without-trainer", "explain", (
        log("auto-without-trainer", "`dsdoctor explain` on the failed run (\"auto\" reached deepspeed.initialize):",
            "[rank0]:   File \"/opt/envs/ds/0.19.8/deepspeed/runtime/config.py\", line 596, in _batch_assertion\n"
            "[rank0]:     assert (train_batch > 0), f\"Train batch size: {train_batch} has to be greater than 0\"\n"
            "[rank0]: TypeError: '>' not supported between instances of 'str' and 'int'\n"),
    )),
    Also("offload-client-optimizer", "explain", (
        log("offload-client-optimizer", "`dsdoctor explain` on the failed run:",
            "[rank0]: Traceback (most recent call last):\n"
            "[rank0]:   File \"/home/user/proj/train.py\", line 7, in <module>\n"
            "[rank0]:     deepspeed.initialize(model=model, optimizer=opt, config=cfg)\n"
            "[rank0]:     raise ZeRORuntimeException(msg)\n"
            "[rank0]: deepspeed.runtime.zero.utils.ZeRORuntimeException: You are using ZeRO-Offload with a client "
            "provided optimizer (<class 'torch.optim.adamw.AdamW'>) which in most cases will yield poor performance. "
            "Please either use deepspeed.ops.adam.DeepSpeedCPUAdam or set an optimizer in your ds-config "
            "(https://www.deepspeed.ai/docs/config-json/#optimizer-parameters). If you really want to use a custom "
            "optimizer w. ZeRO-Offload and understand the performance impacts you can also set "
            "<\"zero_force_ds_cpu_optimizer\": false> in your configuration file.\n"),
    )),
    Also("bucket-size-float", "explain", (
        log("bucket-size-float", "`dsdoctor explain` on the failed run (DeepSpeed 0.19.8, pydantic v2):",
            "[rank0]: Traceback (most recent call last):\n"
            "[rank0]: pydantic_core._pydantic_core.ValidationError: 1 validation error for DeepSpeedZeroConfig\n"
            "[rank0]: stage3_prefetch_bucket_size\n"
            "[rank0]:   Input should be a valid integer, got a number with a fractional part [type=int_from_float, "
            "input_value=15099494.4, input_type=float]\n"),
    )),
    Also("hostfile-invalid", "explain", (
        log("hostfile-invalid", "`dsdoctor explain` on the launcher's output:",
            "[2026-11-29 16:40:47,411] [ERROR] [runner.py:247:_parse_hostfile] Bad hostfile text: ['worker-1 "
            "slots=two\\n']\n"
            "ValueError: Hostfile contains a bad entry: worker-1 slots=two, unable to proceed with launching\n"),
    )),
)
