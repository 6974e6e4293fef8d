"""A throw-away cluster on this machine for the multi-node tests: one network namespace per host, each with
its own sshd (and its own environment via sshd's SetEnv), plus a client namespace the tests run dsdoctor in.

Addresses are loopback-range (127.100.0.x on a bridge in the client namespace, so hosts reach each other)
and exist only inside the namespaces made here
(``route_localnet`` is enabled per namespace, never on the host). Host names resolve through
``/etc/netns/<client>/hosts`` and ssh reads ``/etc/netns/<client>/ssh/ssh_config``: ``ip netns exec`` bind-
mounts them in the client namespace only. Everything is removed on exit, also when a test fails.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Optional, Sequence

SSHD = "/usr/sbin/sshd"


def unavailable() -> Optional[str]:
    """Why the cluster cannot be made here (None when it can)."""
    if os.geteuid() != 0:
        return "needs root (ip netns)"
    for tool in ("ip", "ssh", "ssh-keygen", "pdsh"):
        if shutil.which(tool) is None:
            return f"{tool} not installed (scripts/test.sh installs openssh-server and pdsh from apt)"
    if not os.path.exists(SSHD):
        return "sshd not installed"
    name = f"dsd8probe{os.getpid()}"
    r = subprocess.run(["ip", "netns", "add", name], capture_output=True, text=True)
    if r.returncode != 0:
        return f"no network namespace support: {r.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", name], capture_output=True)
    return None


@dataclass
class Host:
    name: str
    env: Dict[str, str] = field(default_factory=dict)  # sshd SetEnv for this host's sessions
    state: str = "up"  # up | down (no sshd) | hang (sshd stopped: never answers) | stuck (logs in, command hangs)


@dataclass
class Cluster:
    client: str
    tmp: str
    ns: List[str]
    procs: List["subprocess.Popen[bytes]"]

    def run(self, argv: Sequence[str], timeout: float = 300, **kw: object) -> "subprocess.CompletedProcess[str]":
        """Run ``argv`` in the client namespace."""
        return subprocess.run(["ip", "netns", "exec", self.client, *argv], capture_output=True, text=True,
                              timeout=timeout, **kw)  # type: ignore[call-overload,no-any-return]


def _sh(*argv: str) -> None:
    subprocess.run(list(argv), check=True, capture_output=True)


@contextmanager
def cluster(hosts: Sequence[Host]) -> Iterator[Cluster]:
    tag = f"dsd8{os.getpid()}"
    tmp = tempfile.mkdtemp(prefix="dsdoctor-netns-")
    client = f"{tag}c"
    etc = f"/etc/netns/{client}"
    made: List[str] = []
    had_etc_netns = os.path.isdir("/etc/netns")
    procs: List["subprocess.Popen[bytes]"] = []
    try:
        _sh("ip", "netns", "add", client)
        made.append(client)
        _sh("ip", "netns", "exec", client, "sysctl", "-qw", "net.ipv4.conf.all.route_localnet=1")
        _sh("ip", "-n", client, "link", "add", "br0", "type", "bridge")
        _sh("ip", "netns", "exec", client, "sysctl", "-qw", "net.ipv4.conf.br0.route_localnet=1")
        _sh("ip", "-n", client, "addr", "add", "127.100.0.1/24", "dev", "br0")
        _sh("ip", "-n", client, "link", "set", "br0", "up")
        key = os.path.join(tmp, "id")
        _sh("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key)
        _sh("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", os.path.join(tmp, "hostkey"))
        shutil.copy(key + ".pub", os.path.join(tmp, "authorized_keys"))
        os.makedirs(os.path.join(etc, "ssh"), exist_ok=True)
        with open(os.path.join(etc, "ssh", "ssh_config"), "w") as fh:
            fh.write(f"Host *\n  IdentityFile {key}\n  User root\n  StrictHostKeyChecking no\n"
                     "  UserKnownHostsFile /dev/null\n  LogLevel ERROR\n")
        lines = []
        os.makedirs("/run/sshd", exist_ok=True)
        for i, h in enumerate(hosts, 1):
            ns = f"{tag}h{i}"
            _sh("ip", "netns", "add", ns)
            made.append(ns)
            _sh("ip", "link", "add", f"{tag}c{i}", "netns", client, "type", "veth", "peer", "name", "eth0",
                "netns", ns)
            _sh("ip", "-n", client, "link", "set", f"{tag}c{i}", "master", "br0", "up")
            for key in ("all", "eth0"):
                _sh("ip", "netns", "exec", ns, "sysctl", "-qw", f"net.ipv4.conf.{key}.route_localnet=1")
            _sh("ip", "-n", ns, "addr", "add", f"127.100.0.{i + 1}/24", "dev", "eth0")
            _sh("ip", "-n", ns, "link", "set", "eth0", "up")
            # lo up (a rank connects to its own address through it), but 127/8 other than 127.0.0.1 is not
            # local here: the other hosts' loopback-range addresses are reached over eth0
            _sh("ip", "-n", ns, "link", "set", "lo", "up")
            _sh("ip", "-n", ns, "route", "del", "local", "127.0.0.0/8", "dev", "lo", "table", "local")
            _sh("ip", "-n", ns, "route", "replace", "local", "127.0.0.1", "dev", "lo", "table", "local")
            lines.append(f"127.100.0.{i + 1} {h.name}\n")
            if h.state == "down":
                continue
            cfg = os.path.join(tmp, f"sshd_{i}")
            with open(cfg, "w") as fh:
                fh.write(f"ListenAddress 127.100.0.{i + 1}\nHostKey {tmp}/hostkey\nAuthorizedKeysFile {tmp}/authorized_keys\n"
                         f"PermitRootLogin yes\nStrictModes no\nUsePAM no\nPasswordAuthentication no\n"
                         f"KbdInteractiveAuthentication no\nPidFile {tmp}/sshd_{i}.pid\n")
                if h.state == "stuck":
                    fh.write("ForceCommand exec sleep 600\n")
                if h.env:
                    fh.write("SetEnv " + " ".join(f'"{k}={v}"' for k, v in h.env.items()) + "\n")
            p = subprocess.Popen(["ip", "netns", "exec", ns, SSHD, "-D", "-e", "-f", cfg],
                                 stdout=subprocess.DEVNULL, stderr=open(os.path.join(tmp, f"sshd_{i}.log"), "wb"))
            procs.append(p)
        with open(os.path.join(etc, "hosts"), "w") as fh:
            fh.write("127.0.0.1 localhost\n" + "".join(lines))
        c = Cluster(client, tmp, made, procs)
        for h in hosts:  # wait until each live sshd answers, then freeze the "hang" ones
            if h.state == "down":
                continue
            probe = ["ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=2", h.name, "true"]
            if h.state == "stuck":  # its command never returns: wait for the port instead
                probe = ["python3", "-c", f"import socket; socket.create_connection(({h.name!r}, 22), 2)"]
            for _ in range(100):
                r = c.run(probe, timeout=10)
                if r.returncode == 0:
                    break
            else:
                raise RuntimeError(f"sshd for {h.name} did not come up: {r.stderr}")
        for i, h in enumerate(hosts, 1):
            if h.state == "hang":
                with open(os.path.join(tmp, f"sshd_{i}.pid")) as fh:
                    os.kill(int(fh.read().strip()), signal.SIGSTOP)
        yield c
    finally:
        for i in range(1, len(hosts) + 1):
            pidf = os.path.join(tmp, f"sshd_{i}.pid")
            if os.path.exists(pidf):
                try:
                    pid = int(open(pidf).read().strip())
                    os.kill(pid, signal.SIGCONT)
                    os.kill(pid, signal.SIGTERM)
                except (OSError, ValueError):
                    pass
        for p in procs:
            if p.poll() is None:
                p.terminate()
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        for ns in made:  # whatever still runs in a namespace made here (sshd sessions) ends with it
            got = subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True)
            for pid in got.stdout.split():
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (OSError, ValueError):
                    pass
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        shutil.rmtree(etc, ignore_errors=True)
        if not had_etc_netns:
            shutil.rmtree("/etc/netns", ignore_errors=True)
        shutil.rmtree(tmp, ignore_errors=True)
