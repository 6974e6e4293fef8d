#!/bin/bash
WORKDIR=$(pwd)
CONF=conf/z3_nodes.json
rank=0
for node in $(cat hosts.txt); do
    ssh -o StrictHostKeyChecking=no $node eval \
        "cd ${WORKDIR} && \
         export OMP_NUM_THREADS=4 && \

         torchrun --nnodes=2 --node_rank=${rank} --nproc_per_node=8 \
             --master_addr=node0 --master_port=29500 \
             sft.py --deepspeed $CONF --output_dir out 1>>log.$node 2>&1" &
    rank=$((rank + 1))
done
wait
