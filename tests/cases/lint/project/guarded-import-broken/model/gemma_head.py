import torch


class GemmaHead(torch.nn.Module)
    pass
