from transformers import AutoModelForCausalLM


def tiny_model():
    return AutoModelForCausalLM.from_pretrained("gpt2", device_map={"": 0}, low_cpu_mem_usage=True)
