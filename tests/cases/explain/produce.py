"""Make the real libraries fail and keep their output as explain fixtures.

Each scenario runs a real failure with the provisioned DeepSpeed / torch / Transformers / nvcc
(``.cache/oracle``, see scripts/provision-oracle.sh) and writes ``<name>.log`` (stdout+stderr, exactly as
printed) and ``<name>.toml`` (how it was produced + what explain must say). The oracle test
(tests/oracle/test_explain_oracle.py) reruns some of them live. Usage::

    .venv/bin/python tests/cases/explain/produce.py [NAME ...]

Nothing here is mocked: the only "faults" are an nvcc of another CUDA version, a PATH/venv without
ninja, a leftover lock file, a bound port, a SIGKILL / SIGBUS sent to a real process, /dev/full.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
# DeepSpeed 0.19.8's CPU ops as scripts/provision-oracle.sh step 9 built them (tests/envfixture.py EXT_0198), for a
# scenario on the plain venv whose environment changes no build (a port, the CPU accelerator); the others (a build
# that must fail, another DeepSpeed, the CUDA builder) keep a directory per DeepSpeed release
EXT_0198 = ORACLE / "ext-0.19.8"
VPY = ORACLE / "venv" / "bin" / "python"


@dataclass
class Scenario:
    name: str
    description: str
    expect: str  # the primary diagnosis name
    code: str  # python source run with -c
    ds: Optional[str] = "0.19.8"
    hf: Optional[str] = None
    python: str = "venv"
    env: Dict[str, str] = field(default_factory=dict)
    argv: Tuple[str, ...] = ()  # run these instead of `python -c code`
    timeout: int = 300
    consequences: Tuple[str, ...] = ()  # substrings the primary's consequences must contain
    evidence: str = ""  # a substring the primary's evidence must contain
    setup: str = ""  # shell run first (in the temp dir)
    env_primary: str = ""  # the primary with --env (the environment check confirms what the log cannot show)

    def environ(self, tmp: Path) -> Dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DS_", "CUDA_", "TORCH_", "PYTHON"))}
        paths = [str(ORACLE / "hf" / self.hf)] if self.hf else []
        paths += [str(ORACLE / "ds" / self.ds)] if self.ds else []
        env.update(PYTHONPATH=os.pathsep.join(paths), OMP_NUM_THREADS="1", PYTHONUNBUFFERED="1",
                   TORCH_EXTENSIONS_DIR=str(self.extensions_dir()), HF_HUB_OFFLINE="1",
                   TRANSFORMERS_NO_ADVISORY_WARNINGS="1", TMPDIR=str(tmp))
        env["PATH"] = f"{ORACLE / self.python / 'bin'}:{env.get('PATH', '')}"
        for k, val in self.env.items():
            env[k] = val.replace("{oracle}", str(ORACLE)).replace("{tmp}", str(tmp))
        return env

    def extensions_dir(self) -> Path:
        own = set(self.env) - {"PORT", "DS_ACCELERATOR"} or self.env.get("DS_ACCELERATOR", "cpu") != "cpu"
        shared = self.ds == "0.19.8" and self.python == "venv" and not own
        return EXT_0198 if shared else ORACLE / f"ext-explain-{self.ds}"

    def how(self) -> str:
        envs = " ".join(f"{k}={shlex.quote(v)}" for k, v in sorted(self.env.items()))
        pp = ":".join(([f"hf/{self.hf}"] if self.hf else []) + ([f"ds/{self.ds}"] if self.ds else []))
        run = " ".join(self.argv) if self.argv else "python train.py  # train.py = the scenario's code in produce.py"
        return (f"tests/cases/explain/produce.py {self.name}: PYTHONPATH={pp} {envs} {self.python}/bin/{run} "
                "(real libraries; paths rewritten: .cache/oracle -> /opt/envs, the temp dir -> /home/user/proj)")


def _opt(cls: str) -> str:
    return ("import torch\nfrom deepspeed.ops.adam import " + cls + "\n"
            "opt = " + cls + "([torch.nn.Parameter(torch.zeros(4))])\nprint('constructed')\n")


_DIST = ("import os\nos.environ.update(MASTER_ADDR='127.0.0.1', MASTER_PORT=os.environ.get('PORT', '29731'), RANK='0', "
         "LOCAL_RANK='0', WORLD_SIZE='1')\n")
_MODEL = "import torch, deepspeed\nmodel = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Linear(8, 2))\n"

_TINY_LLAMA = (
    "import os, tempfile, torch\n"
    "from transformers import LlamaConfig, LlamaForCausalLM, TrainingArguments\n"
    "d = os.path.join(os.environ['TMPDIR'], 'tiny')\n"
    "LlamaForCausalLM(LlamaConfig(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,"
    " num_key_value_heads=4, vocab_size=1000)).save_pretrained(d)\n"
    "ds = {'zero_optimization': {'stage': 3}, 'train_micro_batch_size_per_gpu': 'auto', 'train_batch_size': 'auto'}\n"
    "args = TrainingArguments(output_dir=os.path.join(os.environ['TMPDIR'], 'out'), deepspeed=ds, report_to=[])\n"
)

SCENARIOS: List[Scenario] = [
    Scenario("cuda-mismatch-ds0.15.4", "DeepSpeed 0.15.4, torch 2.14.1+cu130, CUDA_HOME = real nvcc 13.5, DS_ACCELERATOR=cuda: "
             "DeepSpeedCPUAdam(...) fails the CUDA check; ds_opt_adam AttributeError at GC",
             "cuda-version-mismatch", _opt("DeepSpeedCPUAdam"), ds="0.15.4",
             env={"CUDA_HOME": "{oracle}/nvcc/13.5/nvidia/cu13", "DS_ACCELERATOR": "cuda"},
             consequences=("ds_opt_adam",), evidence="Installed CUDA version 13.5"),
    Scenario("cuda-mismatch-ds0.19.7", "DeepSpeed 0.19.7, torch cu130, real nvcc 13.5, DS_ACCELERATOR=cuda",
             "cuda-version-mismatch", _opt("DeepSpeedCPUAdam"), ds="0.19.7",
             env={"CUDA_HOME": "{oracle}/nvcc/13.5/nvidia/cu13", "DS_ACCELERATOR": "cuda"},
             consequences=("ds_opt_adam",), evidence="Installed CUDA version 13.5"),
    Scenario("cuda-mismatch-skip-true-ds0.19.7", "DeepSpeed 0.19.7, real nvcc 13.5, DS_SKIP_CUDA_CHECK=true (ignored: only '1' counts)",
             "cuda-version-mismatch", _opt("DeepSpeedCPUAdam"), ds="0.19.7",
             env={"CUDA_HOME": "{oracle}/nvcc/13.5/nvidia/cu13", "DS_ACCELERATOR": "cuda", "DS_SKIP_CUDA_CHECK": "true"},
             consequences=("ds_opt_adam",)),
    Scenario("ninja-missing-ds0.19.8", "DeepSpeed 0.19.8 in a venv and PATH without ninja: wrapped RuntimeError",
             "ninja-missing", _opt("DeepSpeedCPUAdam"), ds="0.19.8", python="venv-noninja",
             env={"PATH": "{oracle}/venv-noninja/bin:{oracle}/path-noninja"},
             consequences=("requires the cpu_adam op",), evidence="ninja"),
    Scenario("ninja-missing-ds0.15.4", "DeepSpeed 0.15.4 (checks `import ninja`) in a venv without the ninja module",
             "ninja-missing", _opt("DeepSpeedCPUAdam"), ds="0.15.4", python="venv-noninja",
             env={"PATH": "{oracle}/venv-noninja/bin:{oracle}/path-noninja"}, consequences=("ds_opt_adam",)),
    Scenario("compiler-missing-ds0.19.8", "DeepSpeed 0.19.8 cpu_adam JIT with CXX=/nonexistent/c++ (fresh extensions dir)",
             "host-compiler-unsupported", _opt("DeepSpeedCPUAdam"), ds="0.19.8",
             env={"CXX": "/nonexistent/c++", "TORCH_EXTENSIONS_DIR": "{tmp}/ext"}, consequences=("requires the cpu_adam op",)),
    Scenario("stale-lock-torch2.13-ds0.15.4", "torch 2.13 CPU (FileBaton) + DeepSpeed 0.15.4 (verbose load), a leftover "
             "<ext>/cpu_adam/lock: the build hangs silently; killed by `timeout 25` (rc 124)",
             "no-failure", _opt("DeepSpeedCPUAdam"), ds="0.15.4", env_primary="torch-extensions-lock-stale", python="venv-cpu213",
             env={"TORCH_EXTENSIONS_DIR": "{tmp}/ext"}, setup="mkdir -p ext/cpu_adam && touch ext/cpu_adam/lock",
             argv=("timeout", "25", "{py}", "train.py")),
    Scenario("zero3-low-cpu-mem-tf4.46.3", "transformers 4.46.3: TrainingArguments(deepspeed=stage 3) then "
             "from_pretrained(..., low_cpu_mem_usage=True)", "zero3-low-cpu-mem-usage-conflict",
             _TINY_LLAMA + "m = LlamaForCausalLM.from_pretrained(d, low_cpu_mem_usage=True)\n", hf="tf4.46.3"),
    Scenario("zero3-device-map-tf4.46.3", "transformers 4.46.3: ZeRO-3 args then from_pretrained(..., device_map='auto') "
             "(the combined 4.20-4.50 message; the call line says device_map)", "zero3-device-map-conflict",
             _TINY_LLAMA + "m = LlamaForCausalLM.from_pretrained(d, device_map='auto')\n", hf="tf4.46.3"),
    Scenario("zero3-device-map-tf5.24.0", "transformers 5.24.0: ZeRO-3 args then from_pretrained(..., device_map='auto')",
             "zero3-device-map-conflict", _TINY_LLAMA + "m = LlamaForCausalLM.from_pretrained(d, device_map='auto')\n",
             hf="tf5.24.0"),
    Scenario("auto-without-trainer", "deepspeed.initialize with \"auto\" batch sizes (no HF Trainer to fill them)",
             "ds-config-auto-without-trainer",
             _DIST + _MODEL + "cfg = {'train_batch_size': 'auto', 'train_micro_batch_size_per_gpu': 'auto', "
             "'gradient_accumulation_steps': 'auto', 'optimizer': {'type': 'AdamW', 'params': {'lr': 1e-3}}}\n"
             "deepspeed.initialize(model=model, model_parameters=model.parameters(), config=cfg)\n", env={"PORT": "29741"}),
    Scenario("offload-client-optimizer", "deepspeed.initialize with a torch AdamW and offload_optimizer: cpu (ZeRO-3)",
             "offload-client-optimizer",
             _DIST + _MODEL + "cfg = {'train_batch_size': 2, 'zero_optimization': {'stage': 3, 'offload_optimizer': {'device': 'cpu'}}}\n"
             "opt = torch.optim.AdamW(model.parameters())\n"
             "deepspeed.initialize(model=model, optimizer=opt, config=cfg)\n", env={"PORT": "29742"}),
    Scenario("batch-size-mismatch", "deepspeed.initialize, world size 1, train_batch_size 16 vs micro 8 x GA 1",
             "batch-size-mismatch",
             _DIST + _MODEL + "cfg = {'train_batch_size': 16, 'train_micro_batch_size_per_gpu': 8, 'gradient_accumulation_steps': 1,"
             " 'optimizer': {'type': 'AdamW', 'params': {'lr': 1e-3}}}\n"
             "deepspeed.initialize(model=model, model_parameters=model.parameters(), config=cfg)\n", env={"PORT": "29743"}),
    Scenario("bucket-size-float", "DeepSpeed 0.19.8 config model given stage3_prefetch_bucket_size as a float "
             "(what transformers <= 4.44 filled for \"auto\")", "bucket-size-float",
             _DIST + _MODEL + "cfg = {'train_batch_size': 2, 'zero_optimization': {'stage': 3, 'stage3_prefetch_bucket_size': 15099494.4},"
             " 'optimizer': {'type': 'AdamW', 'params': {'lr': 1e-3}}}\n"
             "deepspeed.initialize(model=model, model_parameters=model.parameters(), config=cfg)\n", env={"PORT": "29744"}),
    Scenario("port-in-use", "deepspeed.init_distributed on a MASTER_PORT another process already listens on",
             "port-in-use",
             "import socket\ns = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('127.0.0.1', 29745)); s.listen()\n"
             + _DIST + "import deepspeed, datetime\ndeepspeed.init_distributed(dist_backend='gloo', timeout=datetime.timedelta(seconds=20))\n",
             env={"PORT": "29745"}),
    Scenario("mpi-discovery-no-launcher", "deepspeed.init_distributed() run with plain `python train.py` (no RANK/"
             "MASTER_ADDR, no mpi4py): DeepSpeed falls back to MPI discovery", "launcher-mpi-discovery",
             "import deepspeed\ndeepspeed.init_distributed(dist_backend='gloo')\n"),
    Scenario("no-sync-zero2", "engine.no_sync() on a ZeRO-2 engine (what accelerate's accumulate() does without DeepSpeed's GA)",
             "deepspeed-no-sync-incompat",
             _DIST + _MODEL + "cfg = {'train_batch_size': 2, 'zero_optimization': {'stage': 2}, 'optimizer': {'type': 'AdamW', "
             "'params': {'lr': 1e-3}}}\nengine, *_ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=cfg)\n"
             "with engine.no_sync():\n    pass\n", env={"PORT": "29748"}),
    Scenario("zero-stage-requires-optimizer", "deepspeed.initialize(model=model, config=<ZeRO-2, no optimizer block>) "
             "without an optimizer (an evaluation run with the training config)", "zero-stage-requires-optimizer",
             _DIST + _MODEL + "cfg = {'train_batch_size': 2, 'zero_optimization': {'stage': 2}}\n"
             "deepspeed.initialize(model=model, config=cfg)\n", env={"PORT": "29751"}),
    Scenario("zero-untested-optimizer", "deepspeed.initialize with a client torch.optim.Rprop under ZeRO-1 (not in "
             "DeepSpeed's ZeRO-supported list)", "zero-untested-optimizer",
             _DIST + _MODEL + "cfg = {'train_batch_size': 2, 'zero_optimization': {'stage': 1}}\n"
             "opt = torch.optim.Rprop(model.parameters())\n"
             "deepspeed.initialize(model=model, optimizer=opt, config=cfg)\n", env={"PORT": "29752"}),
    Scenario("ds-config-unknown-key-pydantic2", "DeepSpeed 0.19.8 config whose bf16 block carries fp16's "
             "loss_scale_window (pydantic 2 forbids the extra key)", "ds-config-unknown-key",
             _DIST + _MODEL + "cfg = {'train_batch_size': 2, 'bf16': {'enabled': True, 'loss_scale_window': 500}, "
             "'optimizer': {'type': 'AdamW', 'params': {'lr': 1e-3}}}\n"
             "deepspeed.initialize(model=model, model_parameters=model.parameters(), config=cfg)\n", env={"PORT": "29753"}),
    Scenario("nvme-path-missing", "deepspeed.zero.Init with offload_param device nvme and no nvme_path", "nvme-path-missing",
             _DIST + _MODEL + "cfg = {'train_batch_size': 2, 'zero_optimization': {'stage': 3, 'offload_param': "
             "{'device': 'nvme'}}}\n"
             "with deepspeed.zero.Init(config_dict_or_path=cfg):\n    m = torch.nn.Linear(8, 8)\n", env={"PORT": "29754"}),
    Scenario("ds-config-path-not-found", "transformers 4.46.3 TrainingArguments(deepspeed=<a path that does not exist>) "
             "(a typo): accelerate's HfDeepSpeedConfig parses the string as JSON, then base64", "ds-config-path-not-found",
             "from transformers import TrainingArguments\n"
             "TrainingArguments(output_dir='out', deepspeed='configs/ds_z2.jsn', report_to=[])\n", hf="tf4.46.3"),
    Scenario("hostfile-invalid", "the deepspeed launcher with a hostfile entry it cannot parse", "hostfile-invalid", "",
             env={"DS_ACCELERATOR": "cpu"}, setup="printf 'worker-1 slots=two\\n' > hostfile; echo 'print(1)' > victim.py",
             argv=("{py}", "-u", "{oracle}/ds/0.19.8/bin/deepspeed", "--hostfile", "hostfile", "victim.py")),
    Scenario("ssh-unreachable", "the deepspeed launcher with a two-host hostfile whose first host does not resolve",
             "ssh-unreachable", "", env={"DS_ACCELERATOR": "cpu"},
             setup="printf 'nohost-a1 slots=1\\nnohost-a2 slots=1\\n' > hostfile; echo 'print(1)' > victim.py",
             argv=("{py}", "-u", "{oracle}/ds/0.19.8/bin/deepspeed", "--hostfile", "hostfile", "victim.py")),
    Scenario("zero3-partitioned-forward", "transformers 4.46.3 + DeepSpeed 0.19.8: a model built under zero.Init (ZeRO-3 "
             "TrainingArguments first) called directly, outside the engine: its embedding weight is a size-0 partition",
             "zero3-partitioned-param-access",
             _DIST + _TINY_LLAMA + "m = LlamaForCausalLM.from_pretrained(d)\nprint(m.model.embed_tokens.weight.shape)\n"
             "m(torch.tensor([[1, 2, 3]]))\n", hf="tf4.46.3", env={"PORT": "29749"}),
    Scenario("sigkill-rank-launcher", "the deepspeed launcher (2 CPU ranks); rank 1 is SIGKILLed (what the kernel OOM killer does)",
             "host-oom-killed", "", env={"DS_ACCELERATOR": "cpu"},
             setup="printf '%s\\n' 'import os, signal, time' \"r = int(os.environ.get('RANK', '0'))\" "
                   "\"print(f'rank {r} started', flush=True)\" 'time.sleep(2)' "
                   "'os.kill(os.getpid(), signal.SIGKILL) if r == 1 else time.sleep(5)' > victim.py",
             argv=("{py}", "-u", "{oracle}/ds/0.19.8/bin/deepspeed", "--num_gpus", "2", "--master_port", "29746", "victim.py")),
    Scenario("sigkill-rank-torchrun", "torchrun --nproc-per-node 2 --tee 3 (prefixes [default0]:); rank 1 SIGKILLs itself",
             "host-oom-killed", "", ds=None,
             setup="printf '%s\\n' 'import os, signal, time' \"r = int(os.environ.get('RANK', '0'))\" "
                   "\"print(f'rank {r} started', flush=True)\" 'time.sleep(2)' "
                   "'os.kill(os.getpid(), signal.SIGKILL) if r == 1 else time.sleep(5)' > victim.py",
             argv=("{py}", "-m", "torch.distributed.run", "--nproc-per-node", "2", "--tee", "3", "--master-port", "29747", "victim.py")),
    Scenario("dataloader-sigbus", "a DataLoader worker dies with SIGBUS (what a too-small /dev/shm does)", "shm-too-small",
             "import os, signal, torch\nfrom torch.utils.data import DataLoader, Dataset\n"
             "class D(Dataset):\n    def __len__(self): return 8\n"
             "    def __getitem__(self, i):\n        os.kill(os.getpid(), signal.SIGBUS)\n        return i\n"
             "for b in DataLoader(D(), num_workers=1): pass\n", ds=None),
    Scenario("disk-full-save", "torch.save of a state dict to /dev/full (ENOSPC on write)", "disk-write-failed",
             "import torch\ntorch.save({'w': torch.zeros(1 << 20)}, '/dev/full')\n", ds=None),
    Scenario("accelerator-autodetect-cpu-ds-report", "ds_report of deepspeed 0.19.8 on a machine with no visible GPU (no "
             "DS_ACCELERATOR): the cpu accelerator is auto-selected and its ops are listed", "accelerator-autodetect-cpu", "",
             argv=("{py}", "-u", "{oracle}/ds/0.19.8/bin/ds_report")),
    Scenario("user-code-error", "a plain bug in the training script after DeepSpeed imported fine", "user-code-error",
             "import deepspeed\ndef build_batch(rows):\n    return [r['input_ids'] for r in rows]\n"
             "def main():\n    batch = build_batch([{'ids': [1, 2]}])\n    print(batch)\nmain()\n"),
    Scenario("no-failure-skip-check", "DeepSpeed 0.19.7 + nvcc 13.5 with DS_SKIP_CUDA_CHECK=1: builds, warns, no failure",
             "no-failure", _opt("DeepSpeedCPUAdam"), ds="0.19.7",
             env={"CUDA_HOME": "{oracle}/nvcc/13.5/nvidia/cu13", "DS_ACCELERATOR": "cuda", "DS_SKIP_CUDA_CHECK": "1"}, timeout=600),
]

BY_NAME = {s.name: s for s in SCENARIOS}


def run(s: Scenario, tmp: Path) -> Tuple[int, str]:
    """Run a scenario for real; returns (rc, combined output)."""
    env = s.environ(tmp)
    py = str(ORACLE / s.python / "bin" / "python")
    if s.setup:
        subprocess.run(["bash", "-c", s.setup], cwd=tmp, env=env, check=True)
    if s.code:  # a real script file, so tracebacks show the source lines (the call line decides some causes)
        (tmp / "train.py").write_text(s.code)
    argv = [a.replace("{py}", py).replace("{oracle}", str(ORACLE)) for a in s.argv] if s.argv else [py, "train.py"]
    p = subprocess.run(argv, cwd=tmp, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=s.timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def _toml_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write(s: Scenario, rc: int, out: str, tmp: Path) -> None:
    for real, shown in ((ORACLE, "/opt/envs"), (ORACLE.resolve(), "/opt/envs"), (REPO, "/work/proj"), (tmp, "/home/user/proj")):
        out = out.replace(str(real), shown)
    (HERE / f"{s.name}.log").write_text(out)
    lines = [f"description = {_toml_str(s.description)}", f"produced = {_toml_str(s.how())}",
             f"exit_status = {rc}", "", "[expect]", f"primary = {_toml_str(s.expect)}"]
    if s.consequences:
        lines.append("consequences = [" + ", ".join(_toml_str(c) for c in s.consequences) + "]")
    if s.evidence:
        lines.append(f"evidence = {_toml_str(s.evidence)}")
    if s.env_primary:
        lines.append(f"env_primary = {_toml_str(s.env_primary)}")
    (HERE / f"{s.name}.toml").write_text("\n".join(lines) + "\n")


def main(names: List[str]) -> int:
    for s in [BY_NAME[n] for n in names] if names else SCENARIOS:
        with tempfile.TemporaryDirectory(prefix="dsd-explain-") as d:
            try:
                rc, out = run(s, Path(d))
            except subprocess.TimeoutExpired:
                print(f"{s.name}: timed out", file=sys.stderr)
                continue
            write(s, rc, out, Path(d))
        print(f"{s.name}: rc={rc}, {len(out.splitlines())} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
