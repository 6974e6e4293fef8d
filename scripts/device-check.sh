#!/usr/bin/env bash
# The GPU device check (docs/testing.md, "GPU device checks"): on a machine with a GPU, torch and nvcc,
# compare what `dsdoctor check` predicts for cpu_adam with what `dsdoctor verify` really gets, for DeepSpeed
# 0.19.7 and 0.19.8 with a matching and a mismatched CUDA toolkit, then run `dsdoctor smoke` on the GPU.
# Prepare first, where pip reaches the index: scripts/device-prepare.sh (makes .devcarry/).
#   scripts/device-check.sh          # results in $OUT (summary.txt, results.tgz)
# Overrides for a trial run elsewhere: DC_PY (the training interpreter, default python3), DC_DSDOCTOR_PY
# (the one running dsdoctor, default DC_PY), DC_CUDA_MATCH (the toolkit matching torch, default /usr/local/cuda),
# DC_NO_WHEELS=1 (DC_DSDOCTOR_PY already has dsdoctor's and DeepSpeed's dependencies).
set -u
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${OUT:-/tmp/device-check-out}"
PY="${DC_PY:-python3}"
DPY="${DC_DSDOCTOR_PY:-$PY}"
MATCH="${DC_CUDA_MATCH:-${CUDA_HOME:-/usr/local/cuda}}"
[[ -x "$MATCH/bin/nvcc" ]] || MATCH="$(dirname "$(dirname "$(command -v nvcc)")")"  # the machine's own toolkit
W="$(mktemp -d)"
mkdir -p "$OUT" "$W/r" "$W/proj"  # proj: an empty project, so check lints nothing of this repository
for f in "$REPO"/.devcarry/*.tgz; do tar xzf "$f" -C "$W"; done
[[ -n "${DC_NO_WHEELS:-}" ]] || "$DPY" -m pip install -q --no-index --no-deps --no-compile --target "$W/site" "$REPO"/.devcarry/whl/*.whl
export PATH="$(dirname "$("$PY" -c 'import sys; print(sys.executable)')"):$PATH"  # the environment activated
{
  echo "== facts"; date -u; nvidia-smi -L 2>&1; echo "match: $MATCH"
  "$MATCH/bin/nvcc" -V 2>&1 | grep release; "$W/bin/nvcc" -V 2>&1 | grep release
  "$PY" -c 'import torch; print("torch", torch.__version__, torch.version.cuda, torch.cuda.is_available(),
      torch.cuda.get_device_capability() if torch.cuda.is_available() else "")' 2>&1
  command -v g++ c++ ninja; nproc
  env | grep -E '^(TORCH_CUDA_ARCH_LIST|CUDA_HOME|CUDA_PATH|DS_[A-Z_]+|TORCH_EXTENSIONS_DIR)=' | sort
} >"$W/r/facts.txt" 2>&1
cd "$W/proj"

dsd() {  # dsd DS TOOLKIT NAME COMMAND ARGS...: dsdoctor with that DeepSpeed on the path and that CUDA_HOME
  local ds="$1" tk="$2" name="$3"; shift 3
  env PYTHONPATH="$W/$ds:$W/site:$REPO/src" CUDA_HOME="$tk" "$DPY" -m dsdoctor "$@" --python "$PY" --format json \
    >"$W/r/$1-$ds-$name.json" 2>"$W/r/$1-$ds-$name.err"
  echo "$1 $ds $name rc=$?" >>"$W/r/rc.txt"
}
case_() {  # one DeepSpeed x toolkit: the prediction, then the real build in a fresh extensions dir
  dsd "$1" "$2" "$3" check
  local t0=$SECONDS
  dsd "$1" "$2" "$3" verify --op cpu_adam --timeout 400 --extensions-dir "$W/ext-$1-$3"
  echo "verify $1 $3 seconds=$((SECONDS - t0))" >>"$W/r/rc.txt"
}
# the arch list with its suffixes dropped, as dsdoctor's fix for cuda-arch-list-unparsed gives it
FIXED="$(echo "${TORCH_CUDA_ARCH_LIST:-}" | sed -E 's/([0-9])[a-z]+/\1/g')"
for ds in 0.19.7 0.19.8; do
  case_ "$ds" "$MATCH" match & case_ "$ds" "$W" mismatch &
done
TORCH_CUDA_ARCH_LIST="$FIXED" case_ 0.19.7 "$MATCH" match-archfix &
TORCH_CUDA_ARCH_LIST="$FIXED" case_ 0.19.7 "$W" mismatch-archfix &
wait
# smoke on the GPU: 0.19.8, the matching toolkit, the cpu_adam the matching verify built
TORCH_EXTENSIONS_DIR="$W/ext-0.19.8-match" dsd 0.19.8 "$MATCH" gpu smoke --timeout 300
"$DPY" "$REPO/scripts/device_compare.py" "$W/r" | tee "$OUT/summary.txt"
tar czf "$OUT/results.tgz" -C "$W" r
