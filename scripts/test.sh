#!/usr/bin/env bash
# README command 2 (and CI): set up, type-check and lint while the real libraries the oracle tests run are
# provisioned, then run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
# System packages the tests need, in one apt transaction (one `apt-get update`, not one per package group):
#   ninja-build; libaio-dev: the NVMe-offload oracle (async_io builds against it); openssh + pdsh: multi-node tests
#   (tests/test_multinode_netns.py: real sshd + pdsh in network namespaces); zsh + fish: shell-completion tests
#   (tests/test_completion.py run the real zsh and fish where they are installed)
APT=()
command -v ninja >/dev/null || APT+=("ninja-build")
[ -f /usr/include/libaio.h ] || APT+=("libaio-dev")
{ [ -x /usr/sbin/sshd ] && command -v pdsh >/dev/null; } || APT+=("openssh-server openssh-client pdsh")
{ command -v zsh && command -v fish; } >/dev/null || APT+=("zsh fish")
apt_install() { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"; }
if [ ${#APT[@]} -gt 0 ]; then
  apt-get update -qq || true
  # shellcheck disable=SC2086,SC2048
  apt_install ${APT[*]} || for group in "${APT[@]}"; do apt_install $group || true; done
fi
# .venv (dsdoctor and its dev tools), the released sources tests/test_regressions.py reads (.cache/upstream: ~45 s
# cold, ~1 s once unpacked; it reads dsdoctor's rows, hence after setup-dev), the type check and lint run beside the
# oracle provisioning, which does not use .venv (it waits on pip, downloads and one C++ build); their output is shown
# when both are done
LINT_LOG="$(mktemp)"
( bash scripts/setup-dev.sh && .venv/bin/python scripts/upstream/unpack_sources.py && .venv/bin/python -m mypy \
  && .venv/bin/python -m ruff check src tests bench scripts ) >"$LINT_LOG" 2>&1 &
LINT=$!
trap 'kill "$LINT" 2>/dev/null || true' EXIT
bash scripts/provision-oracle.sh
rc=0; wait "$LINT" || rc=$?
trap - EXIT
cat "$LINT_LOG"; rm -f "$LINT_LOG"
[ "$rc" -eq 0 ] || { echo "setup-dev / unpack_sources / mypy / ruff failed (exit $rc)" >&2; exit "$rc"; }
export DSDOCTOR_REQUIRE_ORACLE=${DSDOCTOR_REQUIRE_ORACLE:-1}
export DSDOCTOR_REQUIRE_UPSTREAM=${DSDOCTOR_REQUIRE_UPSTREAM:-1}
# two workers (this machine has 2 cores); files that start torch.distributed share one worker (tests/conftest.py)
.venv/bin/python -m pytest -q -rs -p no:cacheprovider -n "${DSDOCTOR_TEST_WORKERS:-2}" --dist loadgroup --durations=15 "$@"
