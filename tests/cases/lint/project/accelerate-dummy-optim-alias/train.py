import torch
from accelerate import Accelerator
from accelerate.utils import DummyOptim, DummyScheduler
from transformers import AutoModelForCausalLM

accelerator = Accelerator()
model = AutoModelForCausalLM.from_pretrained("gpt2")
loader = torch.utils.data.DataLoader(list(range(64)), batch_size=1)
plugin = accelerator.state.deepspeed_plugin
# the class is picked by name: DummyOptim where the config has an optimizer block, as accelerate requires
optimizer_cls = torch.optim.AdamW if plugin is None or "optimizer" not in plugin.deepspeed_config else DummyOptim
optim = optimizer_cls(model.parameters(), lr=2e-5, weight_decay=0.0)
sched = DummyScheduler(optim, total_num_steps=1000, warmup_num_steps=10)
model, optim, loader, sched = accelerator.prepare(model, optim, loader, sched)
for batch in loader:
    accelerator.backward(model(batch).loss)
    optim.step()
    sched.step()
accelerator.wait_for_everyone()
accelerator.unwrap_model(model).save_pretrained("out", state_dict=accelerator.get_state_dict(model))
