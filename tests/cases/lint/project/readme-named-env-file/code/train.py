import deepspeed
from transformers import AutoModelForCausalLM
from transformers.deepspeed import HfDeepSpeedConfig

dschf = HfDeepSpeedConfig("config/dsconfig.json")
model = AutoModelForCausalLM.from_pretrained("facebook/galactica-125m")
engine, _, _, _ = deepspeed.initialize(model=model, config="config/dsconfig.json")
