from transformers import AutoModelForCausalLM


def load_model(name):
    return AutoModelForCausalLM.from_pretrained(name, device_map="auto")
