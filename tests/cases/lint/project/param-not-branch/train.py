from accelerate import Accelerator
from pkg.model import load_model

accelerator = Accelerator()
model = load_model("facebook/opt-125m", train=True)
model = accelerator.prepare(model)
