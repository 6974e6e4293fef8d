import deepspeed
import torch

model = torch.nn.Linear(8, 8)
engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds_zero3.json")
engine.save_16bit_model("out")  # reads nothing: without the flag this writes no weights
