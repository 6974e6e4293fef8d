#!/usr/bin/env bash
# README command 1: set up dsdoctor and run `dsdoctor check` on this machine's environment, then on the
# bundled example (examples/zero3-offload): real torch (CUDA 13.0 build), real DeepSpeed 0.19.7 and a real
# CUDA 13.5 toolkit that DeepSpeed rejects; then lint the example's config and launch files.
# The first run downloads the example environment (~7 GB).
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-dev.sh
echo; echo "== dsdoctor check (this machine, $(.venv/bin/python -c 'import sys;print(sys.executable)')) =="
.venv/bin/dsdoctor check
bash scripts/provision-oracle.sh >/dev/null
echo; echo "== dsdoctor check on the example environment (examples/zero3-offload/env.sh) =="
# shellcheck source=/dev/null
. examples/zero3-offload/env.sh
.venv/bin/dsdoctor check --python "$DEMO_PYTHON" --ds-config examples/zero3-offload/ds_config_zero3.json "$@"
rc=$?
echo; echo "== dsdoctor lint examples/zero3-offload (configs and launch files) =="
.venv/bin/dsdoctor lint examples/zero3-offload
echo; echo "dsdoctor check on the example exited with $rc (0: no errors, 1: errors found, 2: dsdoctor could not run)"
