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
ORACLE = os.path.join(ROOT, ".cache", "oracle")
PY = os.path.join(ORACLE, "venv", "bin", "python")
DS = os.path.join(ORACLE, "ds", "0.19.8")
CPU213 = os.path.join(ORACLE, "venv-cpu213", "lib", "python3.11", "site-packages")
DSDOCTOR = os.path.join(ROOT, ".venv", "bin", "dsdoctor")

HOSTS = [
    Host("node1", {"PYTHONPATH": DS, "TORCH_EXTENSIONS_DIR": "/tmp/ext"}),
    Host("node2", {"PYTHONPATH": DS, "TORCH_EXTENSIONS_DIR": "/tmp/ext"}),
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
        if os.environ.get("DSDOCTOR_REQUIRE_ORACLE") == "1" and os.geteuid() == 0 and "not provisioned" in why:
            pytest.fail(why)
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
