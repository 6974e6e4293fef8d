import torch
from accelerate import Accelerator


def main():
    acc = Accelerator()
    net = torch.nn.Linear(32, 2)
    opt = torch.optim.AdamW(net.parameters(), lr=1e-4)
    net, opt = acc.prepare(net, opt)
    for _ in range(2):
        loss = net(torch.randn(4, 32)).sum()
        acc.backward(loss)
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
