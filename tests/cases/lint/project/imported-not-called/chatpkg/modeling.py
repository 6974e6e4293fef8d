import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


def build_for_training(path):
    return AutoModelForCausalLM.from_pretrained(path, torch_dtype=torch.bfloat16)


def save_weights(trainer, out_dir):
    torch.save(trainer.model.state_dict(), f"{out_dir}/weights.bin")


def load_for_chat(path, device_map="auto"):
    model = AutoModelForCausalLM.from_pretrained(path, device_map=device_map, low_cpu_mem_usage=True)
    return model, AutoTokenizer.from_pretrained(path)


def load_8bit(path):
    return AutoModelForCausalLM.from_pretrained(path, device_map="auto")


LOADERS = {"8bit": load_8bit}
