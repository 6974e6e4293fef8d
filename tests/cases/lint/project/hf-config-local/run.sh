deepspeed main.py --zero_stage 3 --arch custom
