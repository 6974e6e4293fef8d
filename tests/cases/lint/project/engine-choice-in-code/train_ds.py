from engine import Trainer
from transformers import AutoModelForCausalLM

model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")
Trainer(env_type="deepspeed", deepspeed_config="configs/zero3.json").train(model)
