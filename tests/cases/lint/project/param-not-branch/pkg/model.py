from transformers import AutoModelForCausalLM


def load_model(name, train=False, gpu=0):
    if not train:
        init_args = {"device_map": {"": gpu}}
    else:
        init_args = {}
    return AutoModelForCausalLM.from_pretrained(name, **init_args)


def load_for_sampling(cfg):
    return load_model(cfg.name, train=False, gpu=cfg.gpu)
