"""Causes in launching: the launcher, hostfiles, ssh, rendezvous ports, torch.distributed / NCCL. The messages
live in ``knowledge/deepspeed.py`` and ``knowledge/cuda.py``."""

from __future__ import annotations

import shlex
from typing import Tuple

from ...knowledge import cuda as CK
from ...knowledge import deepspeed as K
from .spec import Advice, Cause, Docs, LogFacts, Seen, code_fix, log, msg, rx

RUNNER = "deepspeed/launcher/runner.py"
SSH = "OpenSSH client errors as pdsh / the launcher relay them (OpenSSH 7-9)"


def _mpi_discovery(s: Seen, f: LogFacts) -> Advice:
    return Advice("The script was not started by a launcher: DeepSpeed found no RANK/WORLD_SIZE and tried MPI discovery",
                  "deepspeed.init_distributed() falls back to mpi4py when the launcher variables are missing.",
                  [code_fix("Start it with a launcher", "deepspeed --num_gpus N train.py   # or torchrun --nproc-per-node N train.py"),
                   code_fix("Or set the variables for one process",
                            "RANK=0 LOCAL_RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=29500 python train.py")])


def _hostfile_invalid(s: Seen, f: LogFacts) -> Advice:
    return Advice("The DeepSpeed hostfile cannot be used", s.text,
                  [code_fix("One host per line: `<hostname> slots=<gpus>`, no duplicates",
                            "printf 'worker-1 slots=8\\nworker-2 slots=8\\n' > hostfile")])


def _port_in_use(s: Seen, f: LogFacts) -> Advice:
    port = f.extra.get("port", "<port>")
    return Advice(f"The rendezvous port {port} is already in use (another run, or a leftover process)", s.text,
                  [code_fix("Use a free port", "deepspeed --master_port 29600 train.py   # torchrun: --master-port; env: MASTER_PORT"),
                   code_fix("Or find what holds it", f"ss -ltnp | grep ':{port}'")])


def _ssh_unreachable(s: Seen, f: LogFacts) -> Advice:
    host = s.groups.get("host", "<host>")
    return Advice(f"The launcher cannot reach {host} over ssh: {s.text[:200]}", s.text,
                  [code_fix("Check passwordless ssh exactly as the launcher runs it", f"ssh -o BatchMode=yes {shlex.quote(host)} true"),
                   code_fix("Install your key on the host", f"ssh-copy-id {shlex.quote(host)}"),
                   code_fix("Single node? Do not pass a hostfile", "mv hostfile hostfile.off   # /job/hostfile is read by default")])


_HOSTFILE_SAMPLES = ("ValueError: Hostfile contains multiple entries for worker-1, unable to proceed with launching",
                     "ValueError: Hostfile contains a bad entry: worker-1 slots=two, unable to proceed with launching",
                     "ValueError: Hostfile is empty or not formatted correctly, unable to proceed with launching.")

SPECS: Tuple[Cause, ...] = (
    Cause("launcher-mpi-discovery", "DS317", "No launcher environment (RANK, ...): DeepSpeed fell back to MPI discovery",
          _mpi_discovery, predicted_by="none", signatures=(
              rx(r"No module named '" + K.MSG_MPI_DISCOVERY_MODULE + "'", K.MSG_MPI_DISCOVERY_MODULE,
                 "deepspeed/comm/comm.py mpi_discovery, from init_distributed without RANK (0.9-0.19.8)",
                 "ModuleNotFoundError: No module named 'mpi4py'"),),
          docs=Docs(
              "The script was started without a launcher (no RANK / WORLD_SIZE / MASTER_ADDR): "
              "`deepspeed.init_distributed()` fell back to MPI discovery and failed (`No module named 'mpi4py'`).",
              "init_distributed() imports mpi4py when the launcher variables are missing.",
              "Start it with a launcher (`deepspeed --num_gpus N train.py` or `torchrun --nproc-per-node N train.py`), "
              "or set the variables for one process (`RANK=0 LOCAL_RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 "
              "MASTER_PORT=29500 python train.py`).",
              (log("mpi-discovery-no-launcher", "`python train.py` of a script calling deepspeed.init_distributed():",
                   "  File \"/opt/envs/ds/0.19.8/deepspeed/comm/comm.py\", line 917, in mpi_discovery\n"
                   "    from mpi4py import MPI\n"
                   "ModuleNotFoundError: No module named 'mpi4py'\n"),))),
    Cause("hostfile-invalid", "DS419", "The hostfile has a bad line, a duplicate host or no hosts",
          _hostfile_invalid, predicted_by="lint:hostfile-invalid", signatures=(
              msg(K.MSG_HOSTFILE_BAD_TEXT, f"{RUNNER} _parse_hostfile logger.error (0.15.4-0.19.8)",
                  "[2026-11-29 16:40:47,411] [ERROR] [runner.py:247:_parse_hostfile] Bad hostfile text: ['worker-1 "
                  "slots=two\\n']"),
              *(msg(m, f"{RUNNER} _parse_hostfile ValueError (0.9-0.19.8)", sample)
                for m, sample in zip(K.MSG_HOSTFILE_ERRORS, _HOSTFILE_SAMPLES))),
          log_examples=(
              log("hostfile-invalid", "`dsdoctor explain` on the launcher's output:",
                  "[2026-11-29 16:40:47,411] [ERROR] [runner.py:247:_parse_hostfile] Bad hostfile text: ['worker-1 "
                  "slots=two\\n']\n"
                  "ValueError: Hostfile contains a bad entry: worker-1 slots=two, unable to proceed with launching\n"),)),
    Cause("ssh-unreachable", "DS320", "The multi-node launcher cannot reach a host over ssh",
          _ssh_unreachable, predicted_by="check --hostfile:node-unreachable", signatures=(
              msg(K.MSG_SSH_UNREACHABLE, f"{RUNNER} main, passwordless-ssh check (0.9-0.19.8)",
                  "RuntimeError: Using hostfile at hostfile but host=nohost-a1 was not reachable via ssh. If you are "
                  "running with a single node please remove hostfile or setup passwordless ssh."),
              rx(r"ssh: (?:connect to host|Could not resolve hostname) \S{1,200}", "ssh: ", SSH,
                 "worker-2: ssh: connect to host worker-2 port 22: Connection refused",
                 "ssh: Could not resolve hostname nohost-a1: Name or service not known"),
              rx(r"Permission denied \((?:publickey|password)", "Permission denied (", SSH,
                 "user@worker-2: Permission denied (publickey).")),
          docs=Docs(
              "The multi-node `deepspeed` launcher could not reach a host of the hostfile over ssh (`host=... was not "
              "reachable via ssh`, `Could not resolve hostname`, `Permission denied (publickey)`).",
              "The launcher checks passwordless ssh to every host before starting ranks; without it nothing starts.",
              "Check passwordless ssh exactly as the launcher runs it (`ssh -o BatchMode=yes <host> true`), install "
              "your key on the host (`ssh-copy-id <host>`); on a single node, do not pass a hostfile (`mv hostfile "
              "hostfile.off`; /job/hostfile is read by default).",
              (log("ssh-unreachable", "A hostfile naming a host that does not exist:",
                   "subprocess.CalledProcessError: Command '['ssh', '-o', 'PasswordAuthentication=no', 'nohost-a1', "
                   "'hostname']' returned non-zero exit status 255.\n"
                   "RuntimeError: Using hostfile at hostfile but host=nohost-a1 was not reachable via ssh. If you are "
                   "running with a single node please remove hostfile or setup passwordless ssh.\n"),))),
    Cause("port-in-use", "DS319", "The rendezvous port (MASTER_PORT) is already in use",
          _port_in_use, predicted_by="none", signatures=(
              msg(CK.MSG_SOCKET_LISTEN, "torch/csrc/distributed/c10d/socket.cpp TCPStore (torch 2.x-2.14)",
                  "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network "
                  "address. port: 29745, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use"),
              msg(CK.MSG_EADDRINUSE, "torch/csrc/distributed/c10d/socket.cpp warning (torch 2.x-2.14)",
                  "[W socket.cpp:464] [c10d] The server socket has failed to listen on [::]:29500 (errno: 98 - Address "
                  "already in use).")),
          docs=Docs(
              "The rendezvous port (MASTER_PORT, default 29500) is already in use: `EADDRINUSE` / `The server socket "
              "has failed to listen`.",
              "Another run on the machine, or a leftover process of an earlier one, holds the port.",
              "Use a free port (`deepspeed --master_port 29600 train.py`; torchrun: `--master-port`; env: MASTER_PORT), "
              "or find what holds it (`ss -ltnp | grep ':<port>'`).",
              (log("port-in-use", "A second run on the same port:",
                   "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network "
                   "address. port: 29745, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use\n"),))),
)
