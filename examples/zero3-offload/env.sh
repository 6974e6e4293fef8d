# The demo environment (made by scripts/provision-oracle.sh): a real CUDA build of torch (CUDA 13.0),
# real DeepSpeed 0.19.7 and a real CUDA 13.5 toolkit under CUDA_HOME — a pair DeepSpeed rejects
# (no minor tolerance for CUDA 13). Source it, then run `dsdoctor check --python "$DEMO_PYTHON"`.
_oracle=${DSDOCTOR_ORACLE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/.cache/oracle}
export DEMO_PYTHON="$_oracle/venv/bin/python"
export PYTHONPATH="$_oracle/ds/0.19.7"
export CUDA_HOME="$_oracle/nvcc/13.5/nvidia/cu13"
export DS_ACCELERATOR=cuda          # what a GPU node selects; this machine has no GPU
export DS_SKIP_CUDA_CHECK=true      # the blog recipe's value: ignored, only "1" counts
