import torch
from accelerate import init_empty_weights
from olmo_core.nn.transformer import TransformerConfig
from transformers import AutoConfig, AutoModelForCausalLM


def export_hf(state_dict, name, out_dir):
    cfg = AutoConfig.from_pretrained(name)
    with init_empty_weights():
        model = AutoModelForCausalLM.from_config(cfg)
    model.load_state_dict({k: v.to(torch.bfloat16) for k, v in state_dict.items()}, assign=True)
    model.save_pretrained(out_dir)


def olmo_config(name):
    return TransformerConfig.llama2_7B(vocab_size=len(name))
