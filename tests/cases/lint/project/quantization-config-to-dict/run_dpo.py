from transformers import AutoModelForCausalLM
from trl import DPOConfig, DPOTrainer, ModelConfig, TrlParser, get_kbit_device_map, get_quantization_config


def main():
    model_args, training_args = TrlParser((ModelConfig, DPOConfig)).parse_args_and_config()
    quantization_config = get_quantization_config(model_args).to_dict()
    model_kwargs = dict(
        torch_dtype="auto",
        device_map=get_kbit_device_map() if quantization_config is not None else None,
        quantization_config=quantization_config,
    )
    model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path, **model_kwargs)
    DPOTrainer(model=model, args=training_args).train()


if __name__ == "__main__":
    main()
