#!/usr/bin/env bash
# Build .devcarry/: what scripts/device-check.sh needs on a bare GPU machine that has torch, nvcc and
# transformers but no DeepSpeed and no network (see docs/testing.md, "GPU device checks").
#   - ds-<ver>.tgz: the oracle's DeepSpeed installs (pip --target, DS_BUILD_OPS=0), 0.19.7 and 0.19.8
#   - nvcc-13.5.tgz: the real nvcc 13.5 driver of PyPI's nvidia-cuda-nvcc (bin/ only: DeepSpeed's CUDA
#     check runs `nvcc -V`; 0.19.8 builds cpu_adam without CUDA), the toolkit that mismatches torch's 13.0
#   - whl/: cp312 wheels of what DeepSpeed and dsdoctor import that the machine lacks
# Needs the provisioned oracle (scripts/provision-oracle.sh) and pip's index.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ORACLE="${DSDOCTOR_ORACLE_DIR:-$REPO/.cache/oracle}"
C="$REPO/.devcarry"
rm -rf "$C" && mkdir -p "$C/whl"
for v in 0.19.7 0.19.8; do tar czf "$C/ds-$v.tgz" -C "$ORACLE/ds" "$v"; done
tar czf "$C/nvcc-13.5.tgz" -C "$ORACLE/nvcc/13.5/nvidia/cu13" bin/nvcc bin/nvcc.profile
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
  -d "$C/whl" hjson==3.1.0 pydantic==2.14.4 pydantic_core==2.50.5 annotated-types==0.8.0 \
  typing-inspection==0.4.5 libcst==1.9.0 ahocorasick-rs
du -sh "$C"
