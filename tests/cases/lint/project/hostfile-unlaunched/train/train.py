import deepspeed

deepspeed.init_distributed()
