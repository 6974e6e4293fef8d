from transformers import AutoModelForCausalLM


def load_model(name):
    return AutoModelForCausalLM.from_pretrained(name, device_map="auto")


def load_for_inference(name):
    """Used by the serving code, never by training: no ZeRO-3 finding."""
    return AutoModelForCausalLM.from_pretrained(name, device_map="auto", low_cpu_mem_usage=True)
