from transformers import AutoModelForCausalLM
from trl import get_kbit_device_map, get_quantization_config


def get_model(model_args):
    quantization_config = get_quantization_config(model_args)
    return AutoModelForCausalLM.from_pretrained(
        model_args.model_name_or_path,
        quantization_config=quantization_config,
        device_map=get_kbit_device_map() if quantization_config is not None else None,
    )
