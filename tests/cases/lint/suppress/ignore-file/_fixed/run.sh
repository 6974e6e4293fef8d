#!/bin/bash
# dsdoctor: ignore-file[DS416]
deepspeed --export A=1 train.py --deepspeed ds.hjson
deepspeed --export B=1 train.py --deepspeed ds.hjson
