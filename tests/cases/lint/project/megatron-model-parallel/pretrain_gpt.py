"""Pretrain GPT with Megatron-DeepSpeed."""
import deepspeed
from megatron.training import pretrain

if __name__ == "__main__":
    deepspeed.init_distributed()
    pretrain()
