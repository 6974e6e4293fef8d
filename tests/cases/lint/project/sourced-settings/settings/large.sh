#! /bin/bash
self=$(realpath $BASH_SOURCE)
here=$(dirname $self)

ds_json="$here/ds_large.json"
model_opts=" \
       --num-layers 24 \
       --hidden-size 1024 \
"
