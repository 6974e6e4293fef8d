deepspeed ppo.py
