"""The training loop."""
import deepspeed


def pretrain(model=None, optimizer=None, args=None, mpu=None):
    model, optimizer, _, _ = deepspeed.initialize(model=model, optimizer=optimizer, args=args, mpu=mpu)
    return model
