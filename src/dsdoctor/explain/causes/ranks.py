"""Causes in the ranks a launcher started: NCCL (a collective timing out, peer access, the socket interface, the
libnccl torch loads), the GPUs a launcher or rank asks for against the visible ones, and the deepspeed launcher's
signal handler stopping them. The messages live in ``knowledge/cuda.py``, ``knowledge/deepspeed.py`` and
``knowledge/distributed.py``."""

from __future__ import annotations

import re
from typing import Tuple

from ... import fixes as F
from ... import names as N
from ...knowledge import cuda as CK
from ...knowledge import deepspeed as K
from ...knowledge import distributed as DK
from ...model import Severity
from .cause import Advice, Cause, Docs, LogFacts, Seen, cause, code_fix, frame, hang_fix, log, msg, rx
from .launch import RUNNER

_OPS = "|".join(DK.C10D_COLLECTIVES)
COLLECTIVE = f"{DK.C10D_FILE}'s blocking collectives (torch 2.0-2.15)"


def _nccl_timeout(s: Seen, f: LogFacts) -> Advice:
    first = re.search(r"SeqNum=1\b|last completed NCCL work: -1\b", s.text) is not None
    # a collective numbered past 1, or completed work before it: the ranks did talk, so the transport works and
    # testing it (P2P / IB off) cannot help; only the first collective, or one whose number is not shown, can be it
    later = re.search(r"SeqNum=(?:[2-9]|\d{2,})|last completed NCCL work: (?:[1-9]|\d{2,})", s.text) is not None
    transport = [] if later else [
        code_fix("Test the transport when the first collective hangs",
                 "NCCL_P2P_DISABLE=1 NCCL_IB_DISABLE=1 deepspeed ... train.py   # if this runs, fix P2P/IB, do not keep it")]
    facts = "The log shows the very first collective (SeqNum=1) timing out." if first else ""
    op = s.groups.get("op")
    summary = (f"A rank waits in torch.distributed's {op} (a stack dump of the stuck run): another rank stalled, died "
               "or diverged, so the collective never completes" if op else
               "An NCCL collective timed out: one rank stalled, died or diverged while the others waited")
    if op:
        facts = (f"The stack dump shows this rank inside {op} ({DK.C10D_FILE}): it hangs there until the "
                 "process group's timeout (then the watchdog's timeout line).")
    find = (hang_fix() if op else
            code_fix("Find the rank that did not arrive: its own log, or the collective's stack on every rank",
                     "NCCL_DEBUG=INFO TORCH_NCCL_DUMP_ON_TIMEOUT=1 deepspeed ... train.py",
                     reason="the ranks that print the watchdog line are the ones that waited"))
    return Advice(summary, "",
                  [find,
                   *transport,
                   code_fix("Only when one step is legitimately long (a big eval/save on one rank): raise the timeout",
                            "deepspeed.init_distributed(timeout=datetime.timedelta(hours=2))   # HF: TrainingArguments(ddp_timeout=7200)",
                            applicability="unsafe", reason="hides a real hang for longer")], facts)


def _nccl_p2p(s: Seen, f: LogFacts) -> Advice:
    g = s.groups
    fixes = [F.env_fix(CK.NCCL_P2P_DISABLE, "1", "Disable NCCL's P2P transport in every rank's environment",
                       reason="forward it to the workers (.deepspeed_env, Ray runtime_env env_vars), not only the shell"),
             code_fix("See which GPU pairs allow peer access", "nvidia-smi topo -m   # and: nvidia-smi topo -p2p r")]
    if not g.get("us"):
        return Advice("NCCL tried GPU peer-to-peer between GPUs that do not support peer access", "", fixes)
    # p2pBandwidthLatencyTest's matrix (explain/p2p_test.py): peer access is advertised, but its writes crawl
    fixes.append(code_fix("Or make peer traffic direct: PCIe ACS or the IOMMU routes it through the CPU",
                          "sudo lspci -vvv | grep -i acsctl   # 'SrcValid+' on a PCIe bridge redirects peer traffic",
                          "# kernel command line: iommu=pt (or intel_iommu=off / amd_iommu=off), then reboot",
                          reason="then rerun p2pBandwidthLatencyTest: peer writes should take microseconds"))
    return Advice("GPU peer-to-peer is advertised but broken: NCCL's P2P transport stalls on it", "", fixes,
                  f"p2pBandwidthLatencyTest: a P2P write GPU {g.get('pair', '?')} takes {g['us']} us, a local one at "
                  f"most {g.get('local', '?')} us.")


def _nccl_ifname(s: Seen, f: LogFacts) -> Advice:
    return Advice(f"NCCL found no usable network interface: {CK.NCCL_SOCKET_IFNAME} names none of this host's "
                  "interfaces", "",
                  [code_fix(f"Unset {CK.NCCL_SOCKET_IFNAME}, or set it to an interface this host has",
                            "ip -br addr   # then: export NCCL_SOCKET_IFNAME=<iface>   (or unset NCCL_SOCKET_IFNAME)",
                            reason="in every rank's environment (.deepspeed_env / the job script)")])


def _nccl_library(s: Seen, f: LogFacts) -> Advice:
    return Advice("torch loaded another libnccl than the one it was built with (an undefined nccl* symbol)", "",
                  [code_fix("Find the libnccl that shadows torch's own and remove it from the path",
                            "echo $LD_LIBRARY_PATH; python -c 'import nvidia.nccl, os; print(os.path.dirname(nvidia.nccl.__file__))'"
                            "; ldconfig -p | grep libnccl",
                            reason="a system / conda / LD_LIBRARY_PATH libnccl.so.2 older than the one torch's wheel needs"),
                   code_fix("Install the NCCL wheel torch was built against (same CUDA major)",
                            "pip install --force-reinstall 'nvidia-nccl-cu12'   # cu12 for a +cu12x torch, cu13 for +cu13x")])


def _visible_devices(s: Seen, f: LogFacts) -> Advice:
    host, slot = s.groups.get("host", ""), s.groups.get("slot", "")
    if host and host != "localhost" and slot:  # a named host's slots come from its hostfile line, not from its GPUs
        return Advice(f"The launcher was asked for slot {slot} on host {host}, but the hostfile gives {host} fewer "
                      f"slots: `slots=N` declares GPUs 0..N-1 of that host", "",
                      [code_fix(f"Declare every GPU of {host} in the hostfile, and choose the GPUs with --include",
                                f"{host} slots=<GPUs on {host}>   # in the hostfile; then: deepspeed --hostfile hostfile "
                                f"--include {host}:{slot},...",
                                reason="--include picks among the slots the hostfile declares; slots=N is a count from "
                                       "GPU 0, not the number of GPUs you want to use"),
                       code_fix("Or leave the hostfile as it is and choose slots below its count",
                                f"deepspeed --hostfile hostfile --include {host}:0,1 train.py ...")])
    return Advice("The GPUs the launcher or a rank asked for do not match the GPUs that are visible", "",
                  [code_fix("With the deepspeed launcher, choose GPUs with --include, not CUDA_VISIBLE_DEVICES",
                            "unset CUDA_VISIBLE_DEVICES; deepspeed --include localhost:0,2 train.py",
                            reason="it maps CUDA_VISIBLE_DEVICES onto its own slot numbers, which restart at 0"),
                   code_fix("Start no more ranks per node than visible GPUs",
                            "torchrun --nproc-per-node $(nvidia-smi -L | wc -l) train.py   # or deepspeed --num_gpus N",
                            reason="local rank N needs GPU N among the visible ones")])


def _uneven(s: Seen, f: LogFacts) -> Advice:
    what, counts = s.groups.get("what", "batch"), s.groups.get("counts", "")
    return Advice(f"The ranks run different numbers of steps ({what} totals: {counts}): the rank with more waits alone in "
                  "collectives the others never join, and the run hangs" if counts else
                  "The ranks run different numbers of steps: the rank with more waits alone in collectives, and the "
                  "run hangs", "",
                  [code_fix("Give every rank the same number of batches: shard with a DistributedSampler",
                            "sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank, drop_last=True)",
                            "DataLoader(dataset, batch_size=bs, sampler=sampler, drop_last=True)",
                            reason="it splits one dataset evenly (padding, or dropping the remainder with drop_last); "
                                   "per-rank files or a filter applied per rank give uneven shards"),
                   code_fix("Or stop every rank at the smallest count",
                            "steps = torch.tensor(len(loader), device=device); "
                            "dist.all_reduce(steps, op=dist.ReduceOp.MIN)   # then: for i, batch in zip(range(steps), loader)",
                            reason="every step of a DeepSpeed engine is collectives all ranks must join; it has no "
                                   "uneven-input Join as DDP does")])


def _sigint_handler(s: Seen, f: LogFacts) -> Advice:
    return Advice("The deepspeed launcher's own signal handler crashed (NameError on kill_cmd) while stopping the run",
                  "",
                  [F.pip_fix("deepspeed>=0.9.4", "Upgrade DeepSpeed (the handler is installed only for multi-node runs)"),
                   code_fix("Find the first failure above the handler's traceback", "dsdoctor explain <the full log>")])


SPECS: Tuple[Cause, ...] = (
    cause(
    N.NCCL_TIMEOUT,
    Severity.ERROR,
    "An NCCL collective timed out (a rank stalled, died or diverged)",
    _nccl_timeout,
    Docs(
        what="An NCCL collective did not complete within the process-group timeout: `Watchdog caught collective "
              "operation timeout: WorkNCCL(SeqNum=..., OpType=...) ran for ... milliseconds before timing out`; or "
              "a stack dump of the hanging run (`py-spy dump`, faulthandler) shows a rank waiting inside one of "
              "torch.distributed's blocking collectives (`broadcast (torch/distributed/distributed_c10d.py:1555)`), "
              "which ends in that timeout.",
        why="The ranks that print it (or that a dump shows inside the collective) waited; another rank never joined "
              "that collective: it hung, crashed, was slow "
              "(evaluation or saving on rank 0 only, uneven data) or issued a different collective. When the first "
              "collective (SeqNum=1, `last completed NCCL work: -1`) times out, the ranks never communicated at all: "
              "a transport problem (P2P, InfiniBand, the network interface) or a rank that never got there.",
        fix="Find the rank that did not arrive (its own log; `NCCL_DEBUG=INFO`, `TORCH_NCCL_DUMP_ON_TIMEOUT=1`). If "
              "the first collective hangs, test the transport with `NCCL_P2P_DISABLE=1 NCCL_IB_DISABLE=1`. Raise the "
              "timeout (`deepspeed.init_distributed(timeout=...)`, `TrainingArguments(ddp_timeout=...)`) only for a "
              "legitimately long step.",
        examples=(log(N.NCCL_TIMEOUT, "Rank 1 stuck in a rank-0-only evaluation while the others all-reduce:",
                   "[rank0]:[E1130 04:12:55.402118771 ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective "
                   "operation timeout: WorkNCCL(SeqNum=88, OpType=ALLREDUCE, NumelIn=4096, NumelOut=4096, "
                   "Timeout(ms)=600000) ran for 600093 milliseconds before timing out.\n"),
                  log("failure-hang-py-spy", "A py-spy dump of a rank waiting in the barrier of DeepSpeed's "
                      "save_checkpoint:",
                   'Thread 40112 (active): "MainThread"\n'
                   "    barrier (torch/distributed/distributed_c10d.py:4166)\n"
                   "    wrapper (torch/distributed/c10d_logger.py:83)\n"
                   "    barrier (deepspeed/comm/torch.py:404)\n"
                   "    barrier (deepspeed/comm/comm.py:431)\n"
                   "    save_checkpoint (deepspeed/runtime/engine.py:3101)\n")),
        reads="log"),
    signatures=(
              msg(CK.MSG_NCCL_WATCHDOG, "torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp watchdog (torch 1.10-2.14)",
                  "[rank2]:[E1130 04:12:55.402118771 ProcessGroupNCCL.cpp:632] [Rank 2] Watchdog caught collective "
                  "operation timeout: WorkNCCL(SeqNum=88, OpType=ALLGATHER, NumelIn=4096, NumelOut=16384, "
                  "Timeout(ms)=1800000) ran for 1800093 milliseconds before timing out."),
              # a stack dump of a hanging rank (people dump a run that hangs) whose frame is a blocking collective
              rx(r"^\s{0,12}(?P<op>%s) \((?:\S{0,300}/)?torch/distributed/distributed_c10d\.py:\d{1,5}\)" % _OPS,
                 "distributed_c10d.py:", COLLECTIVE + " in a py-spy dump (py-spy 0.3)",
                 "    broadcast (torch/distributed/distributed_c10d.py:1555)",
                 "    all_reduce (/opt/venv/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py:2050)"),
              rx(r'File "(?:[^"]{0,300}/)?torch/distributed/distributed_c10d\.py", line \d{1,5} in (?P<op>%s)\s*$' % _OPS,
                 'distributed_c10d.py", line ', COLLECTIVE + " in a faulthandler dump (no comma before 'in')",
                 '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 3938 in '
                 'barrier'))),
    cause(
    N.NCCL_P2P_UNSUPPORTED,
    Severity.ERROR,
    "NCCL P2P between GPUs without peer access",
    _nccl_p2p,
    Docs(
        what="NCCL failed opening a GPU peer-to-peer channel: `peer access is not supported between these two "
              "devices` (CUDA error 217), usually under `unhandled cuda error` / `ncclUnhandledCudaError`; or CUDA's "
              "p2pBandwidthLatencyTest shows peer writes taking milliseconds (`P2P=Enabled Latency` matrix) while "
              "the multi-GPU run hangs.",
        why="NCCL picks the P2P/IPC transport between GPUs of one node; some topologies (consumer cards, PCIe "
              "switches with ACS, VMs) do not allow peer access between every pair, or advertise it and route the "
              "traffic through the CPU (ACS, an IOMMU), so the first collective stalls.",
        fix="Set `NCCL_P2P_DISABLE=1` in every rank's environment (forward it: `.deepspeed_env`, a Ray "
              "runtime_env's env_vars), and see which pairs allow P2P with `nvidia-smi topo -m`.",
        examples=(log(N.NCCL_P2P_UNSUPPORTED, "Two consumer GPUs without peer access:",
                   "worker-0:3511:3620 [1] transport/p2p.cc:238 NCCL WARN failed to open CUDA IPC handle : 217 peer "
                   "access is not supported between these two devices\n"),
                  log("nccl-p2p-broken-latency", "p2pBandwidthLatencyTest on a server whose PCIe switches redirect peer "
                      "traffic (a hanging 4-GPU run):",
                      "P2P=Enabled Latency (P2P Writes) Matrix (us)\n"
                      "   GPU     0      1      2      3 \n"
                      "     0   3.12 31122.40 31122.37 31122.51 \n"
                      "     1 31122.33   3.05 31122.48 31122.45 \n")),
        reads="log"),
    signatures=(
              msg(CK.MSG_PEER_ACCESS, "CUDA error 217 (cudaErrorPeerAccessUnsupported) as NCCL prints it: "
                  "transport/p2p.cc 'failed to open CUDA IPC handle' (NCCL 2.7) / 'Cuda failure 217' (NCCL 2.1x-2.30)",
                  "worker-0:3511:3620 [1] transport/p2p.cc:238 NCCL WARN failed to open CUDA IPC handle : 217 peer "
                  "access is not supported between these two devices",
                  "Cuda failure 217 'peer access is not supported between these two devices'"),)),
    cause(
    N.NCCL_SOCKET_IFNAME_INVALID,
    Severity.ERROR,
    "NCCL_SOCKET_IFNAME names no interface of this host",
    _nccl_ifname,
    Docs(
        what="NCCL could not start: `ncclInternalError: Internal check failed.` with `Last error: Bootstrap : no "
              "socket interface found`.",
        why="NCCL's bootstrap picks a network interface from `NCCL_SOCKET_IFNAME`; when it names none of the host's "
              "interfaces (often copied from another cluster's script, e.g. `eth0`), nothing is left. NCCL reports it "
              "as an internal error; the reason is on its `Last error:` line.",
        fix="Unset `NCCL_SOCKET_IFNAME`, or set it to an interface the host has (`ip -br addr`), in every rank's "
              "environment.",
        examples=(log(N.NCCL_SOCKET_IFNAME_INVALID, "NCCL_SOCKET_IFNAME=eth0 on a host whose interfaces are ens* / ib*:",
                   "[rank0]: ncclInternalError: Internal check failed.\n"
                   "[rank0]: Last error:\n"
                   "[rank0]: Bootstrap : no socket interface found\n"),),
        reads="log"),
    signatures=(
              msg(CK.MSG_NCCL_NO_SOCKET, "NCCL src/bootstrap.cc bootstrapNetInit (NCCL 2.x), the `Last error:` of an "
                  "ncclInternalError",
                  "Bootstrap : no socket interface found"),
              msg(CK.MSG_NCCL_NO_NET_IF, "NCCL src/transport/net_socket.cc ncclNetSocketInit (NCCL 2.x): the socket "
                  "transport's interface search, same NCCL_SOCKET_IFNAME",
                  "worker-1:2291:2291 [0] transport/net_socket.cc:46 NCCL WARN NET/Socket : no interface found"))),
    cause(
    N.NCCL_LIBRARY_MISMATCH,
    Severity.ERROR,
    "torch loads a libnccl other than the one it was built with",
    _nccl_library,
    Docs(
        what="`import torch` (and so `import deepspeed`) fails: `libtorch_cuda.so: undefined symbol: ncclComm...`.",
        why="torch's CUDA library was linked against a newer NCCL than the `libnccl.so.2` the loader found first: a "
              "system or conda NCCL, an `LD_LIBRARY_PATH` entry, or another package's nvidia-nccl wheel shadows the "
              "one torch's wheel depends on. Reinstalling torch alone does not help while that library comes first.",
        fix="Find the libnccl on the path (`echo $LD_LIBRARY_PATH`, `ldconfig -p | grep libnccl`) and remove it from "
              "the path; install the NCCL wheel torch was built against (`pip install --force-reinstall "
              "nvidia-nccl-cu12` for a +cu12x torch).",
        examples=(log(N.NCCL_LIBRARY_MISMATCH, "An old libnccl on LD_LIBRARY_PATH:",
                   "ImportError: /venv/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: "
                   "ncclCommRegister\n"),),
        reads="log"),
    signatures=(
              msg(CK.MSG_UNDEFINED_NCCL, "the dynamic loader on torch/lib/libtorch_cuda.so (torch 2.x-2.14) against an "
                  "older libnccl.so.2 (e.g. ncclCommRegister, NCCL 2.19+)",
                  "ImportError: /venv/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: "
                  "ncclCommRegister"),)),
    cause(
    N.CUDA_VISIBLE_DEVICES_MISMATCH,
    Severity.ERROR,
    "The GPUs a launcher or rank asks for are not the visible ones",
    _visible_devices,
    Docs(
        what="The GPUs a launcher or a rank tries to use are not the ones visible: `No slot 'N' specified on host "
              "'localhost'` from the deepspeed launcher (or a hostfile's host), or `CUDA error: invalid device "
              "ordinal` from `torch.cuda.set_device`.",
        why="The deepspeed launcher's slots of a host are 0..n-1: n is its hostfile line's `slots=n`, or without a "
              "hostfile the local GPUs it sees. It turns `CUDA_VISIBLE_DEVICES` into `--include`, but the visible GPUs "
              "are renumbered from 0, so `CUDA_VISIBLE_DEVICES=1` asks for a slot 1 that does not exist; a hostfile "
              "that declares `worker-1 slots=2` for a 4-GPU host has no slot 2 for `--include worker-1:2,3`. Starting "
              "more ranks per node than visible GPUs makes local rank N call `set_device(N)` on a GPU it cannot see.",
        fix="With the deepspeed launcher choose GPUs with `--include localhost:0,2` (and unset "
              "`CUDA_VISIBLE_DEVICES`); in a hostfile declare each host's GPU count (`slots=4`) and restrict with "
              "`--include`; start at most as many ranks per node as visible GPUs (`--num_gpus` / `--nproc-per-node`).",
        examples=(log(N.CUDA_VISIBLE_DEVICES_MISMATCH, "`CUDA_VISIBLE_DEVICES=3 deepspeed train.py` on a 4-GPU node:",
                   "ValueError: No slot '3' specified on host 'localhost'\n"),),
        reads="log"),
    signatures=(
              msg(K.MSG_NO_SLOT, f"{RUNNER} parse_resource_filter (0.8.3-0.19.8)",
                  "ValueError: No slot '3' specified on host 'localhost'"),
              rx(K.RX_NO_SLOT_RETYPED, "No slot ", f"{RUNNER} parse_resource_filter (0.8.3-0.19.8), the message "
                 "retyped: quotes dropped, 'specified' misspelt",
                 "No slot 2 specifed on host worker-1", "No slot 3 specified on host localhost."),
              msg(DK.MSG_VISIBLE_IGNORED, f"{RUNNER} main (0.6-0.19.8): the GPUs chosen on the command line replace "
                  "CUDA_VISIBLE_DEVICES",
                  "Detected CUDA_VISIBLE_DEVICES=2,3 but ignoring it because one or several of "
                  "--include/--exclude/--num_gpus/--num_nodes cl args were used. If you want to use "
                  "CUDA_VISIBLE_DEVICES don't pass any of these arguments to deepspeed."),
              frame("deepspeed/launcher/runner.py", "parse_inclusion_exclusion", f"{RUNNER} "
                    "parse_inclusion_exclusion -> parse_resource_filter (0.8.3-0.19.8), the ValueError cut",
                    "Traceback (most recent call last):\n"
                    "  File \"/venv/lib/python3.11/site-packages/deepspeed/launcher/runner.py\", line 349, in "
                    "parse_inclusion_exclusion\n"
                    "    return parse_resource_filter(active_resources, include_str=inclusion, exclude_str=exclusion)\n"),
              msg(CK.MSG_INVALID_ORDINAL, "CUDA error 101 (cudaErrorInvalidDevice) through torch.cuda.set_device "
                  "(torch 1.x-2.14)",
                  "RuntimeError: CUDA error: invalid device ordinal"),
              frame("torch/cuda/__init__.py", "set_device", "torch/cuda/__init__.py set_device (torch 1.x-2.14): "
                    "local rank >= the number of visible GPUs, the message cut or indented",
                    "Traceback (most recent call last):\n"
                    "  File \"/home/user/proj/train.py\", line 12, in main\n"
                    "    torch.cuda.set_device(local_rank)\n"
                    "  File \"/venv/lib/python3.11/site-packages/torch/cuda/__init__.py\", line 567, in set_device\n"
                    "    torch._C._cuda_setDevice(device)\n"),
              frame("deepspeed/launcher/runner.py", "main", "deepspeed/launcher/runner.py main -> "
                    "parse_inclusion_exclusion (0.8.3-0.19.8), the ValueError cut",
                    "Traceback (most recent call last):\n"
                    "  File \"/venv/lib/python3.11/site-packages/deepspeed/launcher/runner.py\", line 476, in main\n"
                    "    active_resources = parse_inclusion_exclusion(resource_pool, args.include, args.exclude)\n",
                    code=re.escape(K.SRC_PARSE_INCLUSION))),
    yields=True),  # its launch warning is printed first: a later failure of the run is reported before it
    cause(
    N.UNEVEN_BATCHES_ACROSS_RANKS,
    Severity.ERROR,
    "The ranks report different numbers of batches: the run hangs in unmatched collectives",
    _uneven,
    Docs(
        what="The ranks of a data-parallel run report different totals of batches (steps, iterations) for one loop "
              "(`rank 2: number of batches = 96` where the others print 120, `len(train_loader) = 312` on one rank and "
              "313 on another), and the run stops progressing.",
        why="Every step of a DeepSpeed engine (and of DDP) is a set of collectives all ranks join: gradient "
              "reduction, ZeRO-3's parameter gathers, the overflow check. A rank with more batches waits alone in its "
              "next collective once the others have finished, until the NCCL timeout, if any. Shards made per rank "
              "(a file per rank, a filter per rank, a dataset that is not split by a sampler) are uneven.",
        fix="Give every rank the same number of batches: shard one dataset with a `DistributedSampler` (`drop_last` "
              "or padding), or all-reduce the smallest count and stop every rank there.",
        examples=(log(N.UNEVEN_BATCHES_ACROSS_RANKS, "Per-rank counts printed before a run that hangs:",
                   "[rank0]: len(train_loader) = 312\n[rank1]: len(train_loader) = 312\n[rank2]: len(train_loader) = 304\n"),),
        reads="log")),
    cause(
    N.LAUNCHER_SIGNAL_HANDLER_CRASH,
    Severity.ERROR,
    "The deepspeed launcher's signal handler crashed (NameError kill_cmd)",
    _sigint_handler,
    Docs(
        what="The deepspeed launcher's own SIGINT/SIGTERM handler failed: `NameError: free variable 'kill_cmd' "
              "referenced before assignment` in runner.py `sigkill_handler`.",
        why="DeepSpeed < 0.9.4 (fixed by PR #3730) installs the handler on a single node too, but sets `kill_cmd` only "
              "for multi-node pdsh runs. The NameError hides why the run stopped (Ctrl-C, or a rank that failed first).",
        fix="Look above the handler's traceback for the first failure; upgrade DeepSpeed (`pip install "
              "'deepspeed>=0.9.4'`).",
        examples=(log(N.LAUNCHER_SIGNAL_HANDLER_CRASH, "Ctrl-C on a single-node run with DeepSpeed 0.9.2:",
                   "NameError: free variable 'kill_cmd' referenced before assignment in enclosing scope\n"),),
        reads="log"),
    signatures=(
              msg(K.MSG_KILL_CMD, f"{RUNNER} main's sigkill_handler (0.8-0.9.3; PR #3730 in 0.9.4), Python's NameError",
                  "NameError: free variable 'kill_cmd' referenced before assignment in enclosing scope",
                  "NameError: cannot access free variable 'kill_cmd' where it is not associated with a value in "
                  "enclosing scope"),)),
)
