import deepspeed
from transformers import AutoModelForCausalLM
from transformers.deepspeed import HfDeepSpeedConfig

ds_config = {"zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": 1}
keep = HfDeepSpeedConfig(ds_config)
model = AutoModelForCausalLM.from_pretrained("bigscience/bloom-560m")
engine = deepspeed.initialize(model=model, config_params=ds_config)[0]
