import torch
from accelerate import Accelerator
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from transformers import AutoModelForCausalLM


def train_fsdp(name):
    model = AutoModelForCausalLM.from_pretrained(name, device_map={"": torch.cuda.current_device()})
    return Accelerator().prepare(FSDP(model))
