#!/bin/sh
# usage: sh launch.sh <accelerate config>
accelerate launch --config_file "$1" train.py
