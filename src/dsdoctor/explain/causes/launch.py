"""Causes in launching: the launcher (or none: MPI discovery), hostfiles, ssh and the rendezvous port. NCCL, the
GPUs each rank sees and the launcher's signal handler are in ``ranks.py``. The messages live in
``knowledge/deepspeed.py`` and ``knowledge/cuda.py``."""

from __future__ import annotations

import re
import shlex
from typing import Dict, Tuple

from ... import names as N
from ...knowledge import cuda as CK
from ...knowledge import deepspeed as K
from ...knowledge import distributed as KD
from ...knowledge import transformers as TK
from ...model import Severity
from .cause import Advice, Cause, Docs, LogFacts, Seen, cause, code_fix, form, hang_fix, log, msg, rx

RUNNER = "deepspeed/launcher/runner.py"
SSH = "OpenSSH client errors as pdsh / the launcher relay them (OpenSSH 7-9)"


# what ends a run that fell back to MPI discovery: the MPI library or mpi4py, or (DeepSpeed <= 0.16.3) `hostname -I`
MPI_FAILED = r"Segmentation fault|Caught signal \d|mpi4py|MPI_Init|PMI"
HOSTNAME_FAILED = r"hostname(?:: invalid option|(?: -I'|', '-I')\]' returned)"


def _mpi_discovery(s: Seen, f: LogFacts) -> Advice:
    return Advice("The script was not started by a launcher: DeepSpeed found no RANK/WORLD_SIZE and tried MPI discovery",
                  "",
                  [code_fix("Start it with a launcher", "deepspeed --num_gpus N train.py   # or torchrun --nproc-per-node N train.py"),
                   code_fix("Or set the variables for one process",
                            "RANK=0 LOCAL_RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=29500 python train.py")])


def _config_twice(s: Seen, f: LogFacts) -> Advice:
    return Advice("The DeepSpeed config was given twice: as --deepspeed_config and to deepspeed.initialize()", s.text,
                  [code_fix("Drop --deepspeed_config from the launch (the script builds its config itself)",
                            "grep -n -- '--deepspeed_config' your_launch_script.sh"),
                   code_fix("Or keep the file and stop passing config= to deepspeed.initialize()",
                            "grep -n 'deepspeed.initialize' your_training_script.py")])


def _hostfile_invalid(s: Seen, f: LogFacts) -> Advice:
    return Advice("The DeepSpeed hostfile cannot be used", s.text,
                  [code_fix("One host per line: `<hostname> slots=<gpus>`, no duplicates",
                            "printf 'worker-1 slots=8\\nworker-2 slots=8\\n' > hostfile")])


def _hostfile_not_found(s: Seen, f: LogFacts) -> Advice:
    hosts = s.groups.get("hosts", "")  # the hosts of a hostfile the log shows (explain/startup.py)
    summary = (f"The deepspeed launcher found no hostfile and started this node only, not the hosts of the hostfile the "
               f"log shows ({hosts.replace(',', ', ')})" if hosts else
               "The deepspeed launcher found no hostfile and started this node only; the other nodes never joined")
    return Advice(summary, "",
                  [code_fix("Pass the hostfile to the launcher explicitly (its default is /job/hostfile)",
                            "deepspeed --hostfile /path/to/hostfile train.py ...   # one `<host> slots=<gpus>` per line"),
                   code_fix("Check that a wrapper script forwards it", "grep -n -- '--hostfile' your_launch_script.sh",
                            reason="a wrapper that builds the deepspeed command line may drop --hostfile")])


def _port_in_use(s: Seen, f: LogFacts) -> Advice:
    port = f.extra.get("port", "<port>")
    return Advice(f"The rendezvous port {port} is already in use (another run, or a leftover process)", "",
                  [code_fix("Use a free port", "deepspeed --master_port 29600 train.py   # torchrun: --master-port; env: MASTER_PORT"),
                   code_fix("Or find what holds it", f"ss -ltnp | grep ':{port}'")])


def _ssh_unreachable(s: Seen, f: LogFacts) -> Advice:
    host = s.groups.get("host", "<host>")  # the host the matched line names (pdsh's prefix, ssh's own message)
    arg = shlex.quote(host) if "host" in s.groups else host
    return Advice(f"The launcher cannot reach {host} over ssh: {s.text[:200]}", "",
                  [code_fix("Check passwordless ssh exactly as the launcher runs it", f"ssh -o BatchMode=yes {arg} true"),
                   code_fix("Install your key on the host", f"ssh-copy-id {arg}"),
                   code_fix("Single node? Do not pass a hostfile", "mv hostfile hostfile.off   # /job/hostfile is read by default")])


# torch.distributed setup failing or timing out: the frames of a paste cut there, or the store's timeout messages
_RENDEZVOUS_FAILED = "|".join(("rendezvous", "init_process_group", "DistStoreError",
                               re.escape(CK.MSG_STORE_WAIT_CLIENTS.split("} ")[1].split(".")[0]), re.escape(CK.MSG_STORE_BARRIER)))

_HOSTFILE_SAMPLES = ("ValueError: Hostfile contains multiple entries for worker-1, unable to proceed with launching",
                     "ValueError: Hostfile contains a bad entry: worker-1 slots=two, unable to proceed with launching",
                     "ValueError: Hostfile is empty or not formatted correctly, unable to proceed with launching.")

def _accelerate_vars_ignored(s: Seen, f: LogFacts) -> Advice:
    m = re.search(r"ignored: \[([^\]]{1,600})", s.text)
    keys = ", ".join(k.strip(" '\"") for k in m.group(1).split(",")) if m else ""
    return Advice("The accelerate config sets DeepSpeed values next to a deepspeed_config_file; Accelerate refuses both",
                  "", [code_fix("Remove those keys from the accelerate config's deepspeed_config (keep "
                                "deepspeed_config_file, and the zero3_init_flag / deepspeed_multinode_launcher if needed)",
                                f"# delete from the accelerate YAML's deepspeed_config: {keys or 'the keys the message lists'}",
                                reason="the ds_config file then holds them; set them to \"auto\" there to take the "
                                       "Trainer's / launch's values"),
                       code_fix("Or write a new accelerate config: with a deepspeed_config_file it asks only what applies",
                                "accelerate config")],
                  facts=f"The keys it lists: {keys}." if keys else "")


def startup_only(last: str, g: Dict[str, str]) -> Advice:
    """``unknown``'s advice for a log that holds only the launcher's start-up (``explain/startup.py``; ``last``: its
    last line; ``g``: ``launcher`` (``deepspeed`` or ``torchrun``) and what its command does next: ``binds``, ``pdsh``,
    ``ifname``): it shows neither a failure nor a run that went on."""
    each = ("torchrun --log-dir ./rank_logs --redirects 3 ... train.py   # one stdout/stderr file per rank (torch 1.9+)"
            if g.get("launcher") == "torchrun" else
            "deepspeed --enable_each_rank_log ./rank_logs ... train.py   # one file per rank")
    nxt = [code_fix(f"The command asks {K.BIND_CORES_FLAG}: the launcher starts every rank under numactl; check it "
                    "runs on each node", f"numactl --show   # not found: install numactl, or drop {K.BIND_CORES_FLAG}")
           ] if g.get("binds") else []
    if g.get("ifname"):
        nxt.append(code_fix(f"The command forces NCCL_SOCKET_IFNAME={g['ifname']}: check that interface exists on every "
                            "node and carries the address the other nodes reach", f"ip -o -4 addr show   # on each "
                            f"node: is {g['ifname'].split(',')[0].lstrip('^=')} there, with the routable address?"))
    if g.get("pdsh"):
        nxt.append(code_fix("The multi-node runner starts each node's ranks through ssh: they get only the variables "
                            "its command exports (and ~/.deepspeed_env), not your shell's",
                            "echo 'LD_LIBRARY_PATH=...' >> ~/.deepspeed_env   # one VAR=value per line, on the launching "
                            "node; or compare: ssh <node> env"))
    return Advice("The log stops in the launcher's start-up: no rank printed anything, so it shows neither the failure "
                  "nor its cause", "",
                  [code_fix("Paste the whole log, or collect each rank's own output", each,
                            reason="the log stops after the launcher's start-up lines: whatever failed (a tool the "
                                   "launcher runs, a rank that died, a hang) came after them"), *nxt, hang_fix()],
                  f"Its last line is the launcher's: `{last[:200]}`.")


def engine_init_cut(start: str, last: str) -> Advice:
    """``unknown``'s advice for a log that stops inside deepspeed.initialize's set-up (``explain/engine_init.py``;
    ``start``: the last set-up line the engine printed, ``last``: the log's last line)."""
    return Advice("The log stops inside deepspeed.initialize, before the engine printed its finished set-up (its final "
                  "optimizer, its configuration): it shows neither the failure nor its cause", "",
                  [code_fix("If the process died here, look for the kernel's OOM killer on that host",
                            "sudo dmesg -T | grep -i -E 'killed process|out of memory'   # or: journalctl -k | grep -i oom",
                            reason="with ZeRO-Offload the engine's set-up allocates the fp32 optimizer state in CPU memory "
                                   "(about 16-18 bytes per parameter across the node: DeepSpeed's "
                                   "estimate_zero3_model_states_mem_needs); a process killed for it prints nothing more"),
                   hang_fix(),
                   code_fix("Paste the whole log, or collect each rank's own output",
                            "deepspeed --enable_each_rank_log ./rank_logs ... train.py   # one file per rank")],
                  f"It stops after the engine's set-up line `{start[:200]}`; its last line: `{last[:200]}`.")


def _numactl(s: Seen, f: LogFacts) -> Advice:
    return Advice(f"The launcher binds each rank to CPU cores ({K.BIND_CORES_FLAG}) with numactl, which is not installed",
                  "", [code_fix("Install numactl on every node", "sudo apt-get install -y numactl   # yum / dnf: numactl; "
                                "pacman: numactl"),
                       code_fix(f"Or launch without {K.BIND_CORES_FLAG} (and --bind_core_list)",
                                "grep -n -- '--bind_cores_to_rank' your_launch_script.sh",
                                reason="core binding only helps CPU-bound ranks (CPU training, offload); the run works "
                                       "without it")])


_NUMACTL_SAMPLES = ("FileNotFoundError: [Errno 2] No such file or directory: 'numactl'",)


SPECS: Tuple[Cause, ...] = (
    cause(
    N.ACCELERATE_CONFIG_OVERRIDES_DS_CONFIG_FILE,
    Severity.ERROR,
    "An accelerate config sets DeepSpeed values next to a deepspeed_config_file",
    _accelerate_vars_ignored,
    Docs(
        what="`accelerate launch` (or `Accelerator()` / the Trainer under it) stops with `ValueError: When using "
              "`deepspeed_config_file`, the following accelerate config variables will be ignored: "
              "['gradient_accumulation_steps', 'zero_stage', ...]`.",
        why="With a `deepspeed_config_file`, Accelerate takes every DeepSpeed setting from that file and refuses an "
              "accelerate config (or `ACCELERATE_DEEPSPEED_*` / `--gradient_accumulation_steps`-style launch "
              "arguments) that also sets them, rather than silently ignoring one of the two.",
        fix="Remove the listed keys from the accelerate config's `deepspeed_config` (and the matching launch "
              "arguments); set them in the ds_config file, as `\"auto\"` where the Trainer or the launch should fill "
              "them. `accelerate config` with a ds_config file asks only the questions that still apply.",
        examples=(log(N.ACCELERATE_CONFIG_OVERRIDES_DS_CONFIG_FILE, "An accelerate YAML with deepspeed_config_file and "
                      "gradient_accumulation_steps / zero_stage:",
                      "ValueError: When using `deepspeed_config_file`, the following accelerate config variables will "
                      "be ignored: ['gradient_accumulation_steps', 'zero_stage'].\n"),),
        reads="log"),
    signatures=(
        msg(TK.MSG_ACCELERATE_VARS_IGNORED, "accelerate/utils/dataclasses.py DeepSpeedPlugin.__post_init__ "
            "(Accelerate 0.16-1.16)",
            "ValueError: When using `deepspeed_config_file`, the following accelerate config variables will be ignored: "
            "['gradient_accumulation_steps', 'gradient_clipping', 'zero_stage']."),)),
    cause(
    N.LAUNCHER_MPI_DISCOVERY,
    Severity.ERROR,
    "No launcher environment (RANK, ...): DeepSpeed fell back to MPI discovery",
    _mpi_discovery,
    Docs(
        what="The script was started without a launcher (no RANK / WORLD_SIZE / MASTER_ADDR): "
              "`deepspeed.init_distributed()` fell back to MPI discovery and failed (`No module named 'mpi4py'`, or "
              "`hostname: invalid option -- 'I'` where the system's hostname has no -I, DeepSpeed <= 0.16.3).",
        why="init_distributed() imports mpi4py when the launcher variables are missing, and (for the master address) "
              "runs `hostname -I`.",
        fix="Start it with a launcher (`deepspeed --num_gpus N train.py` or `torchrun --nproc-per-node N train.py`), "
              "or set the variables for one process (`RANK=0 LOCAL_RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 "
              "MASTER_PORT=29500 python train.py`).",
        examples=(log("mpi-discovery-no-launcher", "`python train.py` of a script calling deepspeed.init_distributed():",
                   "  File \"/opt/envs/ds/0.19.8/deepspeed/comm/comm.py\", line 917, in mpi_discovery\n"
                   "    from mpi4py import MPI\n"
                   "ModuleNotFoundError: No module named 'mpi4py'\n"),),
        reads="log"),
    signatures=(
              rx(r"No module named '" + K.MSG_MPI_DISCOVERY_MODULE + "'", K.MSG_MPI_DISCOVERY_MODULE,
                 "deepspeed/comm/comm.py mpi_discovery, from init_distributed without RANK (0.9-0.19.8)",
                 "ModuleNotFoundError: No module named 'mpi4py'"),
              # printed by every run without launcher variables, also a working mpirun one: the cause only when the
              # process then crashed in MPI (mpi4py / the MPI library's init) with nothing else to blame
              msg(K.MSG_MPI_DISCOVERY_INFO, "deepspeed/comm/comm.py init_distributed logger.info (0.8.3-0.19.8)",
                  "[2026-11-30 17:02:11,907] [INFO] [comm.py:892:init_distributed] Not using the DeepSpeed or dist "
                  "launchers, attempting to detect MPI environment...",
                  note=True, cause_with=MPI_FAILED + "|" + HOSTNAME_FAILED),
              # mpi_discovery's `hostname -I` failing: fatal through DeepSpeed 0.16.3 (a later release falls back:
              # explain/context.py drops it for a log showing one)
              rx(re.escape(KD.MSG_HOSTNAME_NO_I) + "|" + KD.RX_HOSTNAME_I_FAILED, "hostname",
                 "the system's hostname (GNU inetutils: no -I) run by deepspeed/comm/comm.py mpi_discovery "
                 "(0.8.3-0.16.3: subprocess.check_output, uncaught)",
                 "hostname: invalid option -- 'I'",
                 "subprocess.CalledProcessError: Command '['hostname', '-I']' returned non-zero exit status 64.",
                 symptom=True))),
    form(N.DS_CONFIG_GIVEN_TWICE, _config_twice, signatures=(
              msg(K.MSG_CONFIG_TWICE, "deepspeed/__init__.py initialize, an assertion (0.9.0-0.19.8)",
                  "AssertionError: Not sure how to proceed, we were given deepspeed configs in the deepspeed arguments "
                  "and deepspeed.initialize() function call"),), log_examples=(
              log(N.DS_CONFIG_GIVEN_TWICE, "`dsdoctor explain` on a DeepSpeed-Chat-style run given --deepspeed_config:",
                  "AssertionError: Not sure how to proceed, we were given deepspeed configs in the deepspeed arguments "
                  "and deepspeed.initialize() function call\n"),)),
    form(N.HOSTFILE_INVALID, _hostfile_invalid, signatures=(
              msg(K.MSG_HOSTFILE_BAD_TEXT, f"{RUNNER} _parse_hostfile logger.error (0.15.4-0.19.8)",
                  "[2026-11-29 16:40:47,411] [ERROR] [runner.py:247:_parse_hostfile] Bad hostfile text: ['worker-1 "
                  "slots=two\\n']"),
              *(msg(m, f"{RUNNER} _parse_hostfile ValueError (0.9-0.19.8)", sample)
                for m, sample in zip(K.MSG_HOSTFILE_ERRORS, _HOSTFILE_SAMPLES))), log_examples=(
              log(N.HOSTFILE_INVALID, "`dsdoctor explain` on the launcher's output:",
                  "[2026-11-29 16:40:47,411] [ERROR] [runner.py:247:_parse_hostfile] Bad hostfile text: ['worker-1 "
                  "slots=two\\n']\n"
                  "ValueError: Hostfile contains a bad entry: worker-1 slots=two, unable to proceed with launching\n"),)),
    cause(
    N.HOSTFILE_NOT_FOUND,
    Severity.ERROR,
    "Multi-node run launched without its hostfile: only this node started",
    _hostfile_not_found,
    Docs(
        what="The `deepspeed` launcher found no hostfile (`Unable to find hostfile, will proceed with training with "
              "local resources only.`) and started ranks on this node only; the run then failed or timed out while "
              "setting up torch.distributed, because the world it expects spans nodes that were never started; or the "
              "log shows the hostfile of other hosts that was meant, above a start-up that went on with this node.",
        why="Without `--hostfile` the launcher reads `/job/hostfile`; when that is absent it silently runs a "
              "single-node job, and a script or framework that sizes its world for several nodes waits at "
              "rendezvous for ranks that never come (`" + CK.MSG_STORE_WAIT_CLIENTS.split(".")[0] + "`).",
        fix="Pass `--hostfile <file>` to `deepspeed` (and make any wrapper script forward it); "
              "`dsdoctor check --hostfile <file>` checks the hosts before a run.",
        examples=(log(N.HOSTFILE_NOT_FOUND, "`dsdoctor explain` on the run (no hostfile, a two-node world expected):",
                   "[2026-11-30 10:02:11,101] [WARNING] [runner.py:214:fetch_hostfile] Unable to find hostfile, will "
                   "proceed with training with local resources only.\n"
                   "[rank0]: torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. 2/4 "
                   "clients joined.\n"),),
        reads="log"),
    signatures=(
              # printed by every single-node run too: the cause only when setting up torch.distributed then failed
              # (the world the script expects never assembles)
              msg(K.MSG_NO_HOSTFILE, f"{RUNNER} fetch_hostfile logger.warning (0.8.3-0.19.8)",
                  "[2026-11-30 10:02:11,101] [WARNING] [runner.py:214:fetch_hostfile] Unable to find hostfile, will "
                  "proceed with training with local resources only.",
                  note=True, cause_with=_RENDEZVOUS_FAILED),),
    predicted=N.NODE_UNREACHABLE),
    cause(
    N.SSH_UNREACHABLE,
    Severity.ERROR,
    "The multi-node launcher cannot reach a host over ssh",
    _ssh_unreachable,
    Docs(
        what="The multi-node `deepspeed` launcher could not reach a host of the hostfile over ssh (`host=... was not "
              "reachable via ssh`, `Could not resolve hostname`, `Permission denied (publickey)`).",
        why="The launcher checks passwordless ssh to every host before starting ranks; without it nothing starts.",
        fix="Check passwordless ssh exactly as the launcher runs it (`ssh -o BatchMode=yes <host> true`), install "
              "your key on the host (`ssh-copy-id <host>`); on a single node, do not pass a hostfile (`mv hostfile "
              "hostfile.off`; /job/hostfile is read by default).",
        examples=(log(N.SSH_UNREACHABLE, "A hostfile naming a host that does not exist:",
                   "subprocess.CalledProcessError: Command '['ssh', '-o', 'PasswordAuthentication=no', 'nohost-a1', "
                   "'hostname']' returned non-zero exit status 255.\n"
                   "RuntimeError: Using hostfile at hostfile but host=nohost-a1 was not reachable via ssh. If you are "
                   "running with a single node please remove hostfile or setup passwordless ssh.\n"),),
        reads="log"),
    signatures=(
              msg(K.MSG_SSH_UNREACHABLE, f"{RUNNER} main, passwordless-ssh check (0.9-0.19.8)",
                  "RuntimeError: Using hostfile at hostfile but host=nohost-a1 was not reachable via ssh. If you are "
                  "running with a single node please remove hostfile or setup passwordless ssh."),
              rx(r"ssh: (?:connect to host|Could not resolve hostname) (?P<host>[^\s:]{1,200})", "ssh: ", SSH,
                 "worker-2: ssh: connect to host worker-2 port 22: Connection refused",
                 "ssh: Could not resolve hostname nohost-a1: Name or service not known"),
              rx(r"(?:(?:[\w.-]{1,100}@)?(?P<host>[\w.-]{1,200}): )?Permission denied \((?:publickey|password)",
                 "Permission denied (", SSH,
                 "user@worker-2: Permission denied (publickey)."),
              rx(r"PasswordAuthentication=no'?,? '?(?P<host>[^ ']{1,200})'?,? '?hostname'?\]?' returned non-zero",
                 "PasswordAuthentication=no", f"{RUNNER} main's passwordless-ssh probe, subprocess.CalledProcessError "
                 "(0.8.3-0.19.8: a string command <= 0.14, a list after)",
                 "subprocess.CalledProcessError: Command 'ssh -o PasswordAuthentication=no worker-2 hostname' returned "
                 "non-zero exit status 255.")),
    predicted=N.NODE_UNREACHABLE),
    cause(
    N.NUMACTL_MISSING,
    Severity.ERROR,
    "numactl is not installed, and the launcher binds ranks to cores with it",
    _numactl,
    Docs(
        what=f"`deepspeed {K.BIND_CORES_FLAG}` starts every rank as `numactl ... python train.py`; without numactl the "
              "launcher fails with `FileNotFoundError: [Errno 2] No such file or directory: 'numactl'` (a multi-node "
              "runner's remote shell: `numactl: command not found`).",
        why=f"{K.BIND_CORES_FLAG} (DeepSpeed 0.9.0 and later) pins each rank's threads to its own cores through "
              "numactl; DeepSpeed does not ship it, and minimal images and containers do not have it.",
        fix="Install numactl on every node (`apt-get install numactl`), or drop `--bind_cores_to_rank` from the launch.",
        examples=(log(N.NUMACTL_MISSING, "`deepspeed --bind_cores_to_rank train.py` in a container without numactl:",
                   _NUMACTL_SAMPLES[0] + "\n"),),
        reads="log"),
    signatures=(
              rx(r"No such file or directory: '(?:[^'\s]{0,200}/)?%s'" % K.NUMACTL, K.NUMACTL + "'",
                 "subprocess.Popen of the rank's command in deepspeed/launcher/launch.py main (0.9.0-0.19.5)",
                 *_NUMACTL_SAMPLES),
              rx(r"(?:^|\s|\]|:)(?:\S{0,200}: line \d{1,6}: |bash: |sh: )numactl: command not found", "numactl: ",
                 "bash on a node a multi-node runner (impi, mpich) starts `numactl ... python` on",
                 "bash: numactl: command not found"),
              # printed before the launch when the package manager does not list it: listed, not a failure by itself
              rx(re.escape(K.MSG_NUMACTL_PKG.format(lib=K.NUMACTL, tool="")) + r"\w{1,20}",
                 K.MSG_NUMACTL_PKG.format(lib=K.NUMACTL, tool=""), "deepspeed/utils/numa.py check_for_numactl_pkg "
                 "(0.9.0-0.19.5)", "please install the numactl package with apt", note=True))),
    cause(
    N.PORT_IN_USE,
    Severity.ERROR,
    "The rendezvous port (MASTER_PORT) is already in use",
    _port_in_use,
    Docs(
        what="The rendezvous port (MASTER_PORT, default 29500) is already in use: `EADDRINUSE` / `The server socket "
              "has failed to listen`.",
        why="Another run on the machine, or a leftover process of an earlier one, holds the port.",
        fix="Use a free port (`deepspeed --master_port 29600 train.py`; torchrun: `--master-port`; env: MASTER_PORT), "
              "or find what holds it (`ss -ltnp | grep ':<port>'`).",
        examples=(log(N.PORT_IN_USE, "A second run on the same port:",
                   "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network "
                   "address. port: 29745, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use\n"),),
        reads="log"),
    signatures=(
              msg(CK.MSG_SOCKET_LISTEN, "torch/csrc/distributed/c10d/socket.cpp TCPStore (torch 2.x-2.14)",
                  "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network "
                  "address. port: 29745, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use"),
              msg(CK.MSG_EADDRINUSE, "torch/csrc/distributed/c10d/socket.cpp warning (torch 2.x-2.14)",
                  "[W socket.cpp:464] [c10d] The server socket has failed to listen on [::]:29500 (errno: 98 - Address "
                  "already in use)."))),
)
