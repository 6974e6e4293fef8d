#!/bin/bash
# start the container on every node of the list (pdsh), then run the job inside
pdsh -w ^pdsh_hosts "docker run --gpus all -d trainer:latest"
