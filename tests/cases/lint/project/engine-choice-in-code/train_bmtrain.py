from engine import Trainer
from transformers import AutoModelForCausalLM

model = AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")  # BMTrain: no ZeRO-3 here
Trainer(env_type="bmtrain", deepspeed_config="configs/zero3.json").train(model)
