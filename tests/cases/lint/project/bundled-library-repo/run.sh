#!/bin/bash
deepspeed train.py --deepspeed third_party/transformers/examples/speech/ds_zero2_used.json --output_dir out
