from transformers import AutoModelForCausalLM
from transformers.integrations import HfDeepSpeedConfig


def create_hf_model(path, ds_config):
    if ds_config["zero_optimization"]["stage"] == 3:
        dschf = HfDeepSpeedConfig(ds_config)  # noqa: F841 (alive while this function loads)
    return AutoModelForCausalLM.from_pretrained(path, low_cpu_mem_usage=True)
