"""Rules on launch files: hostfile, .deepspeed_env, shell scripts with deepspeed/torchrun/accelerate commands."""
