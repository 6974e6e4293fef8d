#!/bin/bash
pip install transformers==4.28.0
cd vendor/deltalib
pip install -e .
cd ../..
