"""Real multi-host check: sshd hosts in network namespaces (tests/netns_cluster.py), each with another
environment, probed through real ``ssh`` and real ``pdsh``; a host that is down and one that hangs."""

from __future__ import annotations

import json
import os
import sys
from typing import Dict, Iterator

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from netns_cluster import Cluster, Host, cluster, unavailable  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORACLE = os.environ.get("DSDOCTOR_ORACLE_DIR") or os.path.join(ROOT, ".cache", "oracle")
PY = os.path.join(ORACLE, "venv", "bin", "python")
DS = os.path.join(ORACLE, "ds", "0.19.8")
CPU213 = os.path.join(ORACLE, "venv-cpu213", "lib", "python3.11", "site-packages")
DSDOCTOR = os.path.join(ROOT, ".venv", "bin", "dsdoctor")
TRAIN = os.path.join(ROOT, "src", "dsdoctor", "smoke", "train.py")
EXT = os.path.join(ORACLE, "ext-multinode")  # kept between runs (the ranks' ssh environment builds its own ops)

RANK_ENV = {"GLOO_SOCKET_IFNAME": "eth0", "OMP_NUM_THREADS": "1"}  # gloo on the namespace's own interface
HOSTS = [
    Host("node1", dict(RANK_ENV, PYTHONPATH=DS, TORCH_EXTENSIONS_DIR="/tmp/ext")),
    Host("node2", dict(RANK_ENV, PYTHONPATH=DS, TORCH_EXTENSIONS_DIR="/tmp/ext")),
    Host("node3", {"PYTHONPATH": f"{CPU213}:{DS}"}),  # another torch (2.13.0 CPU) first on sys.path; no variable
    Host("node4", state="down"),
    Host("node5", state="hang"),
    Host("node6", state="stuck"),
]


def _skip_reason() -> str:
    why = unavailable()
    if why is None and not (os.path.exists(PY) and os.path.isdir(CPU213)):
        why = "oracle dir not provisioned (scripts/provision-oracle.sh)"
    return why or ""


@pytest.fixture(scope="module")
def net() -> Iterator[Cluster]:
    why = _skip_reason()
    if why:
        machine_cannot = why.startswith(("needs root", "no network namespace support"))
        if os.environ.get("DSDOCTOR_REQUIRE_ORACLE") == "1" and not machine_cannot:
            pytest.fail(why)  # the machine could run it: missing sshd/pdsh/oracle is a setup failure
        pytest.skip(why)
    with cluster(HOSTS) as c:
        with open(os.path.join(c.tmp, "hostfile"), "w") as fh:
            fh.write("# five nodes\n" + "".join(f"{h.name} slots=2\n" for h in HOSTS))
        yield c


def _check(c: Cluster, transport: str, *extra: str) -> Dict[str, object]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}  # forwarded to nodes otherwise
    r = c.run([DSDOCTOR, "check", "--no-lint", "--hostfile", os.path.join(c.tmp, "hostfile"), "--python", PY,
               "--transport", transport, "--timeout", "20", "-f", "json", *extra], env=env, cwd=c.tmp)
    assert r.returncode == 1, r.stderr
    out: Dict[str, object] = json.loads(r.stdout)
    return out


@pytest.mark.parametrize("transport", ["ssh", "pdsh"])
def test_drift_down_and_hung_nodes(net: Cluster, transport: str) -> None:
    out = _check(net, transport)
    facts = out["facts"]
    assert isinstance(facts, dict)
    assert facts["transport"] == transport
    nodes = facts["nodes"]
    assert sorted(nodes) == ["node1", "node2", "node3"]
    assert nodes["node1"]["torch"] == nodes["node2"]["torch"] != nodes["node3"]["torch"]
    assert nodes["node3"]["torch"].startswith("2.13.0")
    assert nodes["node1"]["deepspeed"] == "0.19.8"
    assert sorted(facts["unreachable"]) == ["node4", "node5", "node6"]
    assert "refused" in facts["unreachable"]["node4"]
    assert "timed out" in facts["unreachable"]["node6"] or "timeout" in facts["unreachable"]["node6"]
    findings = out["findings"]
    assert isinstance(findings, list)
    names = [f["name"] for f in findings]
    assert names.count("node-unreachable") == 3
    drift = [f for f in findings if f["name"] == "node-env-drift" and f["title"].startswith("torch differs")]
    assert len(drift) == 1 and "node3" in drift[0]["title"] and "2 of 3 nodes (node1, node2)" in drift[0]["title"]
    differs = [f for f in findings if f["name"] == "node-env-differs" and f["title"].startswith("env differs")]
    assert differs and "TORCH_EXTENSIONS_DIR" in differs[0]["title"]
    # a problem every node has is one line, not three
    grouped = [f for f in findings if f["name"] == "memlock-too-low"]
    assert len(grouped) <= 1 and (not grouped or grouped[0]["title"].startswith("[all 3 nodes]"))


def test_include_exclude_select_nodes(net: Cluster) -> None:
    out = _check(net, "ssh", "--exclude", "node1@node4@node5@node6")
    facts = out["facts"]
    assert isinstance(facts, dict)
    assert sorted(facts["nodes"]) == ["node2", "node3"] and not facts["unreachable"]


def test_forwarded_variables_reach_the_probe(net: Cluster) -> None:
    """PYTHON* variables of the launching shell are exported to every node (as the launcher does), so the
    probe sees node1's torch on node3 too when PYTHONPATH is set locally."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = DS
    r = net.run([DSDOCTOR, "check", "--no-lint", "--hostfile", os.path.join(net.tmp, "hostfile"), "--python", PY,
                 "--transport", "ssh", "-i", "node1@node3", "-f", "json"], env=env, cwd=net.tmp)
    facts = json.loads(r.stdout)["facts"]
    assert facts["nodes"]["node1"]["torch"] == facts["nodes"]["node3"]["torch"]


def test_launch_two_nodes_through_the_real_deepspeed_pdsh_launcher(net: Cluster) -> None:
    """``dsdoctor launch --yes --prebuild`` over two namespace hosts: preflight of both nodes, the variables
    the launcher would not forward appended to .deepspeed_env (the user's line kept), cpu_adam pre-built per
    node, then real ``deepspeed --launcher pdsh`` runs one ZeRO-3 offload rank per node to the end."""
    run = os.path.join(net.tmp, "run")
    os.makedirs(run)
    with open(os.path.join(run, ".deepspeed_env"), "w") as fh:
        fh.write("MY_SETTING=kept\n")
    with open(os.path.join(run, "ds.json"), "w") as fh:
        json.dump({"train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 1,
                   "optimizer": {"type": "AdamW", "params": {"lr": 0.01}},
                   "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"},
                                         "offload_param": {"device": "cpu"}}}, fh)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "TORCH_", "HF_"))}
    env.update(PYTHONPATH=f"{ORACLE}/hf/tf5.24.0:{DS}", TORCH_EXTENSIONS_DIR=EXT, HF_HUB_OFFLINE="1",
               OMP_NUM_THREADS="1")
    r = net.run([DSDOCTOR, "launch", "--yes", "--prebuild", "--", PY, "-u", "-m", "deepspeed.launcher.runner",
                 "--hostfile", os.path.join(net.tmp, "hostfile"), "--include", "node1:0@node2:0",
                 "--master_addr", "127.100.0.2", "--launcher", "pdsh", TRAIN, "--ds-config", "ds.json",
                 "--out", "out"], env=env, cwd=run, timeout=900)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-3000:]
    assert "preflight of 2 node(s)" in r.stderr
    with open(os.path.join(run, ".deepspeed_env")) as fh:
        lines = fh.read().splitlines()
    assert lines[0] == "MY_SETTING=kept" and f"TORCH_EXTENSIONS_DIR={EXT}" in lines and "HF_HUB_OFFLINE=1" in lines
    done = [json.loads(line.split("DSDOCTOR-SMOKE ", 1)[1]) for line in r.stdout.splitlines()
            if "DSDOCTOR-SMOKE " in line and '"done"' in line]
    assert sorted(d["rank"] for d in done) == [0, 1]
    assert any(line.startswith("node2: ") for line in r.stdout.splitlines())  # rank 1 really ran on node2
