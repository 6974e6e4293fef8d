#!/usr/bin/env bash
# Provision the "oracle": real torch / DeepSpeed / nvcc installs that tests/oracle runs against.
#
#   scripts/provision-oracle.sh            # idempotent; a second run only re-checks stamps
#
# Layout under ${DSDOCTOR_ORACLE_DIR:-<repo>/.cache/oracle}:
#   venv/            python3.11 venv: torch==2.14.1 (CUDA 13.0 build), ninja (pip), numpy and
#                    DeepSpeed's runtime deps -- NOT deepspeed itself
#   venv-cpu213/     optional: torch 2.13.0+cpu (+ ninja, DeepSpeed deps), when pip can find that wheel
#   venv-noninja/    a real venv whose site-packages holds symlinks to every entry of venv's
#                    site-packages except the `ninja` module (for the ninja-missing oracle)
#   path-noninja/    symlinks to everything in /usr/bin except `ninja` (a PATH without ninja)
#   ds/<ver>/        pip install --no-deps --target of DeepSpeed <ver> (use with PYTHONPATH=ds/<ver>),
#                    built with DS_BUILD_OPS=0 against venv's torch
#   nvcc/<x.y>/      pip install --no-deps --target of nvidia-cuda-nvcc; CUDA_HOME=nvcc/<x.y>/nvidia/cu13
#   hf/<name>/       transformers + accelerate + peft (4.46.3 era and 5.24.0) for PYTHONPATH, no torch
#   acc/<ver>/       pip install --no-deps --target of accelerate <ver> (before 1.0), before hf/tf4.46.3 on PYTHONPATH
#   numpy-2.0.0/     pip install --no-deps --target of numpy 2.0.0 (the numpy-2 oracle)
#   venv-tf4.36.2-acc1.0.0/  transformers 4.36.2 + accelerate 1.0.0 in a venv's site-packages (+ a .pth to venv's):
#                    two real releases that disagree on an API (the API history oracle)
#   ext-0.19.8/      cpu_adam, deepspeed_shm_comm, fused_adam of ds/0.19.8 on venv's torch (CPU accelerator), built once
#   sdist/           DeepSpeed source tarballs read by tests/oracle/test_knowledge_sources.py
#   resolve/         pip's dry-run reports of transformers beside a pinned huggingface-hub / tokenizers
#   .stamps/         one stamp per finished step; .provisioned when everything is done
#
# Environment: DSDOCTOR_ORACLE_DIR (target dir), PYTHON (base interpreter, default python3.11).
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ORACLE="${DSDOCTOR_ORACLE_DIR:-$REPO_ROOT/.cache/oracle}"
PYTHON="${PYTHON:-python3.11}"

TORCH_SPEC="torch==2.14.1"
# DeepSpeed's runtime requirements (requirements/requirements.txt of 0.15.4 .. 0.19.8), minus torch,
# ninja (listed separately) and deepspeed itself. nvidia-ml-py is in every one of them.
DS_DEPS=(numpy "pydantic>=2.0.0" hjson psutil py-cpuinfo msgpack "packaging>=20.0" tqdm einops nvidia-ml-py)
DS_INSTALL_VERSIONS=(0.15.4 0.19.7 0.19.8)
SDIST_VERSIONS=(0.9.2 0.9.3 0.12.0 0.12.1 0.12.3 0.12.4 0.14.0 0.14.1 0.14.2 0.14.3 0.15.2 0.15.3
                0.16.3 0.16.4 0.17.1 0.17.2 0.18.2 0.18.3 0.18.9 0.19.0 0.19.1 0.19.4 0.19.5 0.19.7 0.19.8)
# nvcc toolkit dir name -> nvidia-cuda-nvcc version
declare -A NVCC=([13.5]=13.5.37 [13.0]=13.0.88)

# pip's wheel cache would hold a second copy of torch's CUDA wheel and its nvidia-* wheels (~4 GB) that nothing here
# installs twice; a machine that wants it sets PIP_NO_CACHE_DIR=0.
export PIP_NO_CACHE_DIR="${PIP_NO_CACHE_DIR:-1}"

STAMPS="$ORACLE/.stamps"
mkdir -p "$ORACLE" "$STAMPS" "$ORACLE/ds" "$ORACLE/nvcc" "$ORACLE/sdist"
T0=$(date +%s)
DID=()

log() { printf '[provision-oracle] %s\n' "$*"; }
# stamp_ok NAME KEY: true if step NAME already finished with the same KEY
stamp_ok() { [[ -f "$STAMPS/$1" && "$(cat "$STAMPS/$1")" == "$2" ]]; }
stamp() { printf '%s' "$2" >"$STAMPS/$1"; }

rm -f "$ORACLE/.provisioned"
log "oracle dir: $ORACLE"

# A first provisioning downloads and unpacks several GB (torch's CUDA wheel and its nvidia-* wheels): say so up front
# rather than fail half-way through pip with "No space left on device". Measured without pip's cache (2026-12-06):
# the venv step peaks at 5.5 GiB, the whole oracle ends at 7.4 GiB; .venv and .cache/upstream add 0.5 GiB.
NEED_GB="${DSDOCTOR_ORACLE_NEED_GB:-9}"
if ! stamp_ok venv "$TORCH_SPEC ninja ${DS_DEPS[*]} setuptools wheel"; then
  FREE_GB=$(( $(df -Pk "$ORACLE" | awk 'NR==2 {print $4}') / 1048576 ))
  if (( FREE_GB < NEED_GB )); then
    log "ERROR: $FREE_GB GiB free on the disk of $ORACLE; a first provisioning needs about $NEED_GB GiB" \
        "(set DSDOCTOR_ORACLE_DIR to a roomier disk, or free space)"
    exit 1
  fi
  log "disk: $FREE_GB GiB free (a first provisioning needs about $NEED_GB GiB)"
fi

# ---- 1. venv ---------------------------------------------------------------------------------------
VENV="$ORACLE/venv"
VPY="$VENV/bin/python"
KEY="$TORCH_SPEC ninja ${DS_DEPS[*]} setuptools wheel"
if stamp_ok venv "$KEY" && [[ -x "$VPY" ]]; then
  log "venv: up to date"
else
  log "venv: creating (torch CUDA wheel + nvidia-* deps: several GB)"
  [[ -x "$VPY" ]] || "$PYTHON" -m venv "$VENV"
  "$VPY" -m pip install -q --upgrade pip
  "$VPY" -m pip install -q "$TORCH_SPEC" ninja "${DS_DEPS[@]}" setuptools wheel
  stamp venv "$KEY"
  DID+=("venv")
fi
TORCH_CUDA="$("$VPY" -c 'import torch; print(torch.__version__, torch.version.cuda)')"
log "venv: torch $TORCH_CUDA"
[[ "${TORCH_CUDA#* }" == "13.0" ]] || { log "ERROR: expected torch.version.cuda == 13.0"; exit 1; }
"$VPY" -c 'import ninja' || { log "ERROR: ninja module missing from venv"; exit 1; }
[[ -x "$VENV/bin/ninja" ]] || { log "ERROR: $VENV/bin/ninja missing"; exit 1; }

# ---- 1b. venv-cpu213: a CPU build of torch 2.13 (FileBaton lock; tests/oracle/test_verify_oracle.py) --
# torch 2.13.0+cpu is not on PyPI; pip finds it through find-links (/opt/wheels on the dev machine).
# Optional: a machine without that wheel gets a warning and the tests that need it say so.
CVENV="$ORACLE/venv-cpu213"
CKEY="torch==2.13.0+cpu ninja ${DS_DEPS[*]}"
if stamp_ok venv-cpu213 "$CKEY" && [[ -x "$CVENV/bin/python" ]]; then
  log "venv-cpu213: up to date"
else
  log "venv-cpu213: creating (torch 2.13.0+cpu)"
  [[ -x "$CVENV/bin/python" ]] || "$PYTHON" -m venv "$CVENV"
  if "$CVENV/bin/python" -m pip install -q "torch==2.13.0+cpu" ninja "${DS_DEPS[@]}" setuptools wheel; then
    stamp venv-cpu213 "$CKEY"
    DID+=("venv-cpu213")
  else
    log "WARNING: torch==2.13.0+cpu not installable here (needs a find-links dir with the wheel); skipping venv-cpu213"
    rm -rf "$CVENV"
  fi
fi
[[ -x "$CVENV/bin/python" ]] && log "venv-cpu213: torch $("$CVENV/bin/python" -c 'import torch; print(torch.__version__, torch.version.cuda)')"

# ---- 2. venv-noninja: the same packages minus the ninja module ---------------------------------------
NVENV="$ORACLE/venv-noninja"
SP="$("$VPY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
if stamp_ok venv-noninja "$KEY" && [[ -x "$NVENV/bin/python" ]]; then
  log "venv-noninja: up to date"
else
  log "venv-noninja: creating (symlinks into venv's site-packages, without ninja)"
  rm -rf "$NVENV"
  "$PYTHON" -m venv --without-pip "$NVENV"
  NSP="$("$NVENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  for e in "$SP"/*; do
    b="$(basename "$e")"
    case "$b" in ninja|ninja-*|ninja.*|__pycache__) continue ;; esac
    ln -s "$e" "$NSP/$b"
  done
  stamp venv-noninja "$KEY"
  DID+=("venv-noninja")
fi
if "$NVENV/bin/python" -c 'import ninja' 2>/dev/null; then log "ERROR: venv-noninja can import ninja"; exit 1; fi
"$NVENV/bin/python" -c 'import torch, numpy, pydantic' || { log "ERROR: venv-noninja broken"; exit 1; }

# ---- 3. a PATH without ninja -----------------------------------------------------------------------
PNN="$ORACLE/path-noninja"
if [[ -d "$PNN" && -f "$STAMPS/path-noninja" ]]; then
  log "path-noninja: up to date"
else
  rm -rf "$PNN"; mkdir -p "$PNN"
  for e in /usr/bin/*; do
    [[ "$(basename "$e")" == ninja ]] && continue
    ln -s "$e" "$PNN/$(basename "$e")"
  done
  stamp path-noninja 1
  DID+=("path-noninja")
fi

# ---- 4. nvcc toolkits ------------------------------------------------------------------------------
for mm in "${!NVCC[@]}"; do
  ver="${NVCC[$mm]}"
  dir="$ORACLE/nvcc/$mm"
  nvcc="$dir/nvidia/cu13/bin/nvcc"
  if stamp_ok "nvcc-$mm" "$ver" && [[ -x "$nvcc" ]]; then
    log "nvcc/$mm: up to date"
  else
    log "nvcc/$mm: installing nvidia-cuda-nvcc==$ver"
    rm -rf "$dir"
    "$VPY" -m pip install -q --no-deps --target "$dir" "nvidia-cuda-nvcc==$ver"
    stamp "nvcc-$mm" "$ver"
    DID+=("nvcc/$mm")
  fi
  rel="$("$nvcc" -V | grep -o 'release [0-9.]*' | awk '{print $2}')"
  [[ "$rel" == "$mm" ]] || { log "ERROR: $nvcc reports release '$rel', expected $mm"; exit 1; }
  log "nvcc/$mm: $("$nvcc" -V | tail -1)"
done

# ---- 5. DeepSpeed sdists ---------------------------------------------------------------------------
MISSING=()
for ver in "${SDIST_VERSIONS[@]}" "${DS_INSTALL_VERSIONS[@]}"; do
  if compgen -G "$ORACLE/sdist/deepspeed-$ver.tar.gz" >/dev/null; then continue; fi
  if [[ -f "$STAMPS/sdist-missing-$ver" ]]; then MISSING+=("$ver"); continue; fi
  log "sdist: downloading deepspeed==$ver"
  if "$VPY" -m pip download -q --no-deps --no-binary :all: -d "$ORACLE/sdist" \
      "deepspeed==$ver" 2>"$ORACLE/sdist/.err-$ver"; then
    DID+=("sdist $ver")
    rm -f "$ORACLE/sdist/.err-$ver"
  elif grep -q "No matching distribution" "$ORACLE/sdist/.err-$ver"; then
    log "sdist: deepspeed==$ver does not exist on PyPI; skipping"
    touch "$STAMPS/sdist-missing-$ver"
    MISSING+=("$ver")
  else
    cat "$ORACLE/sdist/.err-$ver" >&2; exit 1
  fi
done
[[ ${#MISSING[@]} -eq 0 ]] || log "sdist: not on PyPI: ${MISSING[*]}"

# ---- 6. DeepSpeed installs (no ops built) ----------------------------------------------------------
for ver in "${DS_INSTALL_VERSIONS[@]}"; do
  dir="$ORACLE/ds/$ver"
  if stamp_ok "ds-$ver" "$TORCH_CUDA" && [[ -f "$dir/deepspeed/git_version_info_installed.py" ]]; then
    log "ds/$ver: up to date"
  else
    log "ds/$ver: installing (DS_BUILD_OPS=0, --no-build-isolation against venv's torch)"
    rm -rf "$dir"
    # Install as a user on a GPU box would: CUDA accelerator, a matching toolkit as CUDA_HOME.
    env DS_BUILD_OPS=0 DS_ACCELERATOR=cuda CUDA_HOME="$ORACLE/nvcc/13.0/nvidia/cu13" \
      PATH="$VENV/bin:$PATH" \
      "$VPY" -m pip install -q --no-deps --no-build-isolation --no-cache-dir --target "$dir" \
      "$ORACLE/sdist/deepspeed-$ver.tar.gz"
    stamp "ds-$ver" "$TORCH_CUDA"
    DID+=("ds/$ver")
  fi
  info="$(cd / && PYTHONWARNINGS=ignore PYTHONPATH="$dir" "$VPY" -c '
from deepspeed import git_version_info_installed as g
ops = [k for k, v in g.installed_ops.items() if v]
print(g.version, "torch_info=%s" % (g.torch_info,), "installed_ops=%s" % ops,
      "accelerator=%s" % getattr(g, "accelerator_name", "?"))
assert not ops, "ops were prebuilt"')"
  log "ds/$ver: $(printf "%s\n" "$info" | tail -1)"
done

# ---- 7. Hugging Face stacks (transformers + accelerate + peft) beside each other --------------------
# install SPEC's pure-Python dependency closure (what the venv already has left out: torch and its stack) into TARGET
install_pure() {
  local spec="$1" target="$2" report="$2.report.json"
  # shellcheck disable=SC2086
  "$VPY" -m pip install -q --dry-run --ignore-installed --report "$report" $spec
  mapfile -t reqs < <("$VPY" - "$report" <<'PY'
import json, sys
have = {"torch", "triton", "sympy", "networkx", "jinja2", "fsspec", "mpmath", "markupsafe", "filelock",
        "typing-extensions", "typing_extensions", "setuptools", "numpy"}
for item in json.load(open(sys.argv[1]))["install"]:
    meta = item["metadata"]
    name = meta["name"].lower()
    if name in have or name.startswith("nvidia-") or name.startswith("cuda-"):
        continue
    print(f"{meta['name']}=={meta['version']}")
PY
)
  "$VPY" -m pip install -q --no-deps --target "$target" "${reqs[@]}"
  rm -f "$report"
}

# hf/<name>/ is a --target dir for PYTHONPATH (with ds/<ver>). Dependencies are resolved with pip's
# dry-run report and installed without torch and its own dependencies, which venv already has.
declare -A HF=([tf4.46.3]="transformers==4.46.3 accelerate==1.1.1 peft==0.13.2"
               [tf5.24.0]="transformers==5.24.0 accelerate==1.15.0 peft==0.21.2")
for name in "${!HF[@]}"; do
  spec="${HF[$name]}"
  dir="$ORACLE/hf/$name"
  if stamp_ok "hf-$name" "$spec" && [[ -d "$dir/transformers" ]]; then
    log "hf/$name: up to date"
    continue
  fi
  log "hf/$name: installing $spec"
  rm -rf "$dir"; mkdir -p "$dir"
  install_pure "$spec" "$dir"
  stamp "hf-$name" "$spec"
  DID+=("hf/$name")
done

# acc/<ver>/ is a --target dir of accelerate alone, put before hf/tf4.46.3 on PYTHONPATH (its dependencies are
# there): a release before 1.0 (tests/oracle/test_zero3_init_flag_oracle.py).
ACC_OLD=0.34.2
if stamp_ok "acc-$ACC_OLD" "accelerate==$ACC_OLD" && [[ -d "$ORACLE/acc/$ACC_OLD/accelerate" ]]; then
  log "acc/$ACC_OLD: up to date"
else
  log "acc/$ACC_OLD: installing accelerate==$ACC_OLD"
  rm -rf "$ORACLE/acc/$ACC_OLD"; mkdir -p "$ORACLE/acc"
  "$VPY" -m pip install -q --no-deps --target "$ORACLE/acc/$ACC_OLD" "accelerate==$ACC_OLD"
  stamp "acc-$ACC_OLD" "accelerate==$ACC_OLD"
  DID+=("acc/$ACC_OLD")
fi

# ---- 8. a venv with two real releases that disagree on an API (tests/oracle/test_api_history_oracle.py) ----
# Transformers 4.36.2's Trainer passes dispatch_batches= to Accelerator(), which Accelerate 1.0.0 removed. The pair
# and its pure-Python dependencies are installed (resolved as in step 7) into the venv's own site-packages; a .pth
# adds venv's site-packages (torch, numpy) after them.
PAIR=tf4.36.2-acc1.0.0
PAIR_SPEC="transformers==4.36.2 accelerate==1.0.0"
PVENV="$ORACLE/venv-$PAIR"
if stamp_ok "pair-$PAIR" "$PAIR_SPEC" && [[ -x "$PVENV/bin/python" ]]; then
  log "venv-$PAIR: up to date"
else
  log "venv-$PAIR: installing $PAIR_SPEC"
  rm -rf "$PVENV"
  "$PYTHON" -m venv --without-pip "$PVENV"
  psite="$("$PVENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  vsite="$("$VPY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  install_pure "$PAIR_SPEC" "$psite"
  printf '%s\n' "$vsite" >"$psite/zz-oracle-venv.pth"
  "$PVENV/bin/python" -c 'import transformers, accelerate; print(transformers.__version__, accelerate.__version__)'
  stamp "pair-$PAIR" "$PAIR_SPEC"
  DID+=("venv-$PAIR")
fi

# ---- 9. the CPU ops of DeepSpeed 0.19.8, built once -------------------------------------------------
# The oracle tests that run real ZeRO-3 training (smoke, lint engine, API, estimate, multi-node) all use venv's torch
# with ds/0.19.8 on the CPU accelerator, so they share one TORCH_EXTENSIONS_DIR built here, once, before the tests:
# built inside the tests it was rebuilt per directory and per worker, on the CI's two cores, at the same time as the
# build tests whose subject is the build (tests/oracle/test_cpu_adam_oracle.py, test_verify_oracle.py build in their
# own directories and are not affected).
EXT="$ORACLE/ext-0.19.8"
# Built with the venv's ninja (PyPI's), as every test that loads these ops runs it (tests/envfixture.py ext_0198_path):
# Debian's ninja 1.11 hashes the command lines differently, and an op built by one is built again by the other.
EXT_KEY="$TORCH_SPEC deepspeed 0.19.8 cpu: CPUAdamBuilder ShareMemCommBuilder FusedAdamBuilder; venv ninja"
if stamp_ok ext-0.19.8 "$EXT_KEY" && [[ -f "$EXT/cpu_adam/cpu_adam.so" ]]; then
  log "ext-0.19.8: up to date"
else
  log "ext-0.19.8: building cpu_adam, deepspeed_shm_comm and fused_adam (CPU accelerator; ~5 min on 2 cores)"
  rm -rf "$EXT"
  env -u DS_ACCELERATOR -u CUDA_HOME PATH="$VENV/bin:$PATH" PYTHONPATH="$ORACLE/ds/0.19.8" TORCH_EXTENSIONS_DIR="$EXT" "$VPY" -c '
from deepspeed.accelerator import get_accelerator
acc = get_accelerator()
assert acc.device_name() == "cpu", acc.device_name()
for name in ("CPUAdamBuilder", "ShareMemCommBuilder", "FusedAdamBuilder"):
    acc.create_op_builder(name).load()
'
  stamp ext-0.19.8 "$EXT_KEY"
  DID+=("ext-0.19.8")
fi

# ---- 10. numpy 2.0.0 alone -----------------------------------------------------------------------------------
# tests/oracle/test_numpy2_oracle.py imports it (PYTHONPATH=numpy-2.0.0) to make the real errors of the names numpy
# 2.0 removed, which explain answers from knowledge/data/numpy2.json.gz.
NP2="$ORACLE/numpy-2.0.0"
if stamp_ok numpy-2.0.0 "numpy==2.0.0" && [[ -f "$NP2/numpy/__init__.py" ]]; then
  log "numpy-2.0.0: up to date"
else
  log "numpy-2.0.0: installing"
  rm -rf "$NP2"
  "$VPY" -m pip install -q --no-deps --target "$NP2" "numpy==2.0.0"
  stamp numpy-2.0.0 "numpy==2.0.0"
  DID+=("numpy-2.0.0")
fi

# ---- 11. what pip installs beside a pin of another package (tests/oracle/test_requires_oracle.py) -------------------
# pip's own resolution (metadata only, nothing installed) of an unpinned transformers beside a pinned huggingface-hub
# or tokenizers: the newest release it picks is the top of the range lint/pin_implied.py says those pins imply.
RES="$ORACLE/resolve"
declare -A RESOLVE=([hub0.17.3]="huggingface-hub==0.17.3" [tokenizers0.13.3]="tokenizers==0.13.3")
mkdir -p "$RES"
for name in "${!RESOLVE[@]}"; do
  if stamp_ok "resolve-$name" "${RESOLVE[$name]}" && [[ -f "$RES/$name.json" ]]; then
    log "resolve/$name: up to date"
    continue
  fi
  log "resolve/$name: pip resolves transformers with ${RESOLVE[$name]}"
  "$VPY" -m pip install -q --dry-run --ignore-installed --only-binary=:all: --report "$RES/$name.json" \
    transformers "${RESOLVE[$name]}"
  stamp "resolve-$name" "${RESOLVE[$name]}"
  DID+=("resolve/$name")
done

T1=$(date +%s)
printf 'provisioned %s\n' "$(date -u +%FT%TZ)" >"$ORACLE/.provisioned"
log "done in $((T1 - T0)) s; did: ${DID[*]:-nothing (all up to date)}"
log "disk: $(du -sh "$ORACLE" 2>/dev/null | cut -f1) in $ORACLE"
