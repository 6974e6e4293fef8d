import torch
<<<<<<< HEAD
from torch import nn
=======
from torch import nn as tnn
>>>>>>> mpt


class MptHead(nn.Module):
    pass
