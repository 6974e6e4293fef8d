#!/bin/bash
deepspeed train_ok.py --deepspeed --deepspeed_config ds.json
