from transformers import AutoModelForCausalLM
from trl import get_kbit_device_map, get_quantization_config


def get_model(model_args):
    # TRL's get_quantization_config is None unless --load_in_4bit / --load_in_8bit: so is the device_map
    quantization_config = get_quantization_config(model_args)
    model_kwargs = dict(
        torch_dtype=model_args.torch_dtype,
        device_map=get_kbit_device_map() if quantization_config is not None else None,
        quantization_config=quantization_config,
    )
    return AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path, **model_kwargs)
