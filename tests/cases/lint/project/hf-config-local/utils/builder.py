from transformers import AutoModelForCausalLM

from utils.hf_model import create_hf_model


def build_model(arch, ds_config):
    if arch == "default":
        return create_hf_model("facebook/opt-125m", ds_config)
    return AutoModelForCausalLM.from_pretrained("facebook/opt-350m", low_cpu_mem_usage=True)
