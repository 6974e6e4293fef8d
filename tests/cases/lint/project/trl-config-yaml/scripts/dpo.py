from transformers import AutoModelForCausalLM
from trl import DPOConfig, DPOTrainer, ModelConfig, TrlParser, get_quantization_config

parser = TrlParser((ModelConfig, DPOConfig))
model_args, training_args = parser.parse_args_and_config()
model = AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path,
                                             quantization_config=get_quantization_config(model_args))
DPOTrainer(model=model, args=training_args).train()
