import torch
from accelerate import Accelerator

acc = Accelerator()
net = torch.nn.Linear(4, 4)
opt = torch.optim.AdamW(net.parameters(), lr=1e-5)
net, opt = acc.prepare(net, opt)
acc.save_model(net, "out")
