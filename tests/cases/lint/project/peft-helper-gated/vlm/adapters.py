from peft import LoraConfig, get_peft_model


def add_adapters(model, rank):
    return get_peft_model(model, LoraConfig(r=rank, target_modules=["q_proj", "v_proj"]))
