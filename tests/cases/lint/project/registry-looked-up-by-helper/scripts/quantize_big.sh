#!/bin/bash
python src/quantize.py Big gpt2-xl
