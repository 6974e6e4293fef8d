from transformers import AutoModelForCausalLM


def load(name):
    return AutoModelForCausalLM.from_pretrained(name, low_cpu_mem_usage=True)
