# dsdoctor-case: target=transformers==5.24.0 zero3=project
# expect: zero3-unsupported-quantization@14 info
# expect: zero3-device-map-conflict@20 info
"""Written in the style of TRL's sft.py: a kwargs dict whose device_map is None unless quantized. With
--load_in_4bit / --load_in_8bit, TRL's get_kbit_device_map() is {"": local rank}, which ZeRO-3 refuses, and
get_quantization_config() gives 8-bit bitsandbytes with --load_in_8bit (findings that need those flags: info, as the
ZeRO-3 launch here passes neither; tests/cases/lint/project/trl-config-yaml has a launch that does)."""
import torch
from transformers import AutoModelForCausalLM
from trl import ModelConfig, ScriptArguments, SFTConfig, SFTTrainer, TrlParser, get_kbit_device_map, get_quantization_config


def main(script_args, training_args, model_args):
    quantization_config = get_quantization_config(model_args)
    model_kwargs = dict(
        revision=model_args.model_revision,
        trust_remote_code=model_args.trust_remote_code,
        torch_dtype=torch.bfloat16,
        use_cache=False if training_args.gradient_checkpointing else True,
        device_map=get_kbit_device_map() if quantization_config is not None else None,
        quantization_config=quantization_config,
    )
    model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path, **model_kwargs)
    trainer = SFTTrainer(model=model, args=training_args)
    trainer.train()
    trainer.save_model(training_args.output_dir)


if __name__ == "__main__":
    parser = TrlParser((ScriptArguments, SFTConfig, ModelConfig))
    script_args, training_args, model_args = parser.parse_args_and_config()
    main(script_args, training_args, model_args)
