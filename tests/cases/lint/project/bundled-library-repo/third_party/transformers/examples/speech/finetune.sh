#!/bin/bash
deepspeed run_speech.py --deepspeed ds_zero2_example.json --output_dir out
