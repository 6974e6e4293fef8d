# dsdoctor-case: target=transformers==4.46.3 zero3=project
"""Written in the style of LLaMA-Factory's loader: init_kwargs filled only when ZeRO-3 is off (no finding)."""
from typing import Any, Dict

from transformers import AutoConfig, AutoModelForCausalLM
from transformers.integrations import is_deepspeed_zero3_enabled
from transformers.modeling_utils import is_fsdp_enabled


def patch_config(model_args: Any, init_kwargs: Dict[str, Any]) -> None:
    if not is_deepspeed_zero3_enabled() and not is_fsdp_enabled():
        init_kwargs["low_cpu_mem_usage"] = model_args.low_cpu_mem_usage
        if "device_map" not in init_kwargs and model_args.quantization_device_map:
            init_kwargs["device_map"] = model_args.quantization_device_map


def load_model(model_args: Any, finetuning_args: Any, is_trainable: bool = False) -> Any:
    init_kwargs: Dict[str, Any] = {"trust_remote_code": True, "cache_dir": model_args.cache_dir}
    config = AutoConfig.from_pretrained(model_args.model_name_or_path, **init_kwargs)
    patch_config(model_args, init_kwargs)
    if not is_deepspeed_zero3_enabled():
        init_kwargs["device_map"] = "auto"
    else:
        init_kwargs["device_map"] = None
    init_kwargs["config"] = config
    init_kwargs["pretrained_model_name_or_path"] = model_args.model_name_or_path
    model = AutoModelForCausalLM.from_pretrained(**init_kwargs)
    return model
