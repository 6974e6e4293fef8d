"""Oracle for ``prepare-kbit-under-zero3``: PEFT's ``prepare_model_for_kbit_training`` upcasts the parameters
to fp32, and under DeepSpeed that does not last: built under ``zero.Init`` only the empty stand-ins are cast and
the bf16 partitions stay; built whole (as a quantized model is, zero.Init skipped), ``deepspeed.initialize`` casts
the parameters back to the config's bf16 before ZeRO-3 partitions them; LoRA trains in every case. One process
(DeepSpeed 0.19.8, PEFT 0.13.2, Transformers 4.46.3; one rank, CPU accelerator, gloo) runs the three ways, and
``dsdoctor lint`` of a project launching the same script (and of a QLoRA one) must say info: nothing fails."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from envfixture import need_oracle, one_rank_env

from dsdoctor.lint import lint

pytestmark = pytest.mark.oracle

REPO = Path(__file__).resolve().parents[2]
ORACLE = Path(os.environ.get("DSDOCTOR_ORACLE_DIR") or REPO / ".cache" / "oracle")
VPY = ORACLE / "venv" / "bin" / "python"

TRAIN = '''import json
import os
import sys

import torch
from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training
from transformers import LlamaConfig, LlamaForCausalLM
from transformers.integrations import HfDeepSpeedConfig


def run(cfg, prepare, init):
    import contextlib

    import deepspeed
    keep = HfDeepSpeedConfig(cfg)
    small = LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                        num_attention_heads=4, num_key_value_heads=4, torch_dtype=torch.bfloat16)
    with deepspeed.zero.Init(config_dict_or_path=cfg, dtype=torch.bfloat16) if init else contextlib.nullcontext():
        model = LlamaForCausalLM(small).to(torch.bfloat16)
    if prepare:
        model = prepare_model_for_kbit_training(model, use_gradient_checkpointing=False)
    before = sorted({str(p.dtype) for p in model.parameters()})
    model = get_peft_model(model, LoraConfig(r=4, target_modules=["q_proj", "v_proj"]))
    engine, *_ = deepspeed.initialize(model=model, config=cfg,
                                      model_parameters=[p for p in model.parameters() if p.requires_grad])
    base = [p for n, p in engine.module.named_parameters() if "lora_" not in n]
    torch.manual_seed(0)
    x = torch.randint(0, 64, (1, 8))
    losses = []
    for _ in range(3):
        out = engine(input_ids=x, labels=x)
        engine.backward(out.loss)
        engine.step()
        losses.append(float(out.loss.detach()))
    return keep, {"prepare": prepare, "init": init, "before": before,
                  "partition": sorted({str(p.ds_tensor.dtype) for p in base}), "losses": losses}


if __name__ == "__main__":
    import deepspeed.comm.torch as ct
    ct.build_shm_op = lambda: None  # a speed-up only; its JIT build can hang on a loaded machine
    import deepspeed
    deepspeed.init_distributed(dist_backend="gloo")
    cfg = json.load(open(sys.argv[sys.argv.index("--deepspeed_config") + 1]))
    for prepare, init in ((False, True), (True, True), (True, False)):
        print("RESULT", json.dumps(run(cfg, prepare, init)[1]), flush=True)
    os._exit(0)  # skip C++ static destructors: a process-group thread can abort the teardown
'''
CONFIG = {"train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 1, "bf16": {"enabled": True},
          "optimizer": {"type": "Adam", "params": {"lr": 1e-3, "torch_adam": True}}, "zero_optimization": {"stage": 3}}
QLORA = '''import torch
from peft import prepare_model_for_kbit_training
from transformers import AutoModelForCausalLM, BitsAndBytesConfig, HfArgumentParser, TrainingArguments
args, = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
q = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_storage=torch.bfloat16)
model = AutoModelForCausalLM.from_pretrained("m", quantization_config=q, torch_dtype=torch.bfloat16)
model = prepare_model_for_kbit_training(model)
'''



def _found(root: Path) -> list:
    return [(f.severity.value, f.path.split("/")[-1], f.line) for f in
            lint([str(root)], ds_version="0.19.8").report.findings if f.name == "prepare-kbit-under-zero3"]


def test_prepare_upcast_does_not_last_as_predicted(tmp_path: Path) -> None:
    need_oracle(ORACLE / "hf" / "tf4.46.3")
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "ds.json").write_text(json.dumps(CONFIG))
    (tmp_path / "run.sh").write_text("#!/bin/bash\ndeepspeed --num_gpus 1 train.py --deepspeed_config ds.json\n")
    assert _found(tmp_path) == [("info", "train.py", 21)]
    (tmp_path / "qlora.py").write_text(QLORA)
    (tmp_path / "run.sh").write_text("#!/bin/bash\ndeepspeed --num_gpus 1 train.py --deepspeed_config ds.json\n"
                                     "deepspeed --num_gpus 1 qlora.py --output_dir out --deepspeed ds.json\n")
    assert sorted(_found(tmp_path)) == [("info", "qlora.py", 7), ("info", "train.py", 21)]

    path = os.pathsep.join(str(ORACLE / p) for p in ("ds/0.19.8", "hf/tf4.46.3"))
    env = one_rank_env(path)
    p = subprocess.run([str(VPY), "train.py", "--deepspeed_config", "ds.json"], cwd=tmp_path,
                       capture_output=True, text=True, env=env, timeout=300)
    out = p.stdout + p.stderr
    assert p.returncode == 0, out[-3000:]
    got = {(r["prepare"], r["init"]): r for r in (json.loads(line[7:]) for line in out.splitlines()
                                                  if line.startswith("RESULT "))}
    assert set(got) == {(False, True), (True, True), (True, False)}, out[-3000:]
    # the upcast happens: under zero.Init on the stand-ins, else on the whole parameters
    assert got[(True, True)]["before"] == ["torch.float32"] and got[(True, False)]["before"] == ["torch.float32"]
    for r in got.values():  # and does not last: the partitions ZeRO-3 trains are bf16 either way
        assert r["partition"] == ["torch.bfloat16"], r
        assert all(a > b for a, b in zip(r["losses"], r["losses"][1:])), r  # LoRA trains
