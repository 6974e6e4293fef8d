#!/bin/bash
mode=$1
case "$mode" in
    full) ds_config=configs/zero3.json; cache_mode=local ;;
    *)
        ds_config=configs/zero2.json
        cache_mode=none
        ;;
esac
deepspeed --num_gpus 8 kept.py --deepspeed $ds_config --cache_mode $cache_mode
