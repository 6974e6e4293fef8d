#!/usr/bin/env bash
# README command 2 (and CI): set up, provision the real libraries the oracle tests run, then type-check,
# lint and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v ninja >/dev/null || { apt-get update -qq && apt-get install -y -qq ninja-build; } || true
# libaio-dev: the NVMe-offload oracle (async_io builds against it)
[ -f /usr/include/libaio.h ] || { apt-get update -qq && apt-get install -y -qq libaio-dev; } || true
# multi-node tests (tests/test_multinode_netns.py): real sshd + pdsh in network namespaces
{ [ -x /usr/sbin/sshd ] && command -v pdsh >/dev/null; } || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssh-server openssh-client pdsh; } || true
# shell-completion tests (tests/test_completion.py) run the real zsh and fish where they are installed
{ command -v zsh && command -v fish; } >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq zsh fish || true
bash scripts/setup-dev.sh
bash scripts/provision-oracle.sh
.venv/bin/python -m mypy
.venv/bin/python -m ruff check src tests bench
export DSDOCTOR_REQUIRE_ORACLE=${DSDOCTOR_REQUIRE_ORACLE:-1}
# two workers (this machine has 2 cores); files that start torch.distributed share one worker (tests/conftest.py)
.venv/bin/python -m pytest -q -rs -p no:cacheprovider -n "${DSDOCTOR_TEST_WORKERS:-2}" --dist loadgroup --durations=15 "$@"
